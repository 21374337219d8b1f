/**
 * Followers a walk skipped, found by name. A follower list that changes while it is walked moves
 * under the walk: a follower who leaves from the part already walked pulls the rest one place up,
 * and the next page begins one follower later, so one who stayed is never returned
 * (docs/api-contract.md, "Pagination"). A watch's diff would call that follower lost. So before a
 * run stores its snapshot, each follower of the previous list that the new one lacks is looked up in
 * the account's follower list by username (Instagram's search over a follower list); one found there
 * still follows and joins the new list. Those not found did leave.
 */
import type { InstagramClient } from '../client/client'
import type { JobStore } from '../jobs/store'
import { recordsOnlyIn } from './follower-lists'
import type { WatchStore } from './store'

/** The most followers of the previous list one run looks up (each look-up is one request). */
export const MAX_RECHECKS = 100

/** What a recheck needs: the run's stores, client, signal and pacing. */
export interface RecheckOptions {
	watches: WatchStore
	jobs: JobStore
	ig: InstagramClient
	signal: AbortSignal
	/** Awaited before each look-up, as before each page of the walk. */
	beforePage?: (signal: AbortSignal) => Promise<void>
}

/**
 * Looks up the followers of the watch's previous list missing from job `jobId`'s new list and adds
 * those who still follow. Returns how many it added. A failed look-up (a rate limit, Instagram
 * down) ends the rechecks: the list stays as walked, as it was before rechecks existed.
 */
export async function recheckMissing(
	watchId: number,
	jobId: number,
	options: RecheckOptions
): Promise<number> {
	const { watches, jobs, ig, signal } = options
	const previous = watches.lastFollowerJob(watchId)
	const accountPk = jobs.position(jobId).targetId
	if (previous === null || previous === jobId || accountPk === null) return 0
	const missing = recordsOnlyIn(watches.store, previous, jobId, MAX_RECHECKS) as {
		pk?: string
		username?: string
	}[]
	let added = 0
	for (const follower of missing) {
		if (!follower.pk || !follower.username) continue
		await options.beforePage?.(signal)
		let found: { pk: string } | undefined
		try {
			const page = await ig.friendships.getFollowers(accountPk, { query: follower.username, signal })
			found = page.items.find((user) => user.pk === follower.pk)
		} catch (error) {
			if (signal.aborted) throw error
			break
		}
		if (found) added += jobs.addRecords(jobId, [{ key: found.pk, data: found }])
	}
	return added
}
