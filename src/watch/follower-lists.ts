/**
 * The jobs that hold watches' follower lists (owner `watch`), as the watches tables point at them:
 * a snapshot's list (`watch_snapshots.follower_job_id`) or the list of a run not yet stored
 * (`watches.pending_job_id`). A list neither holds belongs to nothing: a run that replaces its list
 * and `watch remove` delete such lists of the account, so none is left in the store.
 */
import { runnerAlive } from '../jobs/process-alive'
import type { Store } from '../store/db'
import { runLive } from './run-lease'

/** Owner of the jobs that collect watches' follower lists (the Jobs panel does not list them). */
export const WATCH_JOB_OWNER = 'watch'

/** Whether a snapshot holds job `jobId` as its list: such a list is never deleted or reused by a run. */
export function heldBySnapshot(store: Store, jobId: number): boolean {
	return (
		store.db
			.query<{ held: number }, [number]>(
				'SELECT EXISTS (SELECT 1 FROM watch_snapshots WHERE follower_job_id = ?) AS held'
			)
			.get(jobId)?.held === 1
	)
}

/**
 * Deletes the follower lists of account `target` that no snapshot and no watch's run holds: a list
 * a run replaced, a removed watch's (earlier versions left such lists behind). Returns how many.
 */
export function deleteLooseLists(store: Store, target: string): number {
	return store.db
		.query(
			`DELETE FROM jobs WHERE owner = ? AND kind = 'followers' AND target = ?
			 AND id NOT IN (SELECT follower_job_id FROM watch_snapshots WHERE follower_job_id IS NOT NULL)
			 AND id NOT IN (SELECT pending_job_id FROM watches WHERE pending_job_id IS NOT NULL)`
		)
		.run(WATCH_JOB_OWNER, target).changes
}

/** The lists of watch `id`: its snapshots' and its pending run's. */
export function listsOfWatch(store: Store, id: number): number[] {
	return store.db
		.query<{ job: number }, [number, number]>(
			`SELECT follower_job_id AS job FROM watch_snapshots WHERE watch_id = ? AND follower_job_id IS NOT NULL
			 UNION SELECT pending_job_id FROM watches WHERE id = ? AND pending_job_id IS NOT NULL`
		)
		.all(id, id)
		.map((row) => row.job)
}

/** The records of job `inJob` whose keys job `notInJob` lacks, in `inJob`'s order (at most `limit`). */
export function recordsOnlyIn(store: Store, inJob: number, notInJob: number, limit = -1): unknown[] {
	return store.db
		.query<{ data: string }, [number, number, number]>(
			`SELECT data FROM job_records WHERE job_id = ? AND record_key NOT IN
			 (SELECT record_key FROM job_records WHERE job_id = ?) ORDER BY seq LIMIT ?`
		)
		.all(inJob, notInJob, limit)
		.map((row) => JSON.parse(row.data))
}

/**
 * The records of job `inJob` whose keys job `notInJob` lacks: those marked `unchecked` first (a
 * watch's rechecks, recheck.ts), then in `inJob`'s order.
 */
export function missingFromList(store: Store, inJob: number, notInJob: number): unknown[] {
	return store.db
		.query<{ data: string }, [number, number]>(
			`SELECT data FROM job_records WHERE job_id = ? AND record_key NOT IN
			 (SELECT record_key FROM job_records WHERE job_id = ?)
			 ORDER BY json_extract(data, '$.unchecked') IS 1 DESC, seq`
		)
		.all(inJob, notInJob)
		.map((row) => JSON.parse(row.data))
}

/** How many records of job `jobId` a watch's rechecks kept unchecked (recheck.ts). */
export function uncheckedCount(store: Store, jobId: number): number {
	return (
		store.db
			.query<{ unchecked: number }, [number]>(
				`SELECT count(*) AS unchecked FROM job_records WHERE job_id = ? AND json_extract(data, '$.unchecked') IS 1`
			)
			.get(jobId)?.unchecked ?? 0
	)
}

/** The list (its job) of the watch's newest snapshot that has one, or null. */
export function lastFollowerJob(store: Store, watchId: number): number | null {
	const row = store.db
		.query<{ job: number }, [number]>(
			`SELECT follower_job_id AS job FROM watch_snapshots
			 WHERE watch_id = ? AND follower_job_id IS NOT NULL ORDER BY id DESC LIMIT 1`
		)
		.get(watchId)
	return row?.job ?? null
}

/**
 * Drops the follower lists of runs not yet stored, when demo time moved: they describe the world
 * before the move, and a run continuing or storing one would put counts of one moment beside a list
 * of another. A list whose run is in progress (a live process walks it, or holds the watch's run:
 * run-lease.ts) is left to that run, which sees the move and walks its list again from the first
 * page (run.ts, `demoTime`). Returns how many were dropped.
 */
export function dropUnstoredLists(store: Store): number {
	const pending = store.db
		.query<
			{
				id: number
				runner_pid: number | null
				runner_started: string | null
				watch: number
				runner: string | null
			},
			[]
		>(
			`SELECT jobs.id, jobs.runner_pid, jobs.runner_started, watches.id AS watch, watches.runner
			 FROM watches JOIN jobs ON jobs.id = watches.pending_job_id
			 WHERE jobs.id NOT IN (SELECT follower_job_id FROM watch_snapshots WHERE follower_job_id IS NOT NULL)`
		)
		.all()
		.filter(
			(job) =>
				(job.runner_pid === null || !runnerAlive(job.runner_pid, job.runner_started)) &&
				!runLive(job.watch, job.runner)
		)
	return store.transaction(() => {
		for (const job of pending) {
			store.db.query('UPDATE watches SET pending_job_id = NULL WHERE pending_job_id = ?').run(job.id)
			store.db.query('DELETE FROM jobs WHERE id = ?').run(job.id)
		}
		return pending.length
	})
}
