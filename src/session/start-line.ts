/**
 * The start-up line of a server about its Instagram account: the servers check the session at
 * start (one light authenticated call, at most 5 s) and say what they found, never a cookie value.
 */
import { terminalLine } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { IgError } from '../client/errors'
import { refusalMessage } from './connect'

/** "Instagram: session valid, logged in as @name", what to do when it is not, or `notLoggedIn`. */
export async function describeSession(ig: InstagramClient, notLoggedIn: string): Promise<string> {
	if (!ig.loggedIn) return `Instagram: ${notLoggedIn}`
	try {
		const report = await ig.checkSession({ signal: AbortSignal.timeout(5000) })
		if (report.session === 'valid')
			return `Instagram: session valid, logged in as @${terminalLine(report.username ?? 'unknown')}`
		return `Instagram: ${refusalMessage(report) ?? `session ${report.session}`}`
	} catch (error) {
		const reason = error instanceof IgError ? error.kind : 'no answer'
		return `Instagram: credentials set, session not checked (${reason})`
	}
}
