/**
 * One run of a watch: reads the account's profile counts (or the hashtag's media count and top
 * posts) and, for an account watched with followers, collects the complete follower list with the
 * jobs engine (owner `watch`), so an interrupted run resumes its collection from the last stored page
 * when it runs again within the hour (`CONTINUE_LIST_SECONDS`; later, the list starts over); a list
 * that finished without its snapshot (interrupted during the recheck, or failed there: recheck.ts)
 * is stored by such a run without a new walk. Only a finished run stores a snapshot, and only of
 * what Instagram gave (run-reads.ts); a failed one records why.
 *
 * In demo mode (`demoTime`) a snapshot is of one moment of the demo world: when its clock moves
 * during the run (the Watch panel's "Advance demo time by a day", another process's move followed
 * here), the follower list walked so far is dropped and walked again from its first page, and the
 * counts are read again after it; a clock that keeps moving fails the run (`DEMO_TIME_MOVED`).
 */
import type { InstagramClient } from '../client/client'
import { topPosts } from '../client/tools/analytics'
import { runJob } from '../jobs/run'
import type { JobStore } from '../jobs/store'
import type { Job, JobEvent } from '../jobs/types'
import { heldBySnapshot, uncheckedCount, WATCH_JOB_OWNER } from './follower-lists'
import { RecheckFailed, recheckMissing } from './recheck'
import { HASHTAG_CANDIDATE_POSTS, hashtagReading, profileCounts } from './run-reads'
import type { WatchStore } from './store'
import type { AccountCounts, Snapshot, Watch } from './types'

export { HASHTAG_CANDIDATE_POSTS, WATCH_JOB_OWNER }

/** How many top posts a hashtag snapshot keeps. */
export const HASHTAG_TOP_POSTS = 9

/** A failed run is tried again after this long (or the watch's interval, if shorter). */
export const RETRY_SECONDS = 15 * 60

/**
 * A follower list a run left unfinished (killed, stopped, failed) is continued by the next run only
 * if it stood still for less than this; older, it is collected again from the start. Continued
 * after longer, one snapshot would hold followers of two times (some gone since, new ones missed)
 * and its diffs would put those changes in the wrong period. A list that finished but has no
 * snapshot yet is stored by the next run under the same rule; older, it is replaced.
 */
export const CONTINUE_LIST_SECONDS = 60 * 60

/**
 * How many times one run takes its snapshot again (a follower list walked again from its first
 * page) because demo time moved during it, before it fails with `DEMO_TIME_MOVED`.
 */
export const DEMO_MOVE_RETAKES = 3

/** Why a run failed whose demo world kept moving under it (its error code: `demo_time_moved`). */
export const DEMO_TIME_MOVED = 'the demo time moved during the run: run again'

/** What a run needs. */
export interface WatchRunOptions {
	watches: WatchStore
	jobs: JobStore
	ig: InstagramClient
	signal?: AbortSignal
	/** Awaited before each upstream page of a follower collection (leaves room to interactive requests). */
	beforePage?: (signal: AbortSignal) => Promise<void>
	/** Folder of the store (media downloads; unused by followers). */
	dataDir?: string
	/** Each event of the follower list's collection (a page stored, a wait): progress for a terminal. */
	onEvent?: (event: JobEvent) => void
	/**
	 * Demo mode: the hours the simulated Instagram's clock has moved (`GET /__sim/clock`). Read
	 * before the run's requests, before each page and after the last request: a snapshot whose
	 * requests did not all see one reading is taken again (see the top of this file).
	 */
	demoTime?: () => Promise<number>
	/** First back-off step in ms of a failed follower page or look-up (tests; default 2000). */
	backoffMs?: number
	/** The most followers of the previous list looked up (tests; default `MAX_RECHECKS`, recheck.ts). */
	maxRechecks?: number
}

/** A run whose follower list did not finish; `code` is the collection's error code. */
export class WatchRunError extends Error {
	override name = 'WatchRunError'
	constructor(
		message: string,
		readonly code: string | null = null
	) {
		super(message)
	}
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Whether a list last written at `updatedAt` stood still too long to be continued. */
const stoodStill = (updatedAt: string) => Date.now() - Date.parse(updatedAt) > CONTINUE_LIST_SECONDS * 1000

/**
 * The follower list this run stores, and whether it is finished already. The watch's pending list is
 * kept when it is fresh (`CONTINUE_LIST_SECONDS`): a finished one as it is, an unfinished one to be
 * continued. Otherwise it is replaced by a new list and deleted (a snapshot's list is only replaced:
 * never reused, never deleted): a finished or cancelled list that stood still, or one of the other
 * Instagram, whose pages this one's do not continue. An unfinished list that stood still starts over.
 */
function followerList(watch: Watch, watches: WatchStore, jobs: JobStore): { id: number; finished: boolean } {
	const pendingId = watches.pendingJob(watch.id)
	const pending = pendingId === null ? undefined : jobs.get(pendingId)
	const usable = pending && !heldBySnapshot(watches.store, pending.id) && !jobs.otherWorld(pending)
	if (usable && pending.status === 'done' && !stoodStill(pending.updated_at))
		return { id: pending.id, finished: true }
	if (usable && pending.status !== 'done' && pending.status !== 'cancelled') {
		if (stoodStill(pending.updated_at) && jobs.liveRunner(pending.id) === null) jobs.reset(pending.id)
		else if (pending.status !== 'queued' && pending.status !== 'running') jobs.setStatus(pending.id, 'queued')
		return { id: pending.id, finished: false }
	}
	const create = () => jobs.create({ kind: 'followers', target: watch.target }, WATCH_JOB_OWNER).id
	return { id: watches.replacePendingJob(watch, create), finished: false }
}

/** A snapshot read at one moment of demo time, or `moved` when the demo clock moved meanwhile. */
type AtOneMoment<Result> = { taken: Result } | { moved: true }

/**
 * Runs `read` (the requests of one snapshot) with demo time standing still, as `options.demoTime`
 * tells: the reading before it, before each page (`beforePage`, handed to `read`) and after it must
 * be the same. A move seen before a page aborts `read`'s signal, so a long walk stops at once rather
 * than at its end. Outside demo mode `read` just runs.
 */
async function atOneMoment<Result>(
	options: WatchRunOptions,
	signal: AbortSignal,
	read: (signal: AbortSignal, beforePage: (signal: AbortSignal) => Promise<void>) => Promise<Result>
): Promise<AtOneMoment<Result>> {
	const { demoTime } = options
	const before = demoTime && (await demoTime())
	const moved = new AbortController()
	const readSignal = AbortSignal.any([signal, moved.signal])
	const beforePage = async (pageSignal: AbortSignal) => {
		await options.beforePage?.(pageSignal)
		// A failed reading here is not a move: the reading after the run decides.
		if (demoTime && (await demoTime().catch(() => before)) !== before) moved.abort(new Error(DEMO_TIME_MOVED))
	}
	try {
		const taken = await read(readSignal, beforePage)
		if (signal.aborted) return { taken }
		if (moved.signal.aborted || (demoTime && (await demoTime()) !== before)) return { moved: true }
		return { taken }
	} catch (error) {
		if (moved.signal.aborted && !signal.aborted) return { moved: true }
		throw error
	}
}

/** The follower list and counts of one moment (see `atOneMoment`), or null when stopped. */
async function followersAndCounts(
	watch: Watch,
	list: { id: number; finished: boolean },
	options: WatchRunOptions,
	signal: AbortSignal,
	beforePage: (signal: AbortSignal) => Promise<void>
): Promise<{ job: Job; counts: AccountCounts } | null> {
	const { jobs, ig } = options
	const job = list.finished
		? (jobs.get(list.id) as Job)
		: await runJob(jobs, list.id, {
				ig,
				signal,
				dataDir: options.dataDir,
				beforePage,
				onEvent: options.onEvent,
				backoffMs: options.backoffMs
			})
	if (signal.aborted) return null
	if (job.status !== 'done')
		throw new WatchRunError(`follower list ${job.status}: ${job.error ?? 'no reason given'}`, job.error_code)
	// A look-up that kept failing fails the run, its list kept: the next run redoes the look-ups.
	await recheckMissing(watch.id, job.id, { ...options, signal, beforePage }).catch((error: unknown) => {
		throw error instanceof RecheckFailed ? new WatchRunError(error.message, error.code) : error
	})
	if (signal.aborted) return null
	// The counts of the moment the list is complete, as `taken_at` is: those read before the walk
	// are of another time when followers came and went during it. A failed read fails the run; its
	// list is kept, and a retry within the hour stores it after reading the counts again.
	return { job, counts: await profileCounts(ig, watch, signal) }
}

/**
 * Runs the watch once and stores its snapshot. On failure it records why on the watch and throws:
 * the client's error as it came (a missing account, a rate limit) or a WatchRunError.
 */
export async function runWatch(watch: Watch, options: WatchRunOptions): Promise<Snapshot> {
	const { watches, jobs, ig } = options
	const signal = options.signal ?? new AbortController().signal
	const startedAt = new Date()
	/** The follower list this run collects into. */
	let jobId: number | null = null
	try {
		if (watch.kind === 'hashtag') {
			for (let retakes = 0; ; retakes++) {
				// The media count and the top posts of one moment of demo time.
				const read = await atOneMoment(options, signal, (readSignal) => hashtagReading(ig, watch, readSignal))
				if ('taken' in read) {
					const { info, page } = read.taken
					return watches.addSnapshot(
						watch.id,
						{
							takenAt: new Date().toISOString(),
							mediaCount: info?.media_count ?? 0,
							topPosts: page === null ? [] : topPosts(page.items, HASHTAG_TOP_POSTS)
						},
						startedAt
					)
				}
				if (retakes >= DEMO_MOVE_RETAKES) throw new WatchRunError(DEMO_TIME_MOVED, 'demo_time_moved')
			}
		}
		const counts = await profileCounts(ig, watch, signal)
		if (!watch.followers)
			return watches.addSnapshot(watch.id, { takenAt: new Date().toISOString(), counts }, startedAt)
		let list = followerList(watch, watches, jobs)
		for (let retakes = 0; ; retakes++) {
			jobId = list.id
			const current = list
			const read = await atOneMoment(options, signal, (readSignal, beforePage) =>
				followersAndCounts(watch, current, options, readSignal, beforePage)
			)
			if ('taken' in read) {
				if (read.taken === null) throw new WatchRunError('stopped before the follower list was complete')
				const { job, counts: countsAfter } = read.taken
				// The followers seen (walked or found by the rechecks), not those kept unchecked.
				const listed = (jobs.get(job.id)?.collected ?? job.collected) - uncheckedCount(watches.store, job.id)
				// Stored at once after the last reading of demo time: nothing runs in between.
				return watches.addSnapshot(
					watch.id,
					{
						takenAt: new Date().toISOString(),
						counts: countsAfter,
						followerJobId: job.id,
						followerListSize: listed
					},
					startedAt
				)
			}
			// Demo time moved: the pages walked so far (a finished list too) are of the world before it,
			// and a list walked on from them would be part one moment, part the other. It starts over;
			// when the run gives up, it is dropped (the next run walks a new one).
			const own = jobs.get(current.id) !== undefined && !heldBySnapshot(watches.store, current.id)
			if (retakes >= DEMO_MOVE_RETAKES) {
				if (own) {
					watches.setPendingJob(watch.id, null)
					jobs.delete(current.id)
				}
				throw new WatchRunError(DEMO_TIME_MOVED, 'demo_time_moved')
			}
			if (own) jobs.reset(current.id)
			// The list started over (or, dropped meanwhile, a new one).
			list = followerList(watch, watches, jobs)
		}
	} catch (error) {
		if (signal.aborted) throw error
		// Removed meanwhile (`smkit watch remove` beside a playground): whatever failed, that is why,
		// and a follower list collected for it belongs to nothing.
		if (!watches.get(watch.id)) {
			if (jobId !== null) jobs.delete(jobId)
			throw new WatchRunError('the watch was removed during its run', 'not_found')
		}
		watches.recordFailure(watch.id, describe(error), startedAt, RETRY_SECONDS)
		throw error
	}
}
