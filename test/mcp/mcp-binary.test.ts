/**
 * `smkit mcp --demo`, the compiled binary, driven over stdio by the MCP SDK's own Client, as an AI
 * assistant would: the tool list (generated from the client's method registry), a profile lookup,
 * a paged list, run_code, jobs, failures as tool errors with the envelope's code, and writes under
 * ask_once: refused when the client cannot ask (no elicitation), asked and done when it can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { methodRegistry } from '../../src/client/registry'
import { JobStore } from '../../src/jobs/store'
import { toolNameOf } from '../../src/mcp/method-tools'
import { openStore } from '../../src/store/db'
import { WatchStore } from '../../src/watch/store'
import { compiledBinary } from '../support/binary'

const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-'))
const envFile = join(workDir, 'empty.env')
writeFileSync(envFile, '')

interface Session {
	client: Client
	/** Protocol errors the client saw (a stray line on stdout would be one). */
	errors: Error[]
	/** What the user was asked (elicitation messages). */
	asked: string[]
	stderr: () => string
}

const sessions: Session[] = []

/** Starts `smkit mcp --demo ...extra` and connects a client; `answer` makes it support elicitation. */
async function connect(extra: string[] = [], answer?: { action: 'accept' | 'decline'; allow?: boolean }) {
	const binary = await compiledBinary()
	const transport = new StdioClientTransport({
		command: binary,
		args: ['mcp', '--demo', '--env', envFile, '--db', join(workDir, 'jobs.db'), ...extra],
		cwd: workDir,
		env: { PATH: process.env.PATH ?? '', HOME: workDir },
		stderr: 'pipe'
	})
	let stderr = ''
	transport.stderr?.on('data', (chunk) => {
		stderr += String(chunk)
	})
	const client = new Client(
		{ name: 'smkit-test', version: '1.0.0' },
		{ capabilities: answer ? { elicitation: { form: {} } } : {} }
	)
	const session: Session = { client, errors: [], asked: [], stderr: () => stderr }
	client.onerror = (error) => session.errors.push(error)
	if (answer) {
		client.setRequestHandler(ElicitRequestSchema, async (request) => {
			session.asked.push(String(request.params.message))
			return answer.action === 'accept'
				? { action: 'accept', content: { allow: answer.allow ?? true } }
				: { action: 'decline' }
		})
	}
	await client.connect(transport)
	sessions.push(session)
	return session
}

type Result = Awaited<ReturnType<Client['callTool']>>
const textOf = (result: Result) => (result.content as { type: string; text: string }[])[0]?.text ?? ''
const failureOf = (result: Result) => {
	expect(result.isError).toBe(true)
	return JSON.parse(textOf(result)) as { success: boolean; code: string; error: string }
}

let session: Session
let lunaPk: string
let firstPostPk: string
let secondPostPk: string

beforeAll(async () => {
	session = await connect()
	const luna = await session.client.callTool({
		name: 'users_get_by_username',
		arguments: { username: 'luna.explorer' }
	})
	lunaPk = (luna.structuredContent as { pk: string }).pk
	const posts = await session.client.callTool({
		name: 'feed_get_user_feed',
		arguments: { userPk: lunaPk, count: 2 }
	})
	const items = (posts.structuredContent as { items: { pk: string }[] }).items
	firstPostPk = items[0].pk
	secondPostPk = items[1].pk
})

afterAll(async () => {
	for (const { client } of sessions) await client.close().catch(() => {})
	rmSync(workDir, { recursive: true, force: true })
})

describe('smkit mcp --demo (compiled binary, stdio)', () => {
	it('lists one tool per registry method, run_code and the jobs tools, with schemas from the registry', async () => {
		const { tools } = await session.client.listTools()
		const names = tools.map((tool) => tool.name)
		const expected = [
			...methodRegistry.map(toolNameOf),
			'run_code',
			'jobs_start',
			'jobs_status',
			'jobs_records',
			'watches_list',
			'watch_history',
			'watch_diff'
		]
		expect([...names].sort()).toEqual([...expected].sort())
		const profile = tools.find((tool) => tool.name === 'users_get_by_username')
		expect(profile?.description).toContain('Full profile of a user by username')
		expect(profile?.inputSchema).toMatchObject({
			type: 'object',
			required: ['username'],
			properties: { username: { type: 'string' } }
		})
		expect(profile?.outputSchema).toMatchObject({
			type: 'object',
			properties: { username: { type: 'string' } }
		})
		expect(profile?.annotations?.readOnlyHint).toBe(true)
		const followers = tools.find((tool) => tool.name === 'friendships_get_followers')
		expect(followers?.inputSchema.properties).toMatchObject({
			count: { type: 'integer', minimum: 1, maximum: 200 },
			cursor: { type: 'string' },
			query: { type: 'string' }
		})
		// Only the follower list takes a search.
		expect(
			tools.find((tool) => tool.name === 'friendships_get_following')?.inputSchema.properties
		).not.toHaveProperty('query')
		expect(tools.find((tool) => tool.name === 'media_like')?.annotations?.readOnlyHint).toBe(false)
	})

	it('looks a profile up: JSON text and structured content', async () => {
		const result = await session.client.callTool({
			name: 'users_get_by_username',
			arguments: { username: 'luna.explorer' }
		})
		expect(result.isError).toBeFalsy()
		const profile = result.structuredContent as {
			username: string
			follower_count: number
			is_verified: boolean
		}
		expect(profile).toMatchObject({ username: 'luna.explorer', follower_count: 263, is_verified: true })
		expect(JSON.parse(textOf(result))).toEqual(profile)
	})

	it('pages a list with count and cursor, with no gap and no repeat', async () => {
		const call = (cursor?: string) =>
			session.client.callTool({
				name: 'friendships_get_followers',
				arguments: { userPk: lunaPk, count: 7, ...(cursor ? { cursor } : {}) }
			})
		const first = (await call()).structuredContent as { items: { pk: string }[]; next_cursor: string | null }
		expect(first.items).toHaveLength(7)
		expect(typeof first.next_cursor).toBe('string')
		const second = (await call(first.next_cursor as string)).structuredContent as typeof first
		expect(second.items).toHaveLength(7)
		const both = (
			(
				await session.client.callTool({
					name: 'friendships_get_followers',
					arguments: { userPk: lunaPk, count: 14 }
				})
			).structuredContent as typeof first
		).items.map((user) => user.pk)
		expect([...first.items, ...second.items].map((user) => user.pk)).toEqual(both)
	})

	it('searches a follower list by name', async () => {
		const all = (
			(
				await session.client.callTool({
					name: 'friendships_get_followers',
					arguments: { userPk: lunaPk, count: 200 }
				})
			).structuredContent as { items: { pk: string; username: string }[] }
		).items
		const wanted = all[all.length - 1]
		const found = (
			(
				await session.client.callTool({
					name: 'friendships_get_followers',
					arguments: { userPk: lunaPk, query: wanted.username }
				})
			).structuredContent as { items: { pk: string; username: string }[] }
		).items
		expect(found.map((user) => user.pk)).toContain(wanted.pk)
		expect(found.length).toBeLessThan(all.length)
	})

	it('runs code in the sandbox with ig', async () => {
		const result = await session.client.callTool({
			name: 'run_code',
			arguments: {
				code: "const user = await ig.users.getByUsername('luna.explorer')\nconsole.log(user.username)\nreturn user.follower_count"
			}
		})
		expect(result.isError).toBeFalsy()
		expect(textOf(result)).toContain('luna.explorer')
		expect(textOf(result)).toContain('Returned: 263')
		const broken = await session.client.callTool({
			name: 'run_code',
			arguments: { code: 'throw new Error("boom")' }
		})
		expect(broken.isError).toBe(true)
		expect(textOf(broken)).toContain('boom')
	})

	it('answers failures as tool errors carrying the envelope code', async () => {
		const missing = failureOf(
			await session.client.callTool({
				name: 'users_get_by_username',
				arguments: { username: 'no.such.user.here' }
			})
		)
		expect(missing).toMatchObject({ success: false, code: 'not_found' })
		expect(missing.error).not.toBe('')
		const tooMany = failureOf(
			await session.client.callTool({
				name: 'friendships_get_followers',
				arguments: { userPk: lunaPk, count: 5000 }
			})
		)
		expect(tooMany.code).toBe('bad_request')
		expect(tooMany.error).toContain('count')
		const privateOne = failureOf(
			await session.client.callTool({ name: 'public_get_posts', arguments: { username: 'private.pat' } })
		)
		expect(privateOne.code).not.toBe('')
	})

	it('refuses a write under ask_once when the client cannot ask (no elicitation)', async () => {
		const refused = failureOf(
			await session.client.callTool({ name: 'media_like', arguments: { mediaPk: firstPostPk } })
		)
		expect(refused.code).toBe('forbidden')
		expect(refused.error).toContain('elicitation')
		expect(refused.error).toContain('--permission full_access')
		const inCode = await session.client.callTool({
			name: 'run_code',
			arguments: { code: `return await ig.media.like('${firstPostPk}')` }
		})
		expect(inCode.isError).toBe(true)
		expect(textOf(inCode)).toContain('Permission denied')
		// Nothing was liked.
		const media = await session.client.callTool({
			name: 'media_get_info',
			arguments: { mediaPk: firstPostPk }
		})
		expect((media.structuredContent as { has_liked: boolean }).has_liked).toBe(false)
	})

	it('asks through elicitation under ask_once and does the write once the user allows it', async () => {
		const declining = await connect([], { action: 'decline' })
		const declined = failureOf(
			await declining.client.callTool({ name: 'media_like', arguments: { mediaPk: firstPostPk } })
		)
		expect(declined.code).toBe('forbidden')
		expect(declining.asked).toHaveLength(1)

		const allowing = await connect([], { action: 'accept', allow: true })
		const liked = await allowing.client.callTool({ name: 'media_like', arguments: { mediaPk: firstPostPk } })
		expect(liked.isError).toBeFalsy()
		expect(allowing.asked).toHaveLength(1)
		expect(allowing.asked[0]).toContain('media.like')
		const media = await allowing.client.callTool({
			name: 'media_get_info',
			arguments: { mediaPk: firstPostPk }
		})
		expect((media.structuredContent as { has_liked: boolean }).has_liked).toBe(true)
		// ask_once: the approval holds for the same method in this session; another method asks again.
		const likedAgain = await allowing.client.callTool({
			name: 'media_like',
			arguments: { mediaPk: secondPostPk }
		})
		expect(likedAgain.isError).toBeFalsy()
		expect(allowing.asked).toHaveLength(1)
		const unliked = await allowing.client.callTool({
			name: 'media_unlike',
			arguments: { mediaPk: firstPostPk }
		})
		expect(unliked.isError).toBeFalsy()
		expect(allowing.asked).toHaveLength(2)
		expect(allowing.asked[1]).toContain('media.unlike')
	})

	it("asks for run_code's saveFile as a file on this computer, not as a change to the account", async () => {
		const declining = await connect([], { action: 'accept', allow: false })
		const denied = await declining.client.callTool({
			name: 'run_code',
			arguments: { code: "return await saveFile('notes.txt', 'hello \u202e olleh')" }
		})
		expect(denied.isError).toBe(true)
		expect(declining.asked).toHaveLength(1)
		expect(declining.asked[0]).toStartWith(
			'smkit wants to write a file on this computer: Write file notes.txt'
		)
		expect(declining.asked[0]).not.toContain('Instagram account')
		// A direction override in what is asked about is written as its escape, not rendered.
		expect(declining.asked[0]).toContain('hello \\u202e olleh')
		// Without elicitation the refusal says what the file write would have done.
		const inCode = await session.client.callTool({
			name: 'run_code',
			arguments: { code: "return await saveFile('notes.txt', 'hello')" }
		})
		expect(textOf(inCode)).toContain('Refused: saving a file writes on this computer')
		expect(textOf(inCode)).not.toContain('Instagram account')
	})

	it('--read-only offers no write tool and no write in run_code', async () => {
		const readOnly = await connect(['--read-only', '--permission', 'full_access'])
		const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name)
		const writes = methodRegistry.filter((method) => method.access === 'write').map(toolNameOf)
		expect(writes.length).toBeGreaterThan(0)
		for (const name of writes) expect(names).not.toContain(name)
		expect(names).toContain('users_get_by_username')
		const inCode = await readOnly.client.callTool({
			name: 'run_code',
			arguments: { code: `return await ig.media.like('${firstPostPk}')` }
		})
		expect(inCode.isError).toBe(true)
		// Said as what it is, not "not a function".
		expect(textOf(inCode)).toContain(
			'ig.media.like is not available: it writes, and smkit mcp runs with --read-only, which allows no writes'
		)
		// The input is as strict as the other tools'.
		const extra = await readOnly.client.callTool({
			name: 'run_code',
			arguments: { code: 'return 1', zzz: 1 }
		})
		expect(extra.isError).toBe(true)
		// A file write is refused by the option, not by a user nobody asked.
		const saved = await readOnly.client.callTool({
			name: 'run_code',
			arguments: { code: "return await saveFile('notes.txt', 'hello')" }
		})
		expect(saved.isError).toBe(true)
		expect(textOf(saved)).toContain(
			'Refused: saving a file writes on this computer, and smkit mcp runs with --read-only'
		)
		// A media job would download files: refused the same way, and no job is made.
		const media = await readOnly.client.callTool({
			name: 'jobs_start',
			arguments: { kind: 'media', target: 'luna.explorer', limit: 2 }
		})
		expect(media.isError).toBe(true)
		expect(textOf(media)).toContain('a media job downloads files onto this computer')
		const { jobs } = (await readOnly.client.callTool({ name: 'jobs_status', arguments: {} }))
			.structuredContent as { jobs: { kind: string }[] }
		expect(jobs.filter((job) => job.kind === 'media')).toEqual([])
	})

	it('collects a list as a job and reads its records', async () => {
		const started = await session.client.callTool({
			name: 'jobs_start',
			arguments: { kind: 'followers', target: 'luna.explorer', limit: 30 }
		})
		expect(started.isError).toBeFalsy()
		const { id } = started.structuredContent as { id: number }
		let status = ''
		for (let attempt = 0; attempt < 600 && !['done', 'failed'].includes(status); attempt++) {
			const { jobs } = (await session.client.callTool({ name: 'jobs_status', arguments: { id } }))
				.structuredContent as { jobs: { status: string }[] }
			status = jobs[0].status
			if (status !== 'done') await Bun.sleep(50)
		}
		expect(status).toBe('done')
		const page = (await session.client.callTool({ name: 'jobs_records', arguments: { id, limit: 20 } }))
			.structuredContent as { records: unknown[]; next_offset: number | null }
		expect(page.records).toHaveLength(20)
		expect(page.next_offset).toBe(20)
		const rest = (await session.client.callTool({ name: 'jobs_records', arguments: { id, offset: 20 } }))
			.structuredContent as typeof page
		expect(rest.records).toHaveLength(10)
		expect(rest.next_offset).toBeNull()
		const unknown = failureOf(
			await session.client.callTool({ name: 'jobs_status', arguments: { id: 99999 } })
		)
		expect(unknown.code).toBe('not_found')
	})

	it('jobs_start continues a paused or failed job of the same list instead of starting over', async () => {
		// As a job of this server pauses when Instagram asks to log in again.
		const store = openStore(join(workDir, 'jobs.db'))
		const paused = new JobStore(store).create(
			{ kind: 'following', target: 'luna.explorer', limit: 40 },
			'mcp'
		)
		new JobStore(store).setStatus(paused.id, 'paused', 'Instagram asks to log in again', 'login_required')
		store.close()
		const again = await session.client.callTool({
			name: 'jobs_start',
			arguments: { kind: 'following', target: 'luna.explorer', limit: 40 }
		})
		expect(again.isError).toBeFalsy()
		const { id } = again.structuredContent as { id: number }
		expect(id).toBe(paused.id)
		let job = { status: '', collected: 0 }
		for (let attempt = 0; attempt < 600 && job.status !== 'done'; attempt++) {
			const { jobs } = (await session.client.callTool({ name: 'jobs_status', arguments: { id } }))
				.structuredContent as { jobs: (typeof job)[] }
			job = jobs[0] as typeof job
			if (job.status !== 'done') await Bun.sleep(50)
		}
		expect(job).toMatchObject({ status: 'done', collected: 40 })
	})

	it('reads the lists smkit collect and the playground stored on the same --db', async () => {
		// Written as `smkit collect` writes a finished list, while the MCP server has the store open.
		const store = openStore(join(workDir, 'jobs.db'))
		const jobs = new JobStore(store)
		const collected = jobs.create({ kind: 'tag', target: 'sunset', limit: null }, 'cli')
		jobs.storePage(
			collected.id,
			['a', 'b', 'c'].map((pk) => ({ key: pk, data: { pk } })),
			null
		)
		jobs.setStatus(collected.id, 'done')
		const hidden = jobs.create({ kind: 'followers', target: 'mega.travel', limit: null }, 'watch')
		store.close()
		const { jobs: listed } = (await session.client.callTool({ name: 'jobs_status', arguments: {} }))
			.structuredContent as { jobs: { id: number; owner: string; status: string }[] }
		expect(listed[0]).toMatchObject({ id: collected.id, owner: 'cli', status: 'done' })
		expect(listed.map((job) => job.id)).not.toContain(hidden.id)
		const records = (await session.client.callTool({ name: 'jobs_records', arguments: { id: collected.id } }))
			.structuredContent as { records: { pk: string }[]; next_offset: number | null }
		expect(records.records.map((record) => record.pk)).toEqual(['a', 'b', 'c'])
		expect(records.next_offset).toBeNull()
	})

	it("reads the watches of the same --db: the list, a watch's snapshots, and who followed or left", async () => {
		// Two runs of an account watch with its follower list, stored as smkit watch run stores them.
		const store = openStore(join(workDir, 'jobs.db'))
		const jobs = new JobStore(store)
		const watches = new WatchStore(store)
		const watch = watches.create({
			kind: 'account',
			target: 'luna.explorer',
			every_seconds: 86_400,
			followers: true
		})
		const runs: [string[], number][] = [
			[['a', 'b', 'c'], 263],
			[['b', 'c', 'd', 'e'], 264]
		]
		for (const [index, [pks, followers]] of runs.entries()) {
			const list = jobs.create({ kind: 'followers', target: 'luna.explorer', limit: null }, 'watch')
			jobs.storePage(
				list.id,
				pks.map((pk) => ({ key: pk, data: { pk, username: `user.${pk}` } })),
				null
			)
			watches.addSnapshot(
				watch.id,
				{
					takenAt: `2026-11-2${index + 1}T09:00:00.000Z`,
					counts: { followers, following: 50, posts: 120 },
					followerJobId: list.id,
					followerListSize: pks.length
				},
				new Date()
			)
		}
		store.close()
		const call = async (name: string, args: Record<string, unknown>) =>
			JSON.parse(textOf(await session.client.callTool({ name, arguments: args })))
		const { watches: listed } = await call('watches_list', {})
		expect(listed.map((each: { id: number; target: string }) => [each.id, each.target])).toEqual([
			[watch.id, 'luna.explorer']
		])
		const history = await call('watch_history', { id: watch.id })
		expect(history.snapshots.map((snapshot: { followers: number }) => snapshot.followers)).toEqual([263, 264])
		const diff = await call('watch_diff', { id: watch.id, limit: 1 })
		expect(diff.counts.followers).toEqual({ from: 263, to: 264, change: 1 })
		expect(diff.gained).toEqual([{ pk: 'd', username: 'user.d' }])
		expect(diff.gained_total).toBe(2)
		expect(diff.lost).toEqual([{ pk: 'a', username: 'user.a' }])
		expect(diff.lost_total).toBe(1)
		expect(
			failureOf(await session.client.callTool({ name: 'watch_history', arguments: { id: 999 } })).code
		).toBe('not_found')
		const backwards = failureOf(
			await session.client.callTool({
				name: 'watch_diff',
				arguments: { id: watch.id, to: history.snapshots[0].id }
			})
		)
		expect(backwards.code).toBe('bad_request')
		expect(backwards.error).toContain('no snapshot before')
		const [first, second] = history.snapshots as { id: number }[]
		const reversed = failureOf(
			await session.client.callTool({
				name: 'watch_diff',
				arguments: { id: watch.id, from: second?.id, to: first?.id }
			})
		)
		expect(reversed).toMatchObject({ code: 'bad_request' })
		expect(reversed.error).toContain('must be an earlier snapshot than to')
	})

	it('writes nothing but protocol messages on stdout and no secret anywhere', () => {
		for (const { errors } of sessions) expect(errors).toEqual([])
		const logs = sessions.map((each) => each.stderr()).join('\n')
		expect(logs).toContain('smkit mcp: serving over stdio')
		expect(logs).not.toMatch(/sessionid=|csrftoken=/i)
	})
})
