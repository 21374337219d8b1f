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
 * - Every authenticated answer tells the session health (`session-health.ts`) what Instagram
 *   thinks of the session. With proxies, each attempt goes through one (`proxy.ts`); a proxy
 *   that cannot connect is reported and the attempt moves on to the next one at once.
 */
import { classifyResponse } from './classify'
import { IgApiError } from './errors'
import { fetchFailure, mayFailOver } from './fetch-failure'
import {
	type AnonymousProfile,
	absorbSessionUpdates,
	formBody,
	RequestHeaders,
	type Session,
	sessionSecrets,
	withFormContentType
} from './headers'
import { DIRECT, type ProxyEntry, type ProxyPool, proxyAuthenticationFailure } from './proxy'
import { type RateLimiter, sleep, untilAborted } from './rate-limit'
import { redactSecrets } from './redact'
import { readUpstreamText } from './response-body'
import { backoffDelay, isRetryable, retryAfterOf } from './retry'
import { retriesAllowed } from './retry-scope'
import type { SessionHealth } from './session-health'
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
	/** Rate-limit category (docs/instagram.md, "Rate limits"; `public_*` for anonymous calls). */
	category: string
	/** `json` (default) or `text` (HTML pages). */
	expect?: 'json' | 'text'
	/** May be repeated after 5xx/network errors. Defaults to true for GET, false for POST. */
	idempotent?: boolean
	/** Anonymous requests only: which header profile and host. */
	anonymous?: AnonymousProfile
	signal?: AbortSignal
}

/** The subset of `fetch` the transport uses (lets tests inject a plain function); `proxy` is Bun's option. */
export type FetchLike = (input: URL, init: RequestInit & { proxy?: string }) => Promise<Response>

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
	health: SessionHealth
	/** Proxies every request goes through (none: direct). */
	proxies?: ProxyPool
}

/** Names the three variables and demo mode; thrown before any request when credentials are missing. */
export const MISSING_CREDENTIALS_MESSAGE =
	'Not logged in: connect an account with smkit login --cookies cookies.txt (or set SESSION_ID, CSRF_TOKEN and DS_USER_ID in the environment file), or start with --demo to use demo data'

const randomBetween = (low: number, high: number) => low + Math.random() * (high - low)

/** Sends requests for one client: session state, retries, limits, stats. */
export class Transport {
	readonly #settings: TransportSettings
	#session: Session | undefined
	readonly #origin: string
	#warmUp: Promise<void> | undefined
	#warmedUp = false
	readonly #headers: RequestHeaders
	/** For error messages only: the secrets are listed when an answer is a failure. */
	readonly #listSecrets = () => this.#secrets()
	/** Every secret value a session here has held: one rotated away is still in the .env file, still secret. */
	readonly #heldSecrets = new Set<string>()

	constructor(settings: TransportSettings, session?: Session) {
		this.#settings = settings
		this.#session = session ? { ...session } : undefined
		this.#origin = settings.baseURL.replace(/\/+$/, '')
		this.#headers = new RequestHeaders(this.#origin)
		this.#sessionChanged()
	}

	/** True when credentials are present (whether Instagram still accepts them is another matter). */
	get loggedIn(): boolean {
		return this.#session !== undefined
	}

	/** The viewer's own pk (`DS_USER_ID`), or undefined without credentials. */
	get viewerPk(): string | undefined {
		return this.#session?.dsUserId
	}

	/** A copy of the session as it stands: Instagram's updates (Set-Cookie) applied; undefined without one. */
	currentSession(): Session | undefined {
		return this.#session ? { ...this.#session } : undefined
	}

	/** Replaces the session (a new login, or none after a logout); the next request warms up again. */
	useSession(session: Session | undefined): void {
		this.#session = session ? { ...session } : undefined
		this.#sessionChanged()
		this.#warmUp = undefined
		this.#warmedUp = false
		this.#settings.health.reset(session !== undefined)
	}

	/** Sends one logical request with retries; resolves to the parsed JSON (or text for `expect: 'text'`). */
	async send(spec: RequestSpec): Promise<unknown> {
		if (!spec.anonymous) {
			if (!this.#session)
				throw new IgApiError('login_required', MISSING_CREDENTIALS_MESSAGE, {
					upstreamStatus: 0,
					endpoint: `${spec.method} ${spec.path}`
				})
			// Awaited only until it has run: every later request would pay for a settled promise.
			if (!this.#warmedUp) {
				const warmUp = this.#warmUp ?? this.#runWarmUp()
				this.#warmUp = warmUp
				// Shared by the first requests: a caller that gives up (a paused job) stops waiting for it.
				await untilAborted(warmUp, spec.signal)
				// Unless the session was replaced meanwhile (its own warm-up is still to come).
				if (this.#warmUp === warmUp) this.#warmedUp = true
			}
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
				const { data, sessionEnded } = await this.#attempt(spec)
				// Answered, but with the session cookie emptied: Instagram no longer accepts the session.
				if (!spec.anonymous) sessionEnded ? settings.health.recordEnded() : settings.health.recordSuccess()
				return data
			} catch (error) {
				// Local decisions (status 0: no credentials, own budget) say nothing about the session,
				// nor does an answer to a request that sent none (marked for the messages).
				if (error instanceof IgApiError && error.upstreamStatus !== 0)
					if (spec.anonymous) error.anonymous = true
					else settings.health.recordFailure(error.kind)
				if (attempt >= retriesAllowed(settings.maxRetries) || !isRetryable(error, idempotent)) throw error
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
	async #attempt(spec: RequestSpec): Promise<{ data: unknown; sessionEnded: boolean }> {
		const settings = this.#settings
		const url = new URL(spec.path, this.#originFor(spec))
		for (const [name, value] of Object.entries(spec.query ?? {}))
			if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
		let headers = spec.anonymous
			? this.#headers.anonymous(spec.anonymous)
			: this.#headers.ofSession(this.#session as Session)
		let body: string | undefined
		if (spec.method === 'POST') {
			body = formBody(spec.form, spec.anonymous ? undefined : (this.#session as Session).csrfToken)
			headers = withFormContentType(headers)
		}
		// A deadline cleared as soon as the exchange ends: AbortSignal.timeout's timer would live for
		// the whole timeout after every request, tens of thousands of timers and signals under load.
		const deadline = new AbortController()
		const timer = setTimeout(
			() => deadline.abort(new DOMException('The operation timed out.', 'TimeoutError')),
			settings.timeout
		)
		const signal = spec.signal ? AbortSignal.any([deadline.signal, spec.signal]) : deadline.signal
		const statsKey = `${spec.method} ${spec.template}`
		const tried = new Set<ProxyEntry>()
		let started: number
		let response: Response
		let text: string
		try {
			for (;;) {
				const proxy = settings.proxies?.pick(url, tried)
				started = performance.now()
				try {
					response = await settings.fetch(url, {
						method: spec.method,
						headers,
						body,
						signal,
						redirect: spec.anonymous ? 'follow' : 'manual',
						...(proxy ? { proxy: proxy.url } : DIRECT)
					})
					text = await readUpstreamText(response, `${spec.method} ${spec.path}`)
					if (proxy && response.status === 407) throw new Error(proxyAuthenticationFailure(proxy.url))
					if (proxy) settings.proxies?.recordSuccess(proxy)
					break
				} catch (error) {
					// An answer over the size limit: Instagram's own failure, not the network's.
					if (error instanceof IgApiError) {
						settings.stats.recordRequest(statsKey, performance.now() - started, error.kind)
						throw error
					}
					const failure = fetchFailure(error, {
						endpoint: `${spec.method} ${spec.path}`,
						timeoutMs: settings.timeout,
						timedOut: deadline.signal.aborted,
						callerAborted: spec.signal?.aborted === true,
						proxyLabel: proxy?.label,
						redact: (value) => this.redact(value)
					})
					settings.stats.recordRequest(statsKey, performance.now() - started, failure?.kind)
					if (!proxy || !failure || !settings.proxies) throw failure ?? error
					settings.proxies.recordFailure(proxy)
					tried.add(proxy)
					// The next proxy at once, when this one certainly passed nothing on (or a repeat is harmless).
					const idempotent = spec.idempotent ?? spec.method === 'GET'
					if (!mayFailOver(failure, error, idempotent) || !settings.proxies.hasAlternative(tried))
						throw failure
				}
			}
		} finally {
			clearTimeout(timer)
		}
		let sessionEnded = false
		if (!spec.anonymous) {
			const update = absorbSessionUpdates(this.#session as Session, response.headers)
			if (update.changed) this.#sessionChanged()
			sessionEnded = update.ended
		}
		const result = classifyResponse(
			{ status: response.status, headers: response.headers, text },
			{ method: spec.method, endpoint: spec.path, expect: spec.expect, secrets: this.#listSecrets }
		)
		const errorKind = result.ok ? undefined : result.error.kind
		settings.stats.recordRequest(
			statsKey,
			performance.now() - started,
			errorKind,
			errorKind === 'rate_limited'
		)
		if (!result.ok) throw result.error
		return { data: result.data, sessionEnded }
	}

	#originFor(spec: RequestSpec): string {
		if (spec.anonymous === 'mobile' && this.#origin === INSTAGRAM_ORIGIN) return MOBILE_ORIGIN
		return this.#origin
	}

	/** The first authenticated request per client: captures the www-claim and server revision; errors ignored. */
	async #runWarmUp(): Promise<void> {
		try {
			const { data: text } = await this.#attempt({
				method: 'GET',
				path: WARM_UP_PATH,
				template: WARM_UP_PATH,
				category: 'get_default',
				expect: 'text'
			})
			const revision = /"server_revision":\s*(\d+)/.exec(String(text))?.[1]
			if (revision) {
				;(this.#session as Session).ajaxRevision = revision
				this.#headers.sessionChanged()
			}
		} catch {
			// Instagram works without the warm-up values; the defaults stay in place.
		}
	}

	/** The session's values changed: the headers are built again, and its secrets are held for good. */
	#sessionChanged(): void {
		if (this.#session) for (const secret of sessionSecrets(this.#session)) this.#heldSecrets.add(secret)
		this.#headers.sessionChanged()
	}

	/** Every credential value that must never reach a message: each one held, and the proxies'. */
	#secrets(): string[] {
		return [...this.#heldSecrets, ...(this.#settings.proxies?.secrets() ?? [])]
	}

	/** `text` without this session's secrets, in any encoding, nor any session cookie value. */
	redact(text: string): string {
		return redactSecrets(text, this.#secrets())
	}
}
