/**
 * The look before a watch is added: does the account exist? A typed-wrong username would otherwise
 * be accepted and then fail every run, unnoticed until someone reads the watch list.
 *
 * - Instagram says there is no such account: the watch is refused (`not_found`).
 * - Any other failure (no session, a rate limit, Instagram unreachable, the check's own deadline):
 *   the watch is added with a warning. The check is a courtesy; the runs report their own failures.
 * - A private account watched with its follower list: added, with a warning that the list can only
 *   be read while the session's account follows it.
 * - Hashtags are not looked up: one nobody has used yet is a fair thing to watch (a campaign's).
 *
 *   const warning = await checkWatchTarget(ig, spec, 'add it with --skip-check')
 */
import type { InstagramClient } from '../client/client'
import { IgError } from '../client/errors'
import type { WatchSpec } from './types'

/** How long the look may take, retries included, before the watch is added unchecked. */
export const CHECK_TIMEOUT_MS = 15_000

/**
 * Looks the account of `spec` up. Throws `IgError('not_found')` (its message ends with `hint`, how
 * to add it anyway) when Instagram has no such account; returns a warning to show when the account
 * could not be looked up or its follower list will not be readable, otherwise undefined.
 */
export async function checkWatchTarget(
	ig: InstagramClient,
	spec: WatchSpec,
	hint: string,
	timeoutMs = CHECK_TIMEOUT_MS
): Promise<string | undefined> {
	if (spec.kind !== 'account') return undefined
	try {
		const user = await ig.users.getByUsername(spec.target, { signal: AbortSignal.timeout(timeoutMs) })
		if (spec.followers && user.is_private)
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
