/**
 * The playground API as the page sees it: every call goes to this page's own origin, carries the
 * access token from the page URL (`?token=`) as `Authorization: Bearer`, sends JSON bodies with
 * `Content-Type: application/json` (the server refuses other POSTs), and comes back as one
 * `ApiResult` whether it succeeded, failed with an envelope, or never reached the server.
 */
import type { ApiGroupName } from '../../../src/client/client'
import { requestHeaders } from '../../common/request'
import { byteLength } from './format'
import { sessionRefused, sessionWorks } from './session-signals'

/** A successful envelope (docs/api-contract.md, "Envelope"); lists may carry `next_cursor`. */
export interface SuccessEnvelope<T = unknown> {
	success: true
	message?: string
	data: T
	next_cursor?: string | null
	timestamp?: number
}

/** What every request resolves to. */
export interface ApiResult<T = unknown> {
	ok: boolean
	/** HTTP status, or 0 when the server could not be reached. */
	status: number
	/** The success envelope when `ok`. */
	envelope?: SuccessEnvelope<T>
	/** Error text and code (the envelope's, or one made up for transport failures). */
	error?: string
	code?: string
	durationMs: number
	sizeBytes: number
	method: string
	path: string
}

/**
 * The client's API groups (`API_GROUPS` of src/client/client.ts). The page cannot import values from
 * src/, so the list is keyed by the client's group type: the compiler rejects a missing, extra or
 * misspelt group.
 */
const GROUP_KEYS: Record<ApiGroupName, true> = {
	users: true,
	media: true,
	feed: true,
	search: true,
	stories: true,
	friendships: true,
	account: true,
	public: true,
	hashtags: true,
	notifications: true,
	direct: true
}

/** The API groups, in the client's order. */
export const API_GROUPS = Object.keys(GROUP_KEYS) as ApiGroupName[]

// The API groups whose successful answers the server keeps as "the last data response" (POST /api/save).
const DATA_PATH = new RegExp(`^/api/(${API_GROUPS.join('|')})(/|\\?|$)`)
/**
 * Header of a "Load more" request: the server then joins the page to the list it continues, so
 * `POST /api/save` writes every record loaded so far (src/playground/result-chain.ts).
 */
const LOAD_MORE_HEADER = 'X-Smkit-Load-More'

/**
 * Header of a request the page makes by itself to keep a panel current (a periodic look, a job it
 * follows): the server leaves it out of its history, where it would push the person's own requests
 * out of the last 50 (src/playground/activity.ts). A person's own request never carries it.
 */
const POLL_HEADER = 'X-Smkit-Poll'

/** The headers of a poll made without `apiRequest` (a job's event stream): the token's, and the poll mark. */
export function pollHeaders(): Record<string, string> {
	return requestHeaders({ extra: { [POLL_HEADER]: '1' } })
}

/** A GET as the server tells requests apart for `POST /api/save`: its path, and whether it was "Load more". */
export interface DataRequest {
	path: string
	loadMore: boolean
}

let lastSuccessfulRequest: DataRequest | null = null

/** Response header with the request's history id: `POST /api/save` names the result to save by it. */
const HISTORY_ID_HEADER = 'X-Smkit-History-Id'

/** The history id of the latest successful answer to each data request this page made. */
const historyIds = new Map<string, number>()

const requestKey = (request: DataRequest) => `${request.loadMore ? 'more' : 'page'} ${request.path}`

/** The history id of the latest successful answer to `request` (undefined when not fetched by this page). */
export function historyIdOf(request: DataRequest): number | undefined {
	return historyIds.get(requestKey(request))
}

/** The last successful data request this page made (what `POST /api/save` would store). */
export function lastRequest(): DataRequest | null {
	return lastSuccessfulRequest
}

/**
 * Whether the server answers, as the page's requests find it: the first request that cannot reach
 * it says so at once (the shell shows the banner), without waiting for the next status poll; the
 * first answer after that says it is back.
 */
const reachListeners = new Set<(reachable: boolean, error: string) => void>()
let unreachable = false

/**
 * Calls `listener(false, error)` on every request that cannot reach the server, and
 * `listener(true, '')` once when a request gets an answer again after that.
 */
export function onReachability(listener: (reachable: boolean, error: string) => void): void {
	reachListeners.add(listener)
}

/** Tells the listeners whether a request reached the server (only changes are told). */
export function reached(reachable: boolean, error = ''): void {
	if (reachable && !unreachable) return
	unreachable = !reachable
	for (const listener of reachListeners) listener(reachable, error)
}

/** The access-token header for requests made without `apiRequest` (streams, downloads). */
export function authHeaders(): Record<string, string> {
	return requestHeaders()
}

/** Fills `{name}` placeholders (URL-encoded) and appends the non-empty query values (URL-encoded). */
export function buildPath(
	template: string,
	pathValues: Record<string, string>,
	query: Record<string, string | undefined> = {}
): string {
	const path = template.replace(/\{(\w+)\}/g, (_match, name: string) =>
		encodeURIComponent(pathValues[name] ?? '')
	)
	const search = new URLSearchParams()
	for (const [name, value] of Object.entries(query)) {
		if (value !== undefined && value !== '') search.set(name, value)
	}
	const text = search.toString()
	return text ? `${path}?${text}` : path
}

/** The same path with `cursor` set (for "Load more"). */
export function withCursor(path: string, cursor: string): string {
	return withQuery(path, { cursor })
}

/** The same path with the given query values set (replacing values of the same name). */
export function withQuery(path: string, values: Record<string, string>): string {
	const url = new URL(path, window.location.origin)
	for (const [name, value] of Object.entries(values)) url.searchParams.set(name, value)
	return url.pathname + url.search
}

/** How a request is sent: `loadMore` asks for the next page of the list on screen, `poll` marks a poll. */
export interface RequestOptions {
	loadMore?: boolean
	poll?: boolean
}

/** Sends a request and reads the envelope; never throws. */
export async function apiRequest<T = unknown>(
	method: string,
	path: string,
	body?: unknown,
	options: RequestOptions = {}
): Promise<ApiResult<T>> {
	const started = performance.now()
	const base = { method, path }
	const loadMore = options.loadMore === true
	let response: Response
	try {
		response = await fetch(path, {
			method,
			headers: requestHeaders({
				json: body !== undefined,
				extra: {
					...(loadMore ? { [LOAD_MORE_HEADER]: '1' } : {}),
					...(options.poll ? { [POLL_HEADER]: '1' } : {})
				}
			}),
			body: body === undefined ? undefined : JSON.stringify(body),
			credentials: 'same-origin',
			cache: 'no-store'
		})
	} catch (error) {
		const message = `The playground server did not answer (${error instanceof Error ? error.message : String(error)}).`
		reached(false, message)
		return {
			...base,
			ok: false,
			status: 0,
			error: message,
			code: 'network_error',
			durationMs: performance.now() - started,
			sizeBytes: 0
		}
	}
	reached(true)
	const text = await response.text().catch(() => '')
	const durationMs = performance.now() - started
	const sizeBytes = byteLength(text)
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		parsed = undefined
	}
	const envelope = parsed as Record<string, unknown> | undefined
	if (response.ok && envelope && envelope.success === true) {
		if (method === 'GET' && DATA_PATH.test(path)) {
			lastSuccessfulRequest = { path, loadMore }
			const historyId = Number(response.headers.get(HISTORY_ID_HEADER))
			if (Number.isInteger(historyId) && historyId > 0)
				historyIds.set(requestKey(lastSuccessfulRequest), historyId)
		}
		// Answered, but Instagram ended the session with this answer (the server says so in a header).
		const session = response.headers.get('x-smkit-session')
		if (session === 'expired' || session === 'challenge') {
			sessionRefused(`${session === 'expired' ? 'login' : 'challenge'}_required`)
		} else if (DATA_PATH.test(path) && 'data' in envelope && !options.poll) sessionWorks()
		return {
			...base,
			ok: true,
			status: response.status,
			envelope: envelope as unknown as SuccessEnvelope<T>,
			durationMs,
			sizeBytes
		}
	}
	const error =
		envelope && typeof envelope.error === 'string' && envelope.error !== ''
			? envelope.error
			: `Unexpected answer from the server (HTTP ${response.status}).`
	const code = envelope && typeof envelope.code === 'string' ? envelope.code : 'bad_response'
	if (code === 'login_required' || code === 'challenge_required') {
		sessionRefused(code)
	}
	return { ...base, ok: false, status: response.status, error, code, durationMs, sizeBytes }
}

/** GET shorthand (`options`: see RequestOptions). */
export function apiGet<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
	return apiRequest<T>('GET', path, undefined, options)
}
