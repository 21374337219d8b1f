/**
 * Tool results stay within MAX_RESULT_CHARS of JSON text without losing a record: a list tool asked
 * for 200 posts returns the first ones that fit, its next_cursor continues right after them, and a
 * whole walk yields every record once, in the list's order (the client's own walk is the reference).
 * jobs_records, watch_history and watch_diff return fewer records when they would not fit, with
 * next_offset to read on. Driven in process on the demo's simulated Instagram.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { OutputFiles } from '../../src/agent/files'
import { type DemoSession, openDemoSession } from '../../src/demo'
import type { JobManager } from '../../src/jobs/manager'
import { jobsTools } from '../../src/mcp/jobs-tools'
import { MAX_RESULT_CHARS } from '../../src/mcp/result-budget'
import { createMcpServer } from '../../src/mcp/server'
import { watchTools } from '../../src/mcp/watch-tools'
import type { WatchStore } from '../../src/watch/store'

const folder = mkdtempSync(join(tmpdir(), 'smkit-mcp-budget-'))
let demo: DemoSession
let client: Client

beforeAll(async () => {
	demo = await openDemoSession({})
	const server = createMcpServer({
		client: demo.client,
		version: '0.0.0',
		permission: 'ask_once',
		readOnly: true,
		loggedIn: true,
		files: new OutputFiles('output', { cwd: folder }),
		jobs: () => {
			throw new Error('no jobs in this test')
		},
		watches: () => {
			throw new Error('no watches in this test')
		},
		log: () => {}
	})
	client = new Client({ name: 'assistant', version: '1.0.0' })
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
	await server.connect(serverSide)
	await client.connect(clientSide)
})

afterAll(async () => {
	await client.close()
	await demo.stop()
	rmSync(folder, { recursive: true, force: true })
})

interface PageResult {
	items: Record<string, unknown>[]
	next_cursor: string | null
}

/** Calls a tool; checks its text is within the budget and says what its structuredContent says. */
async function call(name: string, args: Record<string, unknown>): Promise<PageResult> {
	const result = await client.callTool({ name, arguments: args })
	const text = (result.content as { text: string }[])[0]?.text ?? ''
	expect(result.isError).toBeFalsy()
	expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS)
	expect(JSON.parse(text)).toEqual(result.structuredContent)
	return result.structuredContent as unknown as PageResult
}

/** Every item of a list, walked through the tool with `count`, each call passing the previous cursor. */
async function walk(name: string, args: Record<string, unknown>, key: string): Promise<string[]> {
	const keys: string[] = []
	let cursor: string | null = null
	for (let calls = 0; calls < 200; calls++) {
		const page = await call(name, { ...args, ...(cursor ? { cursor } : {}) })
		keys.push(...page.items.map((item) => String(item[key])))
		cursor = page.next_cursor
		if (cursor === null) return keys
	}
	throw new Error(`${name} did not end in 200 calls`)
}

/** Every item of a list as the client itself walks it: the reference. */
async function clientWalk(list: AsyncIterable<Record<string, unknown>>, key: string): Promise<string[]> {
	const keys: string[] = []
	for await (const item of list) keys.push(String(item[key]))
	return keys
}

describe('list tools stay within the result budget', () => {
	test.each([
		['search_explore', { count: 200 }],
		['search_explore', {}],
		['feed_get_user_feed', { userPk: '1000000005', count: 200 }],
		['feed_get_tag_feed', { tag: 'travel', count: 200 }],
		['public_get_posts', { username: 'mega.travel', count: 200 }],
		['media_get_likers', { mediaPk: '3842790443716764595' }],
		['direct_get_inbox', { count: 200 }]
	])('%s %o returns the first items that fit and a cursor after them', async (name, args) => {
		const page = await call(name, args)
		expect(page.items.length).toBeGreaterThan(0)
		expect(typeof page.next_cursor).toBe('string')
		// What was returned is the start of the list: the same call for that many gives the same items.
		const again = await call(name, { ...args, count: page.items.length })
		expect(again).toEqual(page)
	})

	test('a page that fits is returned whole, as asked', async () => {
		const page = await call('friendships_get_followers', { userPk: '1000000002', count: 150 })
		expect(page.items).toHaveLength(150)
	})

	test.each([
		['search_explore', { count: 200 }, () => demo.client.search.explore()],
		[
			'feed_get_user_feed',
			{ userPk: '1000000005', count: 200 },
			() => demo.client.feed.getUserFeed('1000000005')
		],
		['feed_get_tag_feed', { tag: 'travel', count: 200 }, () => demo.client.feed.getTagFeed('travel')],
		// Without count: the likers come in one piece of 242, over the budget.
		[
			'media_get_likers',
			{ mediaPk: '3842790443716764595' },
			() => demo.client.media.getLikers('3842790443716764595')
		]
	] as const)(
		'walking %s %o yields every record once, in order',
		async (name, args, list) => {
			const reference = await clientWalk((await list()) as AsyncIterable<Record<string, unknown>>, 'pk')
			expect(reference.length).toBeGreaterThan(200)
			const walked = await walk(name, args, 'pk')
			expect(new Set(walked).size).toBe(walked.length)
			expect(walked).toEqual(reference)
		},
		60_000
	)
})

const bigRecord = (index: number) => ({ pk: String(index), caption: 'x'.repeat(2000) })

describe('jobs_records, watch_history and watch_diff stay within the result budget', () => {
	const job = {
		id: 1,
		kind: 'posts',
		target: 'mega.travel',
		limit: null,
		owner: 'mcp',
		demo: true,
		status: 'done',
		collected: 300,
		total: 300,
		pages: 25,
		error: null,
		error_code: null,
		created_at: '',
		updated_at: ''
	}
	const manager = {
		get: (id: number) => (id === 1 ? job : undefined),
		jobs: {
			*records(_id: number, offset: number) {
				for (let index = offset; index < job.collected; index++) yield bigRecord(index)
			}
		}
	} as unknown as JobManager
	const records = jobsTools(() => manager).find((tool) => tool.name === 'jobs_records')!

	test('jobs_records returns the records that fit, and reading on by next_offset yields each once', async () => {
		const seen: string[] = []
		let offset: number | null = 0
		while (offset !== null) {
			const result = await records.run(
				{ id: 1, offset, limit: 500 },
				{ signal: new AbortController().signal }
			)
			const text = result.content[0]?.text ?? ''
			expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS)
			const page = result.structuredContent as { records: { pk: string }[]; next_offset: number | null }
			expect(JSON.parse(text)).toEqual(page)
			expect(page.records.length).toBeLessThan(500)
			seen.push(...page.records.map((record) => record.pk))
			offset = page.next_offset
		}
		expect(seen).toEqual(Array.from({ length: job.collected }, (_, index) => String(index)))
	})

	const snapshot = (id: number) => ({ id, watch_id: 1, taken_at: '', note: 'y'.repeat(1000) })
	const user = (index: number) => ({ pk: String(index), username: `user${index}`, bio: 'z'.repeat(300) })
	const watch = { id: 1, kind: 'account', target: 'mega.travel' }
	const store = {
		get: (id: number) => (id === 1 ? watch : undefined),
		snapshots: () => Array.from({ length: 120 }, (_, index) => snapshot(index + 1)),
		checkedDiff: () => ({
			diff: {
				watch_id: 1,
				from: snapshot(119),
				to: snapshot(120),
				gained: Array.from({ length: 700 }, (_, index) => user(index)),
				lost: Array.from({ length: 300 }, (_, index) => user(1000 + index)),
				counts: {},
				top_posts: null
			}
		})
	} as unknown as WatchStore
	const tools = watchTools(() => store)
	const run = async (name: string, input: Record<string, unknown>) => {
		const result = await tools
			.find((tool) => tool.name === name)!
			.run(input, { signal: new AbortController().signal })
		const text = result.content[0]?.text ?? ''
		expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS)
		return JSON.parse(text)
	}

	test('watch_history returns the snapshots that fit, and next_offset reads the rest', async () => {
		const ids: number[] = []
		let offset: number | null = 0
		while (offset !== null) {
			const page = await run('watch_history', { id: 1, offset })
			expect(page.snapshots.length).toBeLessThan(120)
			ids.push(...page.snapshots.map((item: { id: number }) => item.id))
			offset = page.next_offset
		}
		expect(ids).toEqual(Array.from({ length: 120 }, (_, index) => index + 1))
	})

	test('watch_diff lists the followers that fit, with their totals, and next_offset reads the rest', async () => {
		const gained: string[] = []
		const lost: string[] = []
		let offset: number | null = 0
		while (offset !== null) {
			const page = await run('watch_diff', { id: 1, limit: 1000, offset })
			expect(page).toMatchObject({ gained_total: 700, lost_total: 300 })
			expect(page.gained.length).toBeLessThan(700)
			gained.push(...page.gained.map((item: { pk: string }) => item.pk))
			lost.push(...page.lost.map((item: { pk: string }) => item.pk))
			offset = page.next_offset
		}
		expect(gained).toEqual(Array.from({ length: 700 }, (_, index) => String(index)))
		expect(lost).toEqual(Array.from({ length: 300 }, (_, index) => String(1000 + index)))
	})

	test('watch_diff without limit lists at most 100 of each, and says where the rest starts', async () => {
		const page = await run('watch_diff', { id: 1 })
		expect(page.gained.length).toBeGreaterThan(0)
		expect(page.gained.length).toBeLessThanOrEqual(100)
		expect(page.lost).toHaveLength(page.gained.length)
		expect(page.next_offset).toBe(page.gained.length)
	})
})
