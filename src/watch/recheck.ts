/**
 * Followers a walk skipped, found by name. A follower list that changes while it is walked moves
 * under the walk: a follower who leaves from the part already walked pulls the rest one place up,
 * and the next page begins one follower later, so one who stayed is never returned
 * (docs/api-contract.md, "Pagination"). A watch's diff would call that follower lost. So before a
 * run stores its snapshot, each follower of the previous list that the new one lacks is looked up in
 * the account's follower list by username (Instagram's search over a follower list); one found there
 * still follows and joins the new list. Those not found did leave.
 *
 * No follower is called lost unchecked:
 * - A failed look-up (a rate limit, Instagram down) is asked again, as a walk's page is: a growing
 *   back-off that honours Retry-After, `LOOKUP_ATTEMPTS` attempts at most. One that still fails
 *   fails the run (`RecheckFailed`): no snapshot is stored, the walked list is kept, and the next run
 *   within the hour only redoes the look-ups (those found so far are in the list already).
 * - A run looks up at most `MAX_RECHECKS` followers. Those beyond it join the new list marked
 *   `unchecked: true` (not counted in the snapshot's list size), so the diff does not call them
 *   lost; the next run looks them up first. One still unchecked there, missing from two walks in a
 *   row, is taken as gone.
 */
import type { InstagramClient } from '../client/client'
import { IgError } from '../client/errors'
import { sleep } from '../client/rate-limit'
import { withoutClientRetries } from '../client/retry-scope'
import { backoffWait, isTransient } from '../jobs/run-errors'
import type { JobStore } from '../jobs/store'
import { missingFromList } from './follower-lists'
import type { WatchStore } from './store'

/** The most followers of the previous list one run looks up (each look-up is one request). */
export const MAX_RECHECKS = 100

/** Attempts of one look-up before the run fails. */
export const LOOKUP_ATTEMPTS = 5

/** First back-off step of a failed look-up (doubling per attempt, up to `MAX_BACKOFF_MS`). */
const BACKOFF_MS = 2000
const MAX_BACKOFF_MS = 60_000
/** A Retry-After longer than this is not waited out in the run: it fails, and is run again later. */
const LONGEST_WAIT_MS = 5 * 60_000

/** What a recheck needs: the run's stores, client, signal and pacing. */
export interface RecheckOptions {
	watches: WatchStore
	jobs: JobStore
	ig: InstagramClient
	signal: AbortSignal
	/** Awaited before each look-up, as before each page of the walk. */
	beforePage?: (signal: AbortSignal) => Promise<void>
	/** First back-off step in ms of a failed look-up (default 2000). */
	backoffMs?: number
	/** The most followers looked up (default `MAX_RECHECKS`). */
	maxRechecks?: number
}

/** A look-up failed, attempt after attempt: the run fails (`code`: the client's error kind). */
export class RecheckFailed extends Error {
	override name = 'RecheckFailed'
	constructor(
		message: string,
		readonly code: string
	) {
		super(message)
	}
}

/** A follower record of a stored list. */
type Follower = { pk?: string; username?: string; unchecked?: boolean }

/**
 * Looks up the followers of the watch's previous list missing from job `jobId`'s new list and adds
 * those who still follow; those beyond the cap are added marked unchecked (see the top of this
 * file). Returns how many it found. Throws `RecheckFailed` when a look-up keeps failing, or the
 * client's error as it came when it is no passing one (a session to reconnect).
 */
export async function recheckMissing(
	watchId: number,
	jobId: number,
	options: RecheckOptions
): Promise<number> {
	const { watches, jobs } = options
	const previous = watches.lastFollowerJob(watchId)
	const accountPk = jobs.position(jobId).targetId
	if (previous === null || previous === jobId || accountPk === null) return 0
	const missing = (missingFromList(watches.store, previous, jobId) as Follower[]).filter(
		(follower) => follower.pk && follower.username
	)
	const cap = options.maxRechecks ?? MAX_RECHECKS
	let found = 0
	const looked = missing.slice(0, cap)
	for (const [index, follower] of looked.entries()) {
		const user = await lookUp(accountPk, follower, options, looked.length - index)
		if (user) found += jobs.addRecords(jobId, [{ key: user.pk, data: user }])
	}
	// Beyond the cap: kept unchecked, unless they were so in the previous list already.
	const unchecked = missing
		.slice(cap)
		.filter((follower) => follower.unchecked !== true)
		.map((follower) => ({ key: follower.pk as string, data: { ...follower, unchecked: true } }))
	if (unchecked.length > 0) jobs.addRecords(jobId, unchecked)
	return found
}

/**
 * Follower `follower` as the account's follower list has it now, or undefined when it is not
 * there. Each attempt is one request (the client's own retries off: the waits are this one's).
 */
async function lookUp(
	accountPk: string,
	follower: Follower,
	options: RecheckOptions,
	left: number
): Promise<{ pk: string } | undefined> {
	const { ig, signal } = options
	for (let attempt = 0; ; attempt++) {
		await options.beforePage?.(signal)
		try {
			const page = await withoutClientRetries(() =>
				ig.friendships.getFollowers(accountPk, { query: follower.username, signal })
			)
			return page.items.find((user) => user.pk === follower.pk)
		} catch (error) {
			if (signal.aborted || !isTransient(error)) throw error
			const wait = backoffWait(error, attempt, options.backoffMs ?? BACKOFF_MS, MAX_BACKOFF_MS)
			if (attempt + 1 >= LOOKUP_ATTEMPTS || wait > LONGEST_WAIT_MS) {
				const reason = error instanceof Error ? error.message : String(error)
				throw new RecheckFailed(
					`could not look up whether ${left} follower${left === 1 ? '' : 's'} of the last snapshot the walk did not return still follow (${reason}): no snapshot stored, since they would read as lost; run again (within the hour only the look-ups are redone)`,
					error instanceof IgError ? error.kind : 'upstream_error'
				)
			}
			await sleep(wait, signal)
		}
	}
}
