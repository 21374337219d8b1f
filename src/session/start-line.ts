/**
 * The start-up line of a server about its Instagram account: the servers check the session at
 * start (one light authenticated call, at most 5 s) and say what they found, never a cookie value.
 */
import { terminalLine } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { IgError } from '../client/errors'
import { refusalMessage } from './connect'

/** How long the start-up check waits for Instagram, retries included. */
export const START_CHECK_TIMEOUT_MS = 5000

const RATE_LIMITED = 'rate limited by Instagram'

/** "Instagram: session valid, logged in as @name", what to do when it is not, or `notLoggedIn`. */
export async function describeSession(
	ig: InstagramClient,
	notLoggedIn: string,
	timeoutMs = START_CHECK_TIMEOUT_MS
): Promise<string> {
	if (!ig.loggedIn) return `Instagram: ${notLoggedIn}`
	const deadline = AbortSignal.timeout(timeoutMs)
	const rateLimitHits = ig.stats.snapshot().rate_limit_hits
	try {
		const report = await ig.checkSession({ signal: deadline })
		if (report.session === 'valid')
			return `Instagram: session valid, logged in as @${terminalLine(report.username ?? 'unknown')}`
		return `Instagram: ${refusalMessage(report) ?? `session ${report.session}`}`
	} catch (error) {
		// Instagram rate-limited the check: the line says so when that is the error, and when the
		// deadline hit while the client waited the limit out to ask again (no answer because of it).
		const rateLimited =
			ig.stats.snapshot().rate_limit_hits > rateLimitHits &&
			(deadline.aborted || (error instanceof IgError && error.kind === 'rate_limited'))
		const reason = rateLimited ? RATE_LIMITED : error instanceof IgError ? error.kind : 'no answer'
		return `Instagram: credentials set, session not checked (${reason})`
	}
}
