/**
 * The look before a watch is added: does the account exist? A typed-wrong username would otherwise
 * be accepted and then fail every run, unnoticed until someone reads the watch list.
 *
 * - Instagram says there is no such account: the watch is refused (`not_found`).
 * - Any other failure (no session, a rate limit, Instagram unreachable, the check's own deadline):
 *   the watch is added with a warning. The check is a courtesy; the runs report their own failures.
 * - A private account watched with its follower list: added, with a warning that the list can only
 *   be read while the session's account follows it. The session's own account is no such account:
 *   its list is always readable.
 * - Hashtags are not looked up: one nobody has used yet is a fair thing to watch (a campaign's).
 *
 * One watch is checked within `CHECK_TIMEOUT_MS`; a list's members are checked without a deadline
 * of their own (`timeoutMs: null`), at the pace of the client's budgets, so none is added unchecked
 * for having waited its turn.
 *
 *   const warning = await checkWatchTarget(ig, spec, 'add it with --skip-check')
 */
import type { InstagramClient } from '../client/client'
import { IgApiError, IgError } from '../client/errors'
import { sleep } from '../client/rate-limit'
import type { User } from '../client/types'
import type { WatchSpec } from './types'

/** How long the look may take, retries included, before the watch is added unchecked. */
export const CHECK_TIMEOUT_MS = 15_000

/**
 * Looks the account of `spec` up. Throws `IgError('not_found')` (its message ends with `hint`, how
 * to add it anyway) when Instagram has no such account; returns a warning to show when the account
 * could not be looked up or its follower list will not be readable, otherwise undefined. With
 * `timeoutMs` null the look has no deadline of its own: only each request's timeout ends it.
 */
export async function checkWatchTarget(
	ig: InstagramClient,
	spec: WatchSpec,
	hint: string,
	timeoutMs: number | null = CHECK_TIMEOUT_MS
): Promise<string | undefined> {
	if (spec.kind !== 'account') return undefined
	try {
		const user = await profileOf(ig, spec.target, timeoutMs)
		if (spec.followers && user.is_private && user.pk !== ig.viewerPk)
			return `@${spec.target} is private: its follower list can only be collected while this session's account follows it`
		return undefined
	} catch (error) {
		if (error instanceof IgError && error.kind === 'not_found')
			throw new IgError('not_found', `No Instagram account @${spec.target}: check the spelling, or ${hint}`, {
				cause: error
			})
		const reason = error instanceof Error ? error.message : String(error)
		return `Could not check that @${spec.target} exists (${reason}); added anyway`
	}
}

/**
 * The profile of `username`. Without a deadline, a wait for the client's budget is no failure:
 * a wait longer than the client takes at once (its own `rate_limited`, upstream status 0, sent
 * nothing) is waited out and the look asked again; Instagram's own answers are final.
 */
async function profileOf(ig: InstagramClient, username: string, timeoutMs: number | null): Promise<User> {
	if (timeoutMs !== null) return ig.users.getByUsername(username, { signal: AbortSignal.timeout(timeoutMs) })
	for (;;) {
		try {
			return await ig.users.getByUsername(username)
		} catch (error) {
			const ownBudget =
				error instanceof IgApiError && error.kind === 'rate_limited' && error.upstreamStatus === 0
			if (!ownBudget) throw error
			await sleep((error.retryAfter ?? 1) * 1000)
		}
	}
}
