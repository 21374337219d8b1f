/**
 * The tools' arguments have the playground's bounds, checked before anything runs: a cursor over
 * 2000 characters, a search over 200 (a follower search over 100), a whole number over 15 digits,
 * a comment over 2200 characters or of spaces only, a message over 1000, or an id with spaces
 * around it is a bad_request naming the field. Instagram is not called, and the user is not asked
 * to approve a write that would be refused anyway.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { OutputFiles } from '../../src/agent/files'
import { createDemoClient } from '../../src/demo'
import type { JobManager } from '../../src/jobs/manager'
import { jobsTools } from '../../src/mcp/jobs-tools'
import { methodTools } from '../../src/mcp/method-tools'
import { createMcpServer } from '../../src/mcp/server'
import { checkInput } from '../../src/mcp/tool'
import { watchTools } from '../../src/mcp/watch-tools'

const unused = () => {
	throw new Error('not used to check arguments')
}
const schemas = new Map(
	[...methodTools({ includeWrites: true }), ...jobsTools(unused), ...watchTools(unused)].map((tool) => [
		tool.name,
		tool.inputSchema
	])
)
const check = (name: string, input: Record<string, unknown>) => {
	const schema = schemas.get(name)
	if (!schema) throw new Error(`no tool ${name}`)
	return checkInput(schema, input)
}

describe('the input schemas have the playground bounds', () => {
	test('a cursor is at most 2000 characters', () => {
		for (const [name, args] of [
			['friendships_get_followers', { userPk: '1000000002' }],
			['media_get_comments', { mediaPk: '3842790443716764595' }],
			['search_explore', {}]
		] as const) {
			expect(check(name, { ...args, cursor: 'a'.repeat(2000) })).toBeUndefined()
			expect(check(name, { ...args, cursor: 'a'.repeat(20000) })).toBe(
				"Invalid argument 'cursor': Expected string length less or equal to 2000"
			)
		}
	})

	test('a search is 1-200 characters, not only spaces; a follower search 1-100', () => {
		for (const name of ['search_users', 'search_top', 'search_hashtags', 'search_places', 'users_search']) {
			expect(check(name, { query: 'a'.repeat(200) })).toBeUndefined()
			expect(check(name, { query: 'a'.repeat(20000) })).toBe(
				"Invalid argument 'query': Expected string length less or equal to 200"
			)
			expect(check(name, { query: '   ' })).toBe(
				"Invalid argument 'query': expected search text: 1-200 characters, not only spaces"
			)
		}
		expect(
			check('friendships_get_followers', { userPk: '1000000002', query: 'a'.repeat(100) })
		).toBeUndefined()
		expect(check('friendships_get_followers', { userPk: '1000000002', query: 'a'.repeat(101) })).toBe(
			"Invalid argument 'query': Expected string length less or equal to 100"
		)
	})

	test('whole numbers have at most 15 digits', () => {
		const tooBig = 'Expected integer to be less or equal to 999999999999999'
		const start = { kind: 'posts', target: 'luna.explorer' }
		expect(check('jobs_start', { ...start, limit: 999_999_999_999_999 })).toBeUndefined()
		// 2 ** 53: what JSON reads 9007199254740993 as.
		for (const limit of [1e300, 2 ** 53, 1e15])
			expect(check('jobs_start', { ...start, limit })).toBe(`Invalid argument 'limit': ${tooBig}`)
		expect(check('jobs_status', { id: 1e300 })).toBe(`Invalid argument 'id': ${tooBig}`)
		expect(check('jobs_records', { id: 1, offset: 1e300 })).toBe(`Invalid argument 'offset': ${tooBig}`)
		expect(check('watch_history', { id: 1e300 })).toBe(`Invalid argument 'id': ${tooBig}`)
		expect(check('watch_diff', { id: 1, from: 1e16 })).toBe(`Invalid argument 'from': ${tooBig}`)
		expect(check('jobs_start', { ...start, target: 'a'.repeat(2001) })).toBe(
			"Invalid argument 'target': Expected string length less or equal to 2000"
		)
	})

	test('a comment is 1-2200 characters and a message 1-1000, not only spaces', () => {
		const media = { mediaPk: '3842790443716764595' }
		expect(check('media_comment', { ...media, text: 'x'.repeat(2200) })).toBeUndefined()
		expect(check('media_comment', { ...media, text: 'x'.repeat(2201) })).toBe(
			"Invalid argument 'text': Expected string length less or equal to 2200"
		)
		expect(check('media_comment', { ...media, text: ' \n\t ' })).toBe(
			"Invalid argument 'text': expected comment text: 1-2200 characters, not only spaces"
		)
		const user = { userPk: '1000000002' }
		expect(check('direct_send_text', { ...user, text: 'x'.repeat(1000) })).toBeUndefined()
		expect(check('direct_send_text', { ...user, text: 'x'.repeat(1001) })).toBe(
			"Invalid argument 'text': Expected string length less or equal to 1000"
		)
	})

	test('ids are digits only, as the playground takes them', () => {
		expect(check('users_get_by_id', { userPk: '1000000002' })).toBeUndefined()
		for (const userPk of [' 1000000002', '1000000002 ', '1e9', '1'.repeat(21)])
			expect(check('users_get_by_id', { userPk })).toBe(
				"Invalid argument 'userPk': expected a user's numeric id (pk) as a string of digits, nothing else"
			)
		expect(check('media_get_info', { mediaPk: '3842790443716764595_1000000002' })).toBeUndefined()
		expect(check('media_get_info', { mediaPk: ' 3842790443716764595' })).toContain(
			"Invalid argument 'mediaPk': expected a media pk"
		)
		expect(check('users_get_by_username', { username: '@luna.explorer' })).toBeUndefined()
		expect(check('users_get_by_username', { username: 'luna explorer' })).toContain(
			"Invalid argument 'username': expected an Instagram username"
		)
		expect(check('feed_get_tag_feed', { tag: 'travel' })).toBeUndefined()
		expect(check('feed_get_tag_feed', { tag: 'a'.repeat(101) })).toContain("Invalid argument 'tag'")
	})
})

// In process: the requests reaching "Instagram" are counted; each refused call must reach none.
const folder = mkdtempSync(join(tmpdir(), 'smkit-mcp-bounds-'))
const requests: string[] = []
const upstream = Bun.serve({
	port: 0,
	hostname: '127.0.0.1',
	fetch(request) {
		requests.push(request.url)
		return new Response('Request Header Fields Too Large', { status: 431 })
	}
})
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
	for (const close of closing.splice(0)) await close()
	requests.length = 0
})
afterAll(() => {
	upstream.stop(true)
	rmSync(folder, { recursive: true, force: true })
})

/** A server on the counting upstream, and a client that supports elicitation and always allows. */
async function connect() {
	const started: unknown[] = []
	const manager = {
		startOrContinue: (spec: unknown) => started.push(spec),
		get: () => undefined
	} as unknown as JobManager
	const server = createMcpServer({
		client: createDemoClient(upstream.url.origin),
		version: '0.0.0',
		permission: 'ask_once',
		readOnly: false,
		loggedIn: true,
		files: new OutputFiles('output', { cwd: folder }),
		jobs: () => manager,
		watches: unused,
		log: () => {}
	})
	const asked: string[] = []
	const client = new Client(
		{ name: 'user', version: '1.0.0' },
		{ capabilities: { elicitation: { form: {} } } }
	)
	client.setRequestHandler(ElicitRequestSchema, async (request) => {
		asked.push(request.params.message)
		return { action: 'accept', content: { allow: true } }
	})
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
	await server.connect(serverSide)
	await client.connect(clientSide)
	closing.push(
		() => client.close(),
		() => server.close()
	)
	const failure = async (name: string, args: Record<string, unknown>) => {
		const result = await client.callTool({ name, arguments: args })
		expect(result.isError).toBe(true)
		return JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}')
	}
	return { asked, started, failure }
}

describe('a call outside the bounds is refused before anything runs', () => {
	test('a long cursor or search never reaches Instagram', async () => {
		const { failure } = await connect()
		const long = 'a'.repeat(20000)
		for (const [name, args, field] of [
			['friendships_get_followers', { userPk: '1000000002', cursor: long }, 'cursor'],
			['friendships_get_followers', { userPk: '1000000002', query: long }, 'query'],
			['media_get_comments', { mediaPk: '3842790443716764595', cursor: long }, 'cursor'],
			['users_get_by_id', { userPk: ' 1000000002' }, 'userPk']
		] as const)
			expect(await failure(name, args)).toMatchObject({
				code: 'bad_request',
				error: expect.stringContaining(`Invalid argument '${field}'`)
			})
		expect(requests).toEqual([])
	})

	test('a comment or message that would be refused is not shown to the user for approval', async () => {
		const { asked, failure } = await connect()
		const media = { mediaPk: '3842790443716764595' }
		expect(await failure('media_comment', { ...media, text: 'x'.repeat(100000) })).toMatchObject({
			code: 'bad_request',
			error: "Invalid argument 'text': Expected string length less or equal to 2200"
		})
		expect(await failure('media_comment', { ...media, text: '   ' })).toMatchObject({ code: 'bad_request' })
		expect(await failure('direct_send_text', { userPk: '1000000002', text: 'x'.repeat(1001) })).toMatchObject(
			{ code: 'bad_request', error: expect.stringContaining("'text'") }
		)
		expect(asked).toEqual([])
		expect(requests).toEqual([])
		// A comment within the bounds is asked about as before (then fails upstream here).
		await failure('media_comment', { ...media, text: 'Lovely light!' })
		expect(asked).toHaveLength(1)
	})

	test('a job limit or id over 15 digits is neither stored nor looked up', async () => {
		const { started, failure } = await connect()
		for (const limit of [1e300, 2 ** 53])
			expect(await failure('jobs_start', { kind: 'posts', target: 'luna.explorer', limit })).toMatchObject({
				code: 'bad_request',
				error: expect.stringContaining("Invalid argument 'limit'")
			})
		expect(started).toEqual([])
		expect(await failure('jobs_status', { id: 1e300 })).toMatchObject({
			code: 'bad_request',
			error: "Invalid argument 'id': Expected integer to be less or equal to 999999999999999"
		})
	})
})
