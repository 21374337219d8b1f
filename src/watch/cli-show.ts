/**
 * The follower list of a watch's run not yet stored as a snapshot (`watches.pending_job_id`), as
 * `smkit watch show` and `watch list` tell it: a run stopped by Ctrl-C (or killed, or failed) while
 * the list was collected leaves it paused, and only `smkit watch run ID` continues it, within the
 * hour (`CONTINUE_LIST_SECONDS`, see run.ts); later the run starts the list over.
 *
 *   const pending = pendingList(watches, watch)   // null: no list waits for this watch's run
 *   pendingListLine(watch, pending, options)       // 'Follower list paused at 400 of 5,400 ...'
 */
import { shellWord } from '../jobs/outside'
import { JobStore } from '../jobs/store'
import type { Job } from '../jobs/types'
import { DEFAULT_ENV_PATH } from '../server/options'
import { when } from '../server/table'
import { DEFAULT_DB_PATH } from '../store/db'
import { heldBySnapshot } from './follower-lists'
import { CONTINUE_LIST_SECONDS } from './run'
import type { WatchStore } from './store'
import type { Watch } from './types'

/** A watch's follower list that waits for its run (`pending_list` of `--json`). */
export interface PendingList {
	job_id: number
	/**
	 * `paused`: stopped before it was complete; `complete`: collected, its snapshot not stored (the
	 * run stopped during its last steps); `collecting`: a live process collects it now.
	 */
	status: 'paused' | 'complete' | 'collecting'
	/** Followers collected so far. */
	collected: number
	/** The account's follower count when the list began, if known. */
	total: number | null
	/** Until when a run continues it (or, complete, stores it): an hour after it last changed. */
	continue_until: string
	/** False when that hour has passed: the next run starts the list over. */
	continues: boolean
}

/**
 * The list a run of `watch` would take up, as run.ts's `followerList` decides: the watch's pending
 * list, unless a snapshot holds it, it was cancelled or it is of the other Instagram (those a run
 * replaces). Null when there is none.
 */
export function pendingList(watches: WatchStore, watch: Watch, now = Date.now()): PendingList | null {
	const id = watches.pendingJob(watch.id)
	const jobs = new JobStore(watches.store)
	const job = id === null ? undefined : jobs.get(id)
	if (!job || job.status === 'cancelled' || heldBySnapshot(watches.store, job.id)) return null
	if (job.demo !== null && watch.demo !== null && job.demo !== watch.demo) return null
	const until = Date.parse(job.updated_at) + CONTINUE_LIST_SECONDS * 1000
	return {
		job_id: job.id,
		status: listStatus(jobs, job),
		collected: job.collected,
		total: job.total,
		continue_until: new Date(until).toISOString(),
		continues: now <= until
	}
}

/** Whether the list is complete, collected now by a live process, or paused (nobody collects it). */
function listStatus(jobs: JobStore, job: Job): PendingList['status'] {
	if (job.status === 'done') return 'complete'
	return jobs.liveRunner(job.id) === null ? 'paused' : 'collecting'
}

/** `400 of 5,400 followers` (`400 followers` when the total is not known). */
const count = (list: PendingList) =>
	`${list.collected.toLocaleString('en-US')}${list.total === null ? '' : ` of ${list.total.toLocaleString('en-US')}`} followers`

/**
 * The command that runs the watch, with the --db and --env `watch show` was given (theirs when not
 * the defaults) so it reads the same store and account, and --demo for a demo watch.
 */
export function runCommand(
	watch: Pick<Watch, 'id' | 'demo'>,
	options: { dbPath: string; envPath: string }
): string {
	return [
		`smkit watch run ${watch.id}`,
		watch.demo ? ' --demo' : '',
		options.dbPath === DEFAULT_DB_PATH ? '' : ` --db ${shellWord(options.dbPath)}`,
		options.envPath === DEFAULT_ENV_PATH ? '' : ` --env ${shellWord(options.envPath)}`
	].join('')
}

/** What `watch show` says of the pending list: how far it got, and what the next run does with it. */
export function pendingListLine(
	watch: Pick<Watch, 'id' | 'demo'>,
	list: PendingList,
	options: { dbPath: string; envPath: string }
): string {
	const job = `job ${list.job_id}`
	if (list.status === 'collecting') return `Follower list being collected now: ${count(list)} (${job})`
	const run = runCommand(watch, options)
	const until = when(list.continue_until)
	if (list.status === 'complete')
		return list.continues
			? `Follower list complete (${count(list)}, ${job}), its snapshot not stored yet: ${run} stores it until ${until}; later the run collects the list again`
			: `Follower list complete (${count(list)}, ${job}) but not stored, and over an hour old: the next run (${run}) collects it again`
	return list.continues
		? `Follower list paused at ${count(list)} (${job}): ${run} continues it until ${until} (an hour after it stopped); later the run starts it over`
		: `Follower list paused at ${count(list)} (${job}) over an hour ago: the next run (${run}) starts it over`
}

/** The watch list's status of a watch whose list waits: `list paused 400/5,400`, or undefined. */
export function pendingListStatus(list: PendingList | null): string | undefined {
	if (!list || list.status === 'collecting') return undefined
	if (list.status === 'complete') return 'list complete, not stored'
	const total = list.total === null ? '' : `/${list.total.toLocaleString('en-US')}`
	return `list paused ${list.collected.toLocaleString('en-US')}${total}`
}
