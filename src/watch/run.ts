/**
 * One run of a watch: reads the account's profile counts (or the hashtag's media count and top
 * posts) and, for an account watched with followers, collects the complete follower list with the
 * jobs engine (owner `watch`), so an interrupted run resumes its collection from the last stored page
 * when it runs again within the hour (`CONTINUE_LIST_SECONDS`; later, the list starts over); a list
 * that finished without its snapshot (interrupted during the recheck) is stored by such a run without
 * a new walk. Only a finished run stores a snapshot; a failed one records why.
 */
import type { InstagramClient } from '../client/client'
import { IgApiError } from '../client/errors'
import { topPosts } from '../client/tools/analytics'
import { runJob } from '../jobs/run'
import type { JobStore } from '../jobs/store'
import type { Job, JobEvent } from '../jobs/types'
import { heldBySnapshot, WATCH_JOB_OWNER } from './follower-lists'
import { recheckMissing } from './recheck'
import type { WatchStore } from './store'
import type { AccountCounts, Snapshot, Watch } from './types'

export { WATCH_JOB_OWNER }

/** How many top posts a hashtag snapshot keeps. */
export const HASHTAG_TOP_POSTS = 9

/**
 * The top posts are picked from the tag's this-many most recent posts, collected across pages: a
 * fixed pool, whatever the page size of the endpoint that answers (Instagram's GraphQL query and its
 * REST fallback give pages of different sizes), so a post enters or leaves the top by its likes and
 * comments, not by which endpoint answered, and the top is more than the newest page reordered.
 */
export const HASHTAG_CANDIDATE_POSTS = 45

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

/** The account's profile counts now. */
async function profileCounts(ig: InstagramClient, watch: Watch, signal: AbortSignal): Promise<AccountCounts> {
	const user = await ig.users.getByUsername(watch.target, { signal })
	return { followers: user.follower_count, following: user.following_count, posts: user.media_count }
}

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
			// A hashtag nobody has used yet (a campaign's) is not found: its snapshot holds no posts.
			const info = await ig.hashtags.getInfo(watch.target, { signal }).catch((error: unknown) => {
				if (error instanceof IgApiError && error.kind === 'not_found') return null
				throw error
			})
			const page =
				info === null
					? null
					: await ig.feed.getTagFeed(watch.target, { count: HASHTAG_CANDIDATE_POSTS, signal })
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
		const counts = await profileCounts(ig, watch, signal)
		if (!watch.followers)
			return watches.addSnapshot(watch.id, { takenAt: new Date().toISOString(), counts }, startedAt)
		const list = followerList(watch, watches, jobs)
		jobId = list.id
		const job = list.finished
			? (jobs.get(jobId) as Job)
			: await runJob(jobs, jobId, {
					ig,
					signal,
					dataDir: options.dataDir,
					beforePage: options.beforePage,
					onEvent: options.onEvent
				})
		if (signal.aborted) throw new WatchRunError('stopped before the follower list was complete')
		if (job.status !== 'done')
			throw new WatchRunError(
				`follower list ${job.status}: ${job.error ?? 'no reason given'}`,
				job.error_code
			)
		await recheckMissing(watch.id, job.id, { ...options, signal })
		if (signal.aborted) throw new WatchRunError('stopped before the follower list was complete')
		// The counts of the moment the list is complete, as `taken_at` is: those read before the walk
		// are of another time when followers came and went during it. A failed read fails the run; its
		// list is kept, and a retry within the hour stores it after reading the counts again.
		const countsAfter = await profileCounts(ig, watch, signal)
		return watches.addSnapshot(
			watch.id,
			{
				takenAt: new Date().toISOString(),
				counts: countsAfter,
				followerJobId: job.id,
				followerListSize: jobs.get(job.id)?.collected ?? job.collected
			},
			startedAt
		)
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
