/**
 * How a job's run ends or waits, by error: what pauses it until the user acts, what it waits out
 * and tries again, and what stops it because another process decided (see run.ts).
 */
import { isAbsolute, relative } from 'node:path'
import { IgApiError, IgError } from '../client/errors'
import { DownloadError } from './downloads'
import type { JobStatus } from './types'

/** Every attempt in a row could not connect to the proxy (or proxies) named: the job pauses. */
export class ProxyUnreachableError extends Error {
	override name = 'ProxyUnreachableError'
	constructor(hosts: readonly string[]) {
		const named = hosts.length === 1 ? `the proxy ${hosts[0]}` : `the proxies ${hosts.join(', ')}`
		super(
			`Could not connect to ${named}, attempt after attempt (connection refused or host unreachable): check that it runs and its address, then resume the job`
		)
	}
}

/** Another process runs the job already. */
export class JobBusyError extends Error {
	override name = 'JobBusyError'
}

/** The job collects from the other Instagram (demo or real) than the process: it is not run. */
export class JobWorldError extends Error {
	override name = 'JobWorldError'
}

/** Paused, cancelled or deleted by another process on the same store while this one waited. */
export class StoppedElsewhere extends Error {}

/** While a job has one of these statuses, its runner may set it waiting. */
export const ACTIVE: readonly JobStatus[] = ['running', 'waiting']

/** Errors that stop the job until the user acts; the message says what to do. */
export const PAUSING: Record<string, string> = {
	login_required:
		"Instagram asks to log in again: connect the account again (smkit login --cookies cookies.txt, or the playground's Connect account), then resume the job",
	challenge_required:
		'Instagram asks for a security check: open instagram.com in the browser of this session, complete it, then resume the job'
}

/**
 * Errors after which the same request may succeed later: rate limits, time-outs and Instagram's
 * failures, but not Instagram refusing the request itself (an `upstream_error` from a 4xx other
 * than 429), which it would refuse again attempt after attempt.
 */
export function isTransient(error: unknown): boolean {
	if (error instanceof DownloadError) return true
	if (!(error instanceof IgError)) return false
	if (error.kind === 'upstream_error' && error instanceof IgApiError) return !refusedByInstagram(error)
	return error.kind === 'rate_limited' || error.kind === 'upstream_error' || error.kind === 'upstream_timeout'
}

/** An upstream 4xx answer other than a rate limit (429). */
function refusedByInstagram(error: IgApiError): boolean {
	return error.upstreamStatus >= 400 && error.upstreamStatus < 500 && error.upstreamStatus !== 429
}

/** An error's message, for the job's status line: shown by the API, so without server paths. */
export function describe(error: unknown): string {
	return withoutServerPaths(error instanceof Error ? error.message : String(error))
}

/**
 * Absolute paths in a message (a file system error's `mkdir '/srv/data/downloads/x'`) written
 * relative to the working directory when they are inside it, else as their last two parts
 * (`.../downloads/x`): enough to find the file, not the layout of the server.
 */
export function withoutServerPaths(message: string): string {
	return message.replace(
		/(['"])(\/[^'"]*)\1/g,
		(_match, quote: string, path: string) => `${quote}${shownPath(path)}${quote}`
	)
}

/** An absolute path as a message may show it: relative to the working directory, else `.../last/two`. */
export function shownPath(path: string): string {
	if (!isAbsolute(path)) return path
	const inside = relative(process.cwd(), path)
	return inside && !inside.startsWith('..') && !isAbsolute(inside)
		? inside
		: `.../${path.split('/').filter(Boolean).slice(-2).join('/')}`
}
