/**
 * What the playground remembers about its own traffic: request counters, the last 50 requests
 * (docs/api-contract.md, "System endpoints") and the last successful data response, which `POST /api/save` writes to disk. Fed from the
 * app's `onAfterHandle`/`onError` hooks, never from handlers, so no route can forget to count.
 */

import { urlOf } from '../server/request-url'
import { type KeptResult, ResultChains } from './result-chain'

/** One request-history entry (docs/api-contract.md, "System endpoints"). */
export interface HistoryEntry {
	id: number
	method: string
	/** Path with query string; a `token` query parameter is removed. */
	path: string
	status: number
	success: boolean
	duration_ms: number
	/** ISO 8601 time the request arrived. */
	timestamp: string
	message?: string
	error?: string
}

/** The last successful data response and the request line that produced it. */
export type LastResult = KeptResult

/** Most recent entries kept (docs/api-contract.md, "Limits"). */
export const HISTORY_LIMIT = 50

/** Response header naming a tracked request's history id (what `POST /api/save {history_id}` takes). */
export const HISTORY_ID_HEADER = 'x-smkit-history-id'

/** Polled by the UI every few seconds: neither counted nor recorded (docs/api-contract.md, "System endpoints"). */
export const POLLING_PATHS: ReadonlySet<string> = new Set([
	'/api/status',
	'/api/history',
	'/api/dashboard',
	'/api/ai/history'
])

/**
 * Request header marking a request the page makes by itself to keep a panel current (the Jobs
 * panel's periodic look, a job's progress it follows): neither counted nor recorded, so it never
 * pushes a person's requests out of the last 50. The same request without it is recorded.
 */
export const POLL_HEADER = 'x-smkit-poll'

/** Path plus query as shown in history and save files, with any `token` parameter dropped. */
export function displayPath(url: URL): string {
	// `url.searchParams` builds a parameter list; most queries cannot name `token` at all (not even
	// percent-encoded, as `%74oken`).
	const search = url.search
	const mayNameToken = search.includes('token') || search.includes('%')
	if (!mayNameToken || !url.searchParams.has('token')) return url.pathname + search
	const query = new URLSearchParams(search)
	query.delete('token')
	const rest = query.toString()
	return rest === '' ? url.pathname : `${url.pathname}?${rest}`
}

/** Counters, history and the last result of one playground app. */
export class PlaygroundActivity {
	totalRequests = 0
	totalErrors = 0
	lastResult: LastResult | undefined
	/** Joins "Load more" pages into the result they continue (see result-chain.ts). */
	readonly chains = new ResultChains()
	private readonly history: HistoryEntry[] = []
	/** Data results of the last requests by history id, oldest first. */
	private readonly results = new Map<number, LastResult>()
	/** The result kept last, until its envelope is serialised (right after, for the same request). */
	private awaitingText: LastResult | undefined
	private readonly startedAt = new WeakMap<Request, { clock: number; time: number }>()
	private nextId = 1

	/** Notes when a request arrived (called from `onRequest`). */
	begin(request: Request): void {
		this.startedAt.set(request, { clock: performance.now(), time: Date.now() })
	}

	/** Whether a request path is tracked: everything under /api/ except the polling endpoints. */
	tracks(pathname: string): boolean {
		return pathname.startsWith('/api/') && !POLLING_PATHS.has(pathname)
	}

	/** Records a finished request; returns the entry (undefined when its path is not tracked, or it is a poll). */
	finish(
		request: Request,
		outcome: { status: number; success: boolean; message?: string; error?: string }
	): HistoryEntry | undefined {
		const url = urlOf(request)
		if (!this.tracks(url.pathname) || request.headers.has(POLL_HEADER)) return undefined
		const started = this.startedAt.get(request) ?? { clock: performance.now(), time: Date.now() }
		this.totalRequests++
		if (!outcome.success) this.totalErrors++
		const entry: HistoryEntry = {
			id: this.nextId++,
			method: request.method,
			path: displayPath(url),
			status: outcome.status,
			success: outcome.success,
			duration_ms: Math.round((performance.now() - started.clock) * 100) / 100,
			timestamp: new Date(started.time).toISOString(),
			...(outcome.success ? { message: outcome.message ?? '' } : { error: outcome.error ?? '' })
		}
		this.history.unshift(entry)
		if (this.history.length > HISTORY_LIMIT) this.history.length = HISTORY_LIMIT
		return entry
	}

	/** Keeps a data request's result under its history id; it is also the last result. */
	keepResult(id: number, result: LastResult): void {
		this.lastResult = result
		this.awaitingText = result
		this.results.set(id, result)
		// Kept while its request is in the history: a result whose entry left it is forgotten.
		const oldestShown = this.history.at(-1)?.id ?? id
		for (const kept of this.results.keys()) {
			if (kept >= oldestShown && this.results.size <= HISTORY_LIMIT) break
			this.results.delete(kept)
		}
	}

	/** A response's envelope was serialised as `text`: a result keeping that envelope keeps the text instead. */
	serialised(envelope: object, text: string): void {
		const kept = this.awaitingText
		if (kept === undefined || kept.envelope !== envelope) return
		kept.serialised(text)
		this.awaitingText = undefined
	}

	/** The result of the data request with this history id, while it is among the last 50. */
	resultOf(id: number): LastResult | undefined {
		// Among the last 50 requests of any kind, as the history shows them, not the last 50 results.
		const oldestShown = this.history.at(-1)?.id
		if (oldestShown !== undefined && id < oldestShown) return undefined
		return this.results.get(id)
	}

	/** The last 50 entries, newest first (a copy). */
	entries(): HistoryEntry[] {
		return [...this.history]
	}
}
