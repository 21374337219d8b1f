/**
 * Demo time moved while a watch run walks its follower list (the Watch panel's "Run now", then
 * "Advance demo time by a day" while the list is still being walked): the snapshot is of one
 * moment. The pages walked before the move are dropped and the list is walked again from its first
 * page, so the stored list is the whole follower list at the new time, with counts of that time; a
 * clock that keeps moving fails the run with why, and leaves no list of two moments behind. The
 * move's dropping of unstored lists leaves a run in progress its list (the run walks it again).
 */
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ClockReading, simulatorClock } from '../../src/demo'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { parsePlaygroundOptions, startPlaygroundServer } from '../../src/playground/serve'
import { openStore, type Store } from '../../src/store/db'
import { type StoreDemoClock, storeDemoClock } from '../../src/store/demo-clock'
import { dropUnstoredLists } from '../../src/watch/follower-lists'
import { runWatch, WATCH_JOB_OWNER } from '../../src/watch/run'
import { WatchScheduler } from '../../src/watch/scheduler'
import { WatchStore } from '../../src/watch/store'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
const TARGET = 'mega.travel'

/** Why a run fails whose demo world kept moving (src/watch/run.ts, `DEMO_TIME_MOVED`). */
const DEMO_TIME_MOVED = 'the demo time moved during the run: run again'

afterEach(() => simulator.sim.faults.clear())

/** The keys of mega.travel's whole follower list now, walked by a job of its own. */
async function followersNow(store: Store): Promise<Set<string>> {
	const jobs = new JobStore(store)
	const job = jobs.create({ kind: 'followers', target: TARGET }, 'test')
	const done = await runJob(jobs, job.id, { ig: simulator.client() })
	expect(done.status).toBe('done')
	return keysOf(store, job.id)
}

function keysOf(store: Store, jobId: number): Set<string> {
	return new Set(
		store.db
			.query<{ key: string }, [number]>('SELECT record_key AS key FROM job_records WHERE job_id = ?')
			.all(jobId)
			.map((row) => row.key)
	)
}

const followerJobOf = (store: Store, snapshotId: number) =>
	(
		store.db
			.query<{ job: number }, [number]>('SELECT follower_job_id AS job FROM watch_snapshots WHERE id = ?')
			.get(snapshotId) as { job: number }
	).job

/** Checks that the stored list is the whole list of the new time, and none of the old one's leavers. */
function expectListOfNewTime(stored: Set<string>, before: Set<string>, after: Set<string>) {
	// The move changed the list: else this test would prove nothing.
	const lost = [...before].filter((key) => !after.has(key))
	const gained = [...after].filter((key) => !before.has(key))
	expect(lost.length + gained.length).toBeGreaterThan(0)
	expect(lost.filter((key) => stored.has(key))).toEqual([])
	expect(gained.filter((key) => !stored.has(key))).toEqual([])
	expect(stored.size).toBe(after.size)
	expect([...stored].sort()).toEqual([...after].sort())
}

test('a move of demo time during the walk: the list is walked again and stored whole, of the new time', async () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store, { demo: true })
	const jobs = new JobStore(store, { demo: true })
	const ig = simulator.client()
	const before = await followersNow(store)
	// As a --demo playground keeps demo time: a move is recorded and drops the lists not yet stored.
	const clock = simulatorClock(simulator.sim.url)
	const kept = (await storeDemoClock(
		store,
		{ external: false, clock },
		{ onMoved: () => dropUnstoredLists(store) }
	)) as StoreDemoClock<ClockReading>
	const watch = watches.create({ kind: 'account', target: TARGET, every_seconds: 86_400, followers: true })
	// Slow pages, as with --speed safe: the move lands while the walk goes on.
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 15, pathPattern: '/followers/' })
	let move: Promise<unknown> | undefined
	let movedDuringRun = false
	let runEnded = false
	const scheduler = new WatchScheduler({
		watches,
		jobs,
		ig,
		log: () => {},
		beforeRun: kept.sync,
		demoTime: async () => (await clock()).hours,
		onEvent: (_watch, event) => {
			// "Advance demo time by a day" once five pages of the list are stored.
			if (event.type === 'page' && event.job.pages === 5 && !move)
				move = kept.clock(24).then(() => {
					movedDuringRun = !runEnded
				})
		}
	})
	try {
		const snapshot = await scheduler.run(watch.id)
		runEnded = true
		await move
		expect(movedDuringRun).toBe(true)
		simulator.sim.faults.clear()
		const after = await followersNow(store)
		const profile = await ig.users.getByUsername(TARGET)
		expect(snapshot.followers).toBe(profile.follower_count)
		expect(snapshot.following).toBe(profile.following_count)
		expect(snapshot.follower_list_size).toBe(after.size)
		expectListOfNewTime(keysOf(store, followerJobOf(store, snapshot.id)), before, after)
		// No list of the old moment is left behind for a later run to store or continue.
		expect(jobs.list([WATCH_JOB_OWNER]).map((job) => job.id)).toEqual([followerJobOf(store, snapshot.id)])
	} finally {
		await scheduler.stop()
		kept.stop()
		store.close()
	}
})

test('demo time that keeps moving fails the run with why: no snapshot, no list of two moments', async () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const watch = watches.create({ kind: 'account', target: TARGET, every_seconds: 86_400, followers: true })
	const clock = simulatorClock(simulator.sim.url)
	let pages = 0
	const failed = await runWatch(watch, {
		watches,
		jobs,
		ig: simulator.client(),
		demoTime: async () => (await clock()).hours,
		// An hour on every third page, however often the list starts over.
		beforePage: async () => {
			if (++pages % 3 === 0) await clock(1)
		}
	}).catch((error: Error) => error)
	expect(failed).toBeInstanceOf(Error)
	expect((failed as Error).message).toBe(DEMO_TIME_MOVED)
	expect(watches.snapshots(watch.id)).toHaveLength(0)
	expect(watches.get(watch.id)?.last_error).toBe(DEMO_TIME_MOVED)
	// The list walked last was dropped with the rest: the next run walks a new one from its first page.
	expect(watches.pendingJob(watch.id)).toBeNull()
	expect(jobs.list([WATCH_JOB_OWNER])).toEqual([])
	store.close()
})

test('a --demo playground: Advance demo time during "Run now" stores the list of the new time', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'smkit-demo-move-walk-'))
	const dbPath = join(folder, 'smkit.db')
	const shared = process.env.SMKIT_UPSTREAM_URL
	// The simulator of this file, so the test can slow its pages (the playground moves its clock).
	process.env.SMKIT_UPSTREAM_URL = simulator.sim.url
	const running = await startPlaygroundServer(
		parsePlaygroundOptions({
			port: 0,
			demo: true,
			savedDir: folder,
			env: join(folder, 'none.env'),
			db: dbPath
		}),
		{},
		() => {}
	)
	const store = openStore(dbPath)
	const api = async (path: string, body?: unknown) => {
		const response = await fetch(`${running.url}${path}`, {
			method: body === undefined ? 'GET' : 'POST',
			headers: body === undefined ? undefined : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body)
		})
		const answer = await response.json()
		if (!answer.success) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer.error)}`)
		return answer.data
	}
	try {
		const before = await followersNow(store)
		const watch = await api('api/watches', { username: TARGET, followers: true })
		simulator.sim.faults.set({ kind: 'latency', latencyMs: 15, pathPattern: '/followers/' })
		let runEnded = false
		const run = api(`api/watches/${watch.id}/run`, {}).finally(() => {
			runEnded = true
		})
		// Five pages of the list stored, then "Advance demo time by a day".
		const collected = () =>
			store.db
				.query<{ pages: number }, [string]>(
					'SELECT coalesce(max(pages), 0) AS pages FROM jobs WHERE owner = ?'
				)
				.get(WATCH_JOB_OWNER)?.pages ?? 0
		while (collected() < 5 && !runEnded) await Bun.sleep(5)
		await api('api/demo/clock', { advance_hours: 24 })
		expect(runEnded).toBe(false)
		const snapshot = await run
		simulator.sim.faults.clear()
		const after = await followersNow(store)
		const profile = await simulator.client().users.getByUsername(TARGET)
		expect(snapshot.followers).toBe(profile.follower_count)
		expect(snapshot.follower_list_size).toBe(after.size)
		expectListOfNewTime(keysOf(store, followerJobOf(store, snapshot.id)), before, after)
	} finally {
		if (shared === undefined) delete process.env.SMKIT_UPSTREAM_URL
		else process.env.SMKIT_UPSTREAM_URL = shared
		store.close()
		await running.stop()
		rmSync(folder, { recursive: true, force: true })
	}
})

test('a move leaves the list of a run in progress to that run, even between its walk and its snapshot', () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const watch = watches.create({ kind: 'account', target: TARGET, every_seconds: 86_400, followers: true })
	const list = jobs.create({ kind: 'followers', target: TARGET }, WATCH_JOB_OWNER)
	watches.setPendingJob(watch.id, list.id)
	// Walked to its end (nobody walks it now); the run reads the counts before it stores its snapshot.
	jobs.setStatus(list.id, 'done')
	expect(watches.leases.claim(watch.id)).toBe(true)
	expect(dropUnstoredLists(store)).toBe(0)
	expect(watches.pendingJob(watch.id)).toBe(list.id)
	// Its run ended without a snapshot: the list describes the world before the move.
	watches.leases.release(watch.id)
	expect(dropUnstoredLists(store)).toBe(1)
	expect(jobs.get(list.id)).toBeUndefined()
	store.close()
})
