/**
 * A run interrupted after its follower list was complete (during the recheck, or before the
 * snapshot) leaves a finished list without a snapshot. A run within the hour stores that list
 * without walking it again; an older one is replaced, and the replaced list is deleted, never left
 * behind. A list a snapshot holds is never reused or deleted, `watch remove` deletes every list of
 * its account that nothing holds, and `smkit jobs delete` deletes a watch's list no watch holds.
 */
import { afterEach, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runJobsCommand } from '../../src/jobs/cli'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'
import { CONTINUE_LIST_SECONDS, runWatch, WATCH_JOB_OWNER } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch } from '../../src/watch/types'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()

afterEach(() => {
	process.exitCode = 0
})

/** A store with a watch of luna.explorer's followers (263) that has one snapshot. */
async function watchedWithSnapshot(store: Store = openStore(':memory:')) {
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const ig = simulator.client()
	const created = watches.create({
		kind: 'account',
		target: 'luna.explorer',
		every_seconds: 3600,
		followers: true
	})
	const first = await runWatch(created, { watches, jobs, ig })
	const current = () => watches.get(created.id) as Watch
	/** Runs the watch, stopping it once its follower list is done, before the snapshot is stored. */
	const interruptAfterList = async () => {
		const controller = new AbortController()
		await runWatch(current(), {
			watches,
			jobs,
			ig,
			signal: controller.signal,
			onEvent: (event) => {
				if (event.type === 'status' && event.job.status === 'done') controller.abort(new Error('killed'))
			}
		}).catch(() => undefined)
		const pending = watches.pendingJob(created.id) as number
		expect(jobs.get(pending)?.status).toBe('done')
		expect(watches.snapshots(created.id)).toHaveLength(1)
		return pending
	}
	/** Runs the watch again: its snapshot and the follower pages it walked (look-ups by name aside). */
	const runAgain = async () => {
		simulator.sent.length = 0
		const snapshot = await runWatch(current(), { watches, jobs, ig })
		const pages = simulator.sent.filter(
			(sent) => sent.url.pathname.endsWith('/followers/') && !sent.url.searchParams.has('query')
		)
		return { snapshot, pages: pages.length }
	}
	const listOf = (snapshotId: number) =>
		(
			store.db
				.query<{ job: number }, [number]>('SELECT follower_job_id AS job FROM watch_snapshots WHERE id = ?')
				.get(snapshotId) as { job: number }
		).job
	const watchJobs = () => jobs.list([WATCH_JOB_OWNER]).map((job) => job.id)
	return { store, watches, jobs, watch: created, first, interruptAfterList, runAgain, listOf, watchJobs }
}

test('a list finished before its snapshot is stored by the next run within the hour, without a new walk', async () => {
	const { jobs, first, interruptAfterList, runAgain, listOf, watchJobs } = await watchedWithSnapshot()
	const finished = await interruptAfterList()
	const { snapshot, pages } = await runAgain()
	expect(pages).toBe(0)
	expect(listOf(snapshot.id)).toBe(finished)
	expect(snapshot.follower_list_size).toBe(jobs.get(finished)?.collected as number)
	expect(watchJobs().sort()).toEqual([listOf(first.id), finished].sort())
})

test('a list whose recheck was interrupted is stored by the next run within the hour, without a new walk', async () => {
	const { watches, jobs, watch, first, runAgain, listOf, watchJobs } = await watchedWithSnapshot()
	// Followers come and go: the new list lacks some of the first, looked up by name before the snapshot.
	const response = await fetch(`${simulator.sim.url}/__sim/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_hours: 48 })
	})
	expect(response.status).toBe(200)
	const controller = new AbortController()
	let lookUps = 0
	await runWatch(watches.get(watch.id) as Watch, {
		watches,
		jobs,
		ig: simulator.client(),
		signal: controller.signal,
		beforePage: async () => {
			if (jobs.get(watches.pendingJob(watch.id) as number)?.status !== 'done') return
			lookUps++
			controller.abort(new Error('killed'))
		}
	}).catch(() => undefined)
	expect(lookUps).toBe(1)
	const finished = watches.pendingJob(watch.id) as number
	const { snapshot, pages } = await runAgain()
	expect(pages).toBe(0)
	expect(listOf(snapshot.id)).toBe(finished)
	expect(watchJobs().sort()).toEqual([listOf(first.id), finished].sort())
})

test('a finished list older than the hour is walked again, and the old list is deleted', async () => {
	const { store, jobs, first, interruptAfterList, runAgain, listOf, watchJobs } = await watchedWithSnapshot()
	const finished = await interruptAfterList()
	const longAgo = new Date(Date.now() - (CONTINUE_LIST_SECONDS + 120) * 1000).toISOString()
	store.db.query('UPDATE jobs SET updated_at = ? WHERE id = ?').run(longAgo, finished)
	const { snapshot, pages } = await runAgain()
	expect(pages).toBeGreaterThan(0)
	expect(listOf(snapshot.id)).not.toBe(finished)
	expect(jobs.get(finished)).toBeUndefined()
	expect(watchJobs().sort()).toEqual([listOf(first.id), listOf(snapshot.id)].sort())
})

test("a snapshot's list is never reused as a new run's list, nor deleted", async () => {
	const { watches, jobs, watch, first, runAgain, listOf, watchJobs } = await watchedWithSnapshot()
	const held = listOf(first.id)
	const records = jobs.get(held)?.collected
	watches.setPendingJob(watch.id, held)
	const { snapshot, pages } = await runAgain()
	expect(pages).toBeGreaterThan(0)
	expect(listOf(snapshot.id)).not.toBe(held)
	expect(jobs.get(held)?.collected).toBe(records as number)
	expect(watchJobs().sort()).toEqual([held, listOf(snapshot.id)].sort())
})

test('watch remove deletes the lists of its account that nothing holds, beside its own', async () => {
	const { watches, jobs, watch, interruptAfterList, watchJobs } = await watchedWithSnapshot()
	await interruptAfterList()
	// A list an earlier version left behind when it replaced the watch's list.
	const left = jobs.create({ kind: 'followers', target: 'luna.explorer' }, WATCH_JOB_OWNER).id
	const other = jobs.create({ kind: 'followers', target: 'luna.explorer' }, 'cli').id
	expect(watches.delete(watch.id)).toBe(true)
	expect(jobs.get(left)).toBeUndefined()
	expect(watchJobs()).toEqual([])
	expect(jobs.get(other)).toBeDefined()
})

test('smkit jobs delete deletes a watch list no watch holds, and still refuses one a snapshot holds', async () => {
	const folder = mkdtempSync(join(tmpdir(), 'smkit-unstored-list-'))
	const store = openStore(join(folder, 'smkit.db'))
	const written: string[] = []
	const stdout = spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		written.push(String(chunk))
		return true
	})
	try {
		const { jobs, watches, first, listOf } = await watchedWithSnapshot(store)
		const held = listOf(first.id)
		// The list of a watch removed before watch remove deleted such lists.
		const gone = watches.create({
			kind: 'account',
			target: 'mega.travel',
			every_seconds: 3600,
			followers: true
		})
		const orphan = jobs.create({ kind: 'followers', target: 'mega.travel' }, WATCH_JOB_OWNER).id
		store.db.query('DELETE FROM watches WHERE id = ?').run(gone.id)
		const options = { db: join(folder, 'smkit.db'), json: true }
		await runJobsCommand('delete', [String(orphan)], options)
		expect(JSON.parse(written.join(''))).toEqual({ deleted: orphan })
		expect(jobs.get(orphan)).toBeUndefined()
		const refused = await runJobsCommand('delete', [String(held)], options).catch((error: Error) => error)
		expect((refused as Error).message).toContain('it goes with the watch')
		expect(jobs.get(held)).toBeDefined()
	} finally {
		stdout.mockRestore()
		store.close()
		rmSync(folder, { recursive: true, force: true })
	}
})
