/**
 * The playground and the watches over an upstream whose list pages misbehave (the simulator's page
 * faults): the API never answers `next_cursor: null` for a list that has not ended, a playground job
 * fails rather than finishing on part of a list, and a watch run whose follower list failed fails
 * too, storing no snapshot (a partial list would have its diff call thousands of followers lost).
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { InstagramClient } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { JobManager } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import type { Job } from '../../src/jobs/types'
import { createPlaygroundApp } from '../../src/playground/app'
import { encodeCursor } from '../../src/simulator/cursor'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import { envelopeProblem } from './support'

const mega = DEMO_PRESETS.mega
const followerPage = (offset: number) =>
	`/friendships/${mega.pk}/followers/\\?.*max_id=${encodeCursor(`followers-${mega.pk}`, offset)}(&|$)`
const laterFollowerPages = `/friendships/${mega.pk}/followers/\\?.*max_id=`

let simulator: Simulator
let ig: InstagramClient
let manager: JobManager
let app: ReturnType<typeof createPlaygroundApp>
let savedDir: string

beforeAll(async () => {
	simulator = await startSimulator()
	savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-list-faults-'))
	// The playground's shared client: the client's default retries.
	ig = createDemoClient(simulator.url)
	manager = new JobManager({ jobs: new JobStore(openStore(':memory:')), ig, backoffMs: 1 })
	app = createPlaygroundApp({ ig, savedDir, demo: true, jobs: manager, log: () => {} })
})
afterAll(async () => {
	await manager.stop()
	await simulator.stop()
	await rm(savedDir, { recursive: true, force: true })
})
afterEach(() => simulator.faults.clear())

/** Calls the playground API; the envelope is checked on every answer. */
async function api(route: string, init?: RequestInit): Promise<{ status: number; body: any }> {
	const response = await app.handle(new Request(`http://localhost${route}`, init))
	const text = await response.text()
	expect(envelopeProblem(response.status, text)).toBeUndefined()
	return { status: response.status, body: JSON.parse(text) }
}

test('GET followers?count=1000 under a repeated cursor: a cursor that continues, never null; then a 502', async () => {
	simulator.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(400) })
	const first = await api(`/api/friendships/followers/${mega.pk}?count=1000`)
	expect(first.status).toBe(200)
	expect(first.body.data.length).toBe(600)
	expect(first.body.next_cursor).toBeString()
	const cursor = encodeURIComponent(first.body.next_cursor)
	const stuck = await api(`/api/friendships/followers/${mega.pk}?count=1000&cursor=${cursor}`)
	expect(stuck.status).toBe(502)
	expect(stuck.body.code).toBe('upstream_error')
	expect(stuck.body.error).toContain('Instagram gave the same cursor again')
	simulator.faults.clear()
	const rest = await api(`/api/friendships/followers/${mega.pk}?count=1000&cursor=${cursor}`)
	const pks = [...first.body.data, ...rest.body.data].map((user: { pk: string }) => user.pk)
	expect(new Set(pks).size).toBe(1600)
})

test('GET followers?count=1000 over the same page under new cursors: each record once, a cursor that continues', async () => {
	simulator.faults.set({ kind: 'stale_page', pathPattern: laterFollowerPages })
	const page = await api(`/api/friendships/followers/${mega.pk}?count=1000`)
	expect(page.status).toBe(200)
	const pks = page.body.data.map((user: { pk: string }) => user.pk)
	expect(new Set(pks).size).toBe(pks.length)
	expect(page.body.next_cursor).toBeString()
})

test('a playground job under a repeated cursor fails with what to do, not done', async () => {
	simulator.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(2000) })
	const started = await api('/api/jobs', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'followers', target: mega.username })
	})
	const id = started.body.data.id as number
	const job = (await manager.settled(id)) as Job
	expect(job.status).toBe('failed')
	expect(job.error).toBe(
		'Instagram gave the same cursor again after 2,200 records: the list stopped early; run again to continue'
	)
	const shown = await api(`/api/jobs/${id}`)
	expect(shown.body.data).toMatchObject({ status: 'failed', collected: 2200 })
})

test('a watch run whose follower list fails fails too, and stores no snapshot', async () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const watch = watches.create({
		kind: 'account',
		target: mega.username,
		every_seconds: 3600,
		followers: true
	})
	simulator.faults.set({ kind: 'stale_page', pathPattern: laterFollowerPages })
	const error = await runWatch(watch, { watches, jobs, ig, signal: AbortSignal.timeout(20_000) }).catch(
		(caught: unknown) => caught
	)
	expect((error as Error).message).toBe(
		'follower list failed: Instagram gave 5 pages in a row without a new record after 400 records: the list stopped early; run again to continue'
	)
	expect(watches.snapshots(watch.id)).toEqual([])
	store.close()
})
