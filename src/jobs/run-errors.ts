/**
 * How a job's run ends or waits, by error: what pauses it until the user acts, what it waits out
 * and tries again, what fails it because the list stopped leading anywhere, and what stops it
 * because another process decided (see run.ts).
 */
import { isAbsolute, relative } from 'node:path'
import { IgApiError, IgError } from '../client/errors'
import { unreachableProxyOf } from '../client/fetch-failure'
import { STALE_PAGES, type StallReason } from '../client/pagination'
import { isSqliteError, type Store, storeHint } from '../store/db'
import { storeFileChanged } from '../store/file-identity'
import { DownloadError } from './downloads'
import { counted } from './progress'
import type { JobStatus } from './types'

/**
 * How many times a page whose cursor came back again (`ListStalledError`) is asked for again, with
 * the job's usual back-off, before the job fails: in practice such an answer is a passing fault.
 */
export const STALL_RETRIES = 3

/**
 * Instagram's pages stopped leading anywhere new: a cursor it gave again, attempt after attempt, or
 * `STALE_PAGES` pages in a row without a new record. The job fails, never `done` on a partial list;
 * it keeps its records and cursor, so running it again continues (see `stoppedEarly`).
 */
export class ListStopped extends Error {
	override name = 'ListStopped'
	constructor(readonly reason: StallReason) {
		super(reason)
	}
}

/** The failed job's message: what Instagram did, after how many records, and what to do. */
export function stoppedEarly(reason: StallReason, collected: number): string {
	const what =
		reason === 'repeated_cursor'
			? 'Instagram gave the same cursor again'
			: `Instagram gave ${STALE_PAGES} pages in a row without a new record`
	return `${what} after ${counted(collected, 'record')}: the list stopped early; run again to continue`
}

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

/**
 * Attempts in a row that could not connect to a proxy (refused, unknown host, unreachable): at
 * `max` of them, `ProxyUnreachableError` naming the proxies, since such a proxy will not start
 * accepting connections by itself. Any other failure, or a success, ends the run of them.
 */
export class ProxyRefusals {
	readonly #proxies = new Set<string>()
	#inARow = 0
	constructor(private readonly max: number) {}

	/** An attempt failed with `error` (an aborted one says nothing about the proxy). */
	failed(error: unknown, aborted: boolean): void {
		if (aborted) return
		const proxy = unreachableProxyOf(error)
		if (!proxy) {
			this.succeeded()
			return
		}
		this.#proxies.add(proxy)
		if (++this.#inARow >= this.max) throw new ProxyUnreachableError([...this.#proxies])
	}

	/** An attempt got through. */
	succeeded(): void {
		this.#inARow = 0
		this.#proxies.clear()
	}
}

/**
 * The wait before attempt `attempt + 1`: `firstMs` doubling per attempt up to `maxMs`, with a
 * jitter of 0.8-1.2, and never shorter than the Retry-After Instagram sent.
 */
export function backoffWait(error: unknown, attempt: number, firstMs: number, maxMs: number): number {
	const retryAfter = error instanceof IgError ? (error as { retryAfter?: number }).retryAfter : undefined
	const step = Math.min(firstMs * 2 ** attempt, maxMs) * (0.8 + 0.4 * Math.random())
	return Math.round(Math.max(step, (retryAfter ?? 0) * 1000))
}

/** Another process runs the job already. */
export class JobBusyError extends Error {
	override name = 'JobBusyError'
}

/** The job collects from the other Instagram (demo or real) than the process: it is not run. */
export class JobWorldError extends Error {
	override name = 'JobWorldError'
}

/**
 * The store's file was deleted (alone or with its folder) or replaced while the job ran: what this
 * process stored since went into a file nobody can open again (src/store/file-identity.ts). The job
 * fails saying so; a server (playground, MCP) keeps the lost file open until it is restarted.
 */
export class StoreFileLost extends Error {
	override name = 'StoreFileLost'
	constructor(path: string, owner: string) {
		const server = owner === 'playground' || owner === 'mcp'
		super(
			`the store file ${shownPath(path)} was deleted or replaced while the job ran: its records are lost; run again${server ? ` (restart ${owner === 'mcp' ? 'the MCP server' : 'the playground'} first: it keeps writing to the file it opened)` : ''}`
		)
	}
}

/** `StoreFileLost` when the store's file is no longer the one this process opened, else undefined. */
export function lostStore(store: Store, owner: string): StoreFileLost | undefined {
	return storeFileChanged(store) ? new StoreFileLost(store.path, owner) : undefined
}

/** How a job stopped by an error of its store continues once the file is fixed. */
const AGAIN_AFTER_STORE_ERROR = 'resume the job or run it again: it continues from its last stored page'

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

/**
 * How a run that stopped on `error` (not aborted) ends: paused until the user acts (a session to
 * connect again or confirm, a proxy that refuses connections), or failed, with the message and
 * code the job shows. `collected`: the records stored, which a list that stopped early names.
 */
export function endingOf(
	error: unknown,
	collected: () => number
): { status: JobStatus; message: string; code: string } {
	const kind = error instanceof IgError ? error.kind : null
	// Without credentials nothing was asked of Instagram: the client's own message says what to do.
	if (error instanceof IgApiError && error.kind === 'login_required' && error.upstreamStatus === 0)
		return { status: 'paused', message: `${describe(error)}; then resume the job`, code: error.kind }
	if (kind && PAUSING[kind])
		return { status: 'paused', message: `${PAUSING[kind]} (${describe(error)})`, code: kind }
	if (error instanceof ProxyUnreachableError)
		return { status: 'paused', message: error.message, code: 'upstream_error' }
	if (error instanceof ListStopped)
		return { status: 'failed', message: stoppedEarly(error.reason, collected()), code: 'upstream_error' }
	if (error instanceof StoreFileLost)
		return { status: 'failed', message: error.message, code: 'internal_error' }
	// The store's own trouble (a full disk, a read-only or damaged file) says what to do, as
	// everywhere else the store fails (`storeError`); the pages stored stay for the next run.
	const hint = isSqliteError(error) ? storeHint(error, AGAIN_AFTER_STORE_ERROR) : undefined
	if (hint)
		return {
			status: 'failed',
			message: `The store failed: ${describe(error)} (${hint})`,
			code: 'internal_error'
		}
	return { status: 'failed', message: describe(error), code: kind ?? 'internal_error' }
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
