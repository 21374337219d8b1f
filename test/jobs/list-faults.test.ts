/**
 * Jobs walking lists whose pages misbehave (the simulator's page faults, src/simulator/fault-bodies.ts),
 * held to the promise that a paged list yields every record exactly once, never silently less:
 *
 * - a cursor given again (the page's own) is not the end: the page is asked again, and a job whose
 *   upstream keeps repeating fails (never `done` on a partial list), then completes when run again;
 * - the same page again under a new cursor each time fails the job after a few pages, not after
 *   thousands of requests;
 * - a 200 answer without its list is malformed: asked again, not taken for the end of the list.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobSpec } from '../../src/jobs/types'
import { encodeCursor } from '../../src/simulator/cursor'
import { MEGA_FOLLOWER_COUNT } from '../../src/simulator/dataset-mega'
import type { FaultRule } from '../../src/simulator/faults'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store
let jobs: JobStore

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-list-faults-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
	simulator.sim.faults.clear()
	simulator.sim.requests.clear()
})
afterEach(() => {
	simulator.sim.faults.clear()
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

const followers: JobSpec = { kind: 'followers', target: DEMO_PRESETS.mega.username }
/** The request for mega.travel's follower page at `offset` (the job asks pages of 200). */
const followerPage = (offset: number) =>
	`/friendships/${DEMO_PRESETS.mega.pk}/followers/\\?.*max_id=${encodeCursor(`followers-${DEMO_PRESETS.mega.pk}`, offset)}(&|$)`
/** Every follower page of mega.travel after the first. */
const laterFollowerPages = `/friendships/${DEMO_PRESETS.mega.pk}/followers/\\?.*max_id=`

/** Runs job `id` against the simulator with a quick back-off; gives up after `ms` (a job that loops). */
const run = (id: number, ms = 20_000) =>
	runJob(jobs, id, { ig: simulator.client(), backoffMs: 1, signal: AbortSignal.timeout(ms) })

/** The distinct record keys stored for job `id`, and how many records there are. */
function stored(id: number): { records: number; distinct: number } {
	const keys = [...jobs.records(id)].map((record) => (record as { pk: string }).pk)
	return { records: keys.length, distinct: new Set(keys).size }
}

test('a cursor given again once: the page is asked again, and the job is done with every follower once', async () => {
	simulator.sim.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(2000), times: 1 })
	const job = jobs.create(followers)
	const finished = await run(job.id)
	expect(finished.status).toBe('done')
	expect(stored(job.id)).toEqual({ records: MEGA_FOLLOWER_COUNT, distinct: MEGA_FOLLOWER_COUNT })
	expect(simulator.sim.faults.list()[0]?.hits).toBe(1)
})

test('a cursor given again on every ask fails the job, not done; run again once it clears, it completes', async () => {
	simulator.sim.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(2000) })
	const job = jobs.create(followers)
	const failed = await run(job.id)
	expect(failed.status).toBe('failed')
	expect(failed.error_code).toBe('upstream_error')
	expect(failed.error).toBe(
		'Instagram gave the same cursor again after 2,200 records: the list stopped early; run again to continue'
	)
	expect(jobs.walkComplete(job.id)).toBe(false)
	// The page was asked for a few times, not once and not forever.
	const asked = simulator.sim.requests.count(/\/followers\//)
	expect(asked).toBeLessThan(20)

	simulator.sim.faults.clear()
	const finished = await run(job.id)
	expect(finished.status).toBe('done')
	expect(stored(job.id)).toEqual({ records: MEGA_FOLLOWER_COUNT, distinct: MEGA_FOLLOWER_COUNT })
})

test('the same page under a new cursor each time fails the job within a few requests; run again, it completes', async () => {
	simulator.sim.faults.set({ kind: 'stale_page', pathPattern: laterFollowerPages })
	const job = jobs.create(followers)
	const failed = await run(job.id, 10_000)
	expect(failed.status).toBe('failed')
	expect(failed.error).toBe(
		'Instagram gave 5 pages in a row without a new record after 400 records: the list stopped early; run again to continue'
	)
	// The first page, the page the fault first answered (new records), five stale ones, one read ahead.
	expect(simulator.sim.requests.count(/\/followers\//)).toBeLessThanOrEqual(10)

	simulator.sim.faults.clear()
	const finished = await run(job.id)
	expect(finished.status).toBe('done')
	expect(stored(job.id)).toEqual({ records: MEGA_FOLLOWER_COUNT, distinct: MEGA_FOLLOWER_COUNT })
})

for (const body of ['{"status":"ok"}', 'null', '""'])
	test(`a 200 answer of ${body} for a page is malformed: asked again, the list complete`, async () => {
		simulator.sim.faults.set({ kind: 'wrong_shape', body, pathPattern: followerPage(2000), times: 1 })
		const job = jobs.create(followers)
		const finished = await run(job.id)
		expect(finished.status).toBe('done')
		expect(stored(job.id)).toEqual({ records: MEGA_FOLLOWER_COUNT, distinct: MEGA_FOLLOWER_COUNT })
		expect(simulator.sim.faults.list()[0]?.hits).toBe(1)
	})

test('posts: a cursor given again once does not end the list at its second page', async () => {
	const rule: FaultRule = {
		kind: 'repeat_cursor',
		pathPattern: `/feed/user/${DEMO_PRESETS.mega.pk}/\\?.*max_id=`,
		times: 1
	}
	simulator.sim.faults.set(rule)
	const ig = simulator.client()
	const total = (await ig.users.getByUsername(DEMO_PRESETS.mega.username)).media_count
	const job = jobs.create({ kind: 'posts', target: DEMO_PRESETS.mega.username })
	const finished = await run(job.id)
	expect(finished.status).toBe('done')
	expect(stored(job.id)).toEqual({ records: total, distinct: total })
	expect(total).toBeGreaterThan(100)
	expect(simulator.sim.faults.list()[0]?.hits).toBe(1)
})
