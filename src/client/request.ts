/**
 * The shared transport: every upstream request of the client goes through `Transport.send`.
 *
 * - Authenticated requests carry Instagram's browser headers and fixed-order cookies, never follow
 *   redirects (a 3xx to the login page means the session is gone), add `jazoest` to POST forms, and
 *   absorb `Set-Cookie` / `x-ig-set-www-claim` updates. The first one is preceded by the warm-up.
 * - Anonymous requests (the public group) never carry a cookie, follow redirects and use the web or
 *   mobile app id; the mobile host is `https://i.instagram.com` unless `baseURL` was replaced.
 * - Each attempt passes the rate limiter, has its own timeout, is counted in the stats and is
 *   classified by `classifyResponse`; retryable failures are repeated within `maxRetryWait`.
 */
import { classifyResponse } from './classify'
import { IgApiError, IgNetworkError, IgTimeoutError } from './errors'
import {
	type AnonymousProfile,
	anonymousHeaders,
	authenticatedHeaders,
	jazoest,
	type Session
} from './headers'
import { type RateLimiter, sleep } from './rate-limit'
import { backoffDelay, isRetryable, retryAfterOf } from './retry'
import type { ClientStats } from './stats'

/** Instagram's real origin; any other `baseURL` (simulator, fake upstream) also replaces the mobile host. */
export const INSTAGRAM_ORIGIN = 'https://www.instagram.com'
const MOBILE_ORIGIN = 'https://i.instagram.com'
const WARM_UP_PATH = '/api/v1/web/fxcal/ig_sso_users/'

type Scalar = string | number | boolean | null | undefined

/** One logical upstream call. */
export interface RequestSpec {
	method: 'GET' | 'POST'
	/** Path on the origin, e.g. `/api/v1/media/123/info/`. */
	path: string
	/** The same path with placeholders, for statistics, e.g. `/api/v1/media/{pk}/info/`. */
	template: string
	query?: Record<string, Scalar>
	/** Form fields of a POST (sent form-urlencoded). */
	form?: Record<string, Scalar>
	/** Rate-limit category (upstream-facts 1.5; `public_*` for anonymous calls). */
	category: string
	/** `json` (default) or `text` (HTML pages). */
	expect?: 'json' | 'text'
	/** May be repeated after 5xx/network errors. Defaults to true for GET, false for POST. */
	idempotent?: boolean
	/** Anonymous requests only: which header profile and host. */
	anonymous?: AnonymousProfile
	signal?: AbortSignal
}

/** The subset of `fetch` the transport uses (lets tests inject a plain function). */
export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>

/** Transport settings resolved from `ClientOptions`. */
export interface TransportSettings {
	baseURL: string
	fetch: FetchLike
	timeout: number
	maxRetries: number
	maxRetryWait: number
	retryBaseDelayMs: number
	delays: boolean
	limiter: RateLimiter
	stats: ClientStats
}

/** Names the three variables and demo mode; thrown before any request when credentials are missing. */
export const MISSING_CREDENTIALS_MESSAGE =
	'Not logged in: set SESSION_ID, CSRF_TOKEN and DS_USER_ID in the environment file, or start with --demo to use demo data'

/** Cookie names Instagram may update, mapped to session fields. */
const COOKIE_FIELDS: Record<string, keyof Session> = {
	csrftoken: 'csrfToken',
	sessionid: 'sessionId',
	mid: 'mid',
	ds_user_id: 'dsUserId',
	ig_did: 'igDid',
	datr: 'datr',
	rur: 'rur'
}

const randomBetween = (low: number, high: number) => low + Math.random() * (high - low)

/** Sends requests for one client: session state, retries, limits, stats. */
export class Transport {
	readonly #settings: TransportSettings
	readonly #session: Session | undefined
	readonly #origin: string
	#warmUp: Promise<void> | undefined
	#rotation = 0

	constructor(settings: TransportSettings, session?: Session) {
		this.#settings = settings
		this.#session = session ? { ...session } : undefined
		this.#origin = settings.baseURL.replace(/\/+$/, '')
	}

	/** True when credentials are present (whether Instagram still accepts them is another matter). */
	get loggedIn(): boolean {
		return this.#session !== undefined
	}

	/** The viewer's own pk (`DS_USER_ID`), or undefined without credentials. */
	get viewerPk(): string | undefined {
		return this.#session?.dsUserId
	}

	/** Sends one logical request with retries; resolves to the parsed JSON (or text for `expect: 'text'`). */
	async send(spec: RequestSpec): Promise<unknown> {
		if (!spec.anonymous) {
			if (!this.#session)
				throw new IgApiError('login_required', MISSING_CREDENTIALS_MESSAGE, {
					upstreamStatus: 0,
					endpoint: `${spec.method} ${spec.path}`
				})
			this.#warmUp ??= this.#runWarmUp()
			await this.#warmUp
		}
		const settings = this.#settings
		const idempotent = spec.idempotent ?? spec.method === 'GET'
		const label = `${spec.method} ${spec.path}`
		let waited = 0
		for (let attempt = 0; ; attempt++) {
			if (settings.delays)
				await sleep(spec.anonymous ? randomBetween(1500, 4000) : randomBetween(500, 2000), spec.signal)
			if ((await settings.limiter.acquire(spec.category, label, spec.signal)) > 0)
				settings.stats.recordThrottle()
			try {
				return await this.#attempt(spec)
			} catch (error) {
				if (attempt >= settings.maxRetries || !isRetryable(error, idempotent)) throw error
				const delay = backoffDelay(attempt, settings.retryBaseDelayMs, retryAfterOf(error))
				// Out of waiting budget: the caller gets this error, with Instagram's Retry-After on it.
				if (waited + delay > settings.maxRetryWait) throw error
				waited += delay
				settings.stats.recordRetry()
				await sleep(settings.delays ? delay + randomBetween(3000, 8000) : delay, spec.signal)
			}
		}
	}

	/** One HTTP exchange: build, send with a timeout, read, update the session, classify, count. */
	async #attempt(spec: RequestSpec): Promise<unknown> {
		const settings = this.#settings
		const url = new URL(spec.path, this.#originFor(spec))
		for (const [name, value] of Object.entries(spec.query ?? {}))
			if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
		const headers = spec.anonymous
			? anonymousHeaders(spec.anonymous, this.#origin, this.#rotation++)
			: authenticatedHeaders(this.#session as Session, this.#origin)
		let body: string | undefined
		if (spec.method === 'POST') {
			const form = new URLSearchParams()
			for (const [name, value] of Object.entries(spec.form ?? {}))
				if (value !== undefined && value !== null) form.set(name, String(value))
			if (!spec.anonymous) form.set('jazoest', jazoest((this.#session as Session).csrfToken))
			body = form.toString()
			headers['content-type'] = 'application/x-www-form-urlencoded'
		}
		const timeoutSignal = AbortSignal.timeout(settings.timeout)
		const signal = spec.signal ? AbortSignal.any([timeoutSignal, spec.signal]) : timeoutSignal
		const statsKey = `${spec.method} ${spec.template}`
		const started = performance.now()
		let response: Response
		let text: string
		try {
			response = await settings.fetch(url, {
				method: spec.method,
				headers,
				body,
				signal,
				redirect: spec.anonymous ? 'follow' : 'manual'
			})
			text = await response.text()
		} catch (error) {
			const failure = this.#transportError(error, spec, timeoutSignal.aborted)
			settings.stats.recordRequest(statsKey, performance.now() - started, failure?.kind)
			throw failure ?? error
		}
		if (!spec.anonymous) this.#absorbSessionUpdates(response.headers)
		const result = classifyResponse(
			{ status: response.status, headers: response.headers, text },
			{ method: spec.method, endpoint: spec.path, expect: spec.expect, secrets: this.#secrets() }
		)
		const errorKind = result.ok ? undefined : result.error.kind
		settings.stats.recordRequest(
			statsKey,
			performance.now() - started,
			errorKind,
			errorKind === 'rate_limited'
		)
		if (!result.ok) throw result.error
		return result.data
	}

	/** Wraps a fetch failure; undefined when the caller aborted (their reason propagates unchanged). */
	#transportError(
		error: unknown,
		spec: RequestSpec,
		timedOut: boolean
	): IgNetworkError | IgTimeoutError | undefined {
		const endpoint = `${spec.method} ${spec.path}`
		if (timedOut)
			return new IgTimeoutError(
				`Instagram did not answer within ${this.#settings.timeout} ms (${endpoint})`,
				{
					endpoint,
					cause: error
				}
			)
		if (spec.signal?.aborted) return undefined
		const reason = error instanceof Error ? error.message : String(error)
		return new IgNetworkError(`Could not reach Instagram (${endpoint}): ${this.#redact(reason)}`, {
			endpoint,
			cause: error
		})
	}

	#originFor(spec: RequestSpec): string {
		if (spec.anonymous === 'mobile' && this.#origin === INSTAGRAM_ORIGIN) return MOBILE_ORIGIN
		return this.#origin
	}

	/** Applies `Set-Cookie` and `x-ig-set-www-claim` from a response to the session (upstream-facts 1.3). */
	#absorbSessionUpdates(headers: Headers): void {
		const session = this.#session as Session
		for (const cookie of headers.getSetCookie()) {
			const [pair = ''] = cookie.split(';')
			const separator = pair.indexOf('=')
			const field = COOKIE_FIELDS[pair.slice(0, separator).trim()]
			const value = pair
				.slice(separator + 1)
				.trim()
				.replace(/^"|"$/g, '')
			// An emptied or "delete" cookie is Instagram logging the session out; keep what we have.
			if (field && separator > 0 && value && value !== 'delete' && value !== '""') session[field] = value
		}
		const claim = headers.get('x-ig-set-www-claim')
		if (claim) session.igWwwClaim = claim
	}

	/** The first authenticated request per client: captures the www-claim and server revision; errors ignored. */
	async #runWarmUp(): Promise<void> {
		try {
			const text = await this.#attempt({
				method: 'GET',
				path: WARM_UP_PATH,
				template: WARM_UP_PATH,
				category: 'get_default',
				expect: 'text'
			})
			const revision = /"server_revision":\s*(\d+)/.exec(String(text))?.[1]
			if (revision) (this.#session as Session).ajaxRevision = revision
		} catch {
			// Instagram works without the warm-up values; the defaults stay in place.
		}
	}

	/** Every credential value that must never reach a message (the viewer pk is public, so allowed). */
	#secrets(): string[] {
		const session = this.#session
		if (!session) return []
		return [
			session.sessionId,
			session.csrfToken,
			session.mid,
			session.igDid,
			session.datr,
			session.rur
		].filter((value): value is string => Boolean(value))
	}

	#redact(text: string): string {
		let result = text
		for (const secret of this.#secrets())
			if (secret.length >= 4) result = result.split(secret).join('[redacted]')
		return result
	}
}
