/**
 * `InstagramClient`: the library's entry point. One instance per account; its groups
 * (`ig.users`, `ig.media`, ...) share one transport, one rate limiter and one set of statistics.
 *
 *   const ig = new InstagramClient({ credentials: { sessionId, csrfToken, dsUserId } })
 *   const user = await ig.users.getByUsername('luna.explorer')
 *   for await (const follower of await ig.friendships.getFollowers(user.pk)) console.log(follower.username)
 */
import { Account } from './api/account'
import { Direct } from './api/direct'
import { Feed } from './api/feed'
import { Friendships } from './api/friendships'
import { Hashtags } from './api/hashtags'
import { Media } from './api/media'
import { Notifications } from './api/notifications'
import { Public } from './api/public'
import { Search } from './api/search'
import { Stories } from './api/stories'
import { Users } from './api/users'
import { IgApiError } from './errors'
import type { ProxyPool } from './proxy'
import { RateLimiter, type RateLimitOptions } from './rate-limit'
import { type FetchLike, INSTAGRAM_ORIGIN, Transport } from './request'
import { SessionHealth, type SessionReport } from './session-health'
import { type SpeedMode, speedClientOptions } from './speed'
import { ClientStats } from './stats'

/** An Instagram web session, as copied from a logged-in browser (environment: SESSION_ID ...). */
export interface Credentials {
	/** Cookie `sessionid` (SESSION_ID). */
	sessionId: string
	/** Cookie `csrftoken` and header `x-csrftoken` (CSRF_TOKEN). */
	csrfToken: string
	/** Cookie `ds_user_id`: the viewer's own pk (DS_USER_ID). */
	dsUserId: string
	/** Optional cookies MID, IG_DID, DATR, RUR. */
	mid?: string
	igDid?: string
	datr?: string
	rur?: string
	/** USER_AGENT; the `sec-ch-ua*` headers are derived from it. Default: desktop Chrome 142. */
	userAgent?: string
	/** IG_WWW_CLAIM for `x-ig-www-claim` (default `0`; updated from responses). */
	igWwwClaim?: string
}

/** Client settings; every field is optional. */
export interface ClientOptions {
	/** Instagram origin. Default `process.env.SMKIT_UPSTREAM_URL` (unless empty), else `'https://www.instagram.com'`. Any other value also replaces `https://i.instagram.com`. */
	baseURL?: string
	/** Session for logged-in methods. Without it only `ig.public` works; others throw `login_required` without a request. */
	credentials?: Credentials
	/** Per-request timeout in ms (connect and read). Default 15000. */
	timeout?: number
	/** Retries after 429, 5xx and network errors. Default 3. */
	maxRetries?: number
	/** Total backoff wait per call in ms; past it the last error (e.g. rate_limited with Retry-After) is thrown. Default 30000. */
	maxRetryWait?: number
	/** First backoff step in ms (doubles per attempt, jitter 0.7-1.3). Default 1000; tests use ~1. */
	retryBaseDelayMs?: number
	/** Human-like pauses (0.5-2 s before requests, 3-8 s after errors). Default false (true with `speed: 'safe'`). */
	delays?: boolean
	/** Client-side budgets per category. `false` disables them (tests, demo); an object raises single budgets. Default: Instagram-safe budgets, scaled by `speed`. */
	rateLimits?: RateLimitOptions
	/** Speed mode (speed.ts): scales the budgets and switches the pauses; `rateLimits`/`delays` given explicitly win. Default `normal`. */
	speed?: SpeedMode
	/** Proxies every upstream request goes through (proxy.ts). Default: none (direct). */
	proxies?: ProxyPool
	/** Longest wait for a free rate-limit slot in ms before failing with rate_limited. Default 60000. */
	rateLimitMaxWait?: number
	/** `fetch` implementation (tests inject one). Default the global `fetch`. */
	fetch?: FetchLike
}

/** Credentials are usable only when the three required values are non-empty. */
/**
 * The group with each method's failure counted in `stats` as an error its caller got. Calls a
 * group makes to itself (`this.getByUsername` inside `parseBio`) and the look-ups and fallbacks
 * it handles never pass through here, so a failure the client got past is not counted.
 */
function countFailures<Group extends object>(group: Group, stats: ClientStats): Group {
	// Keyed by the method itself, so a method replaced on the group (a test double) is wrapped anew.
	const wrapped = new WeakMap<object, unknown>()
	return new Proxy(group, {
		get(target, property) {
			const value: unknown = Reflect.get(target, property, target)
			if (typeof value !== 'function' || property === 'constructor') return value
			if (!wrapped.has(value)) {
				const method = value as (...args: unknown[]) => unknown
				const counting = (...args: unknown[]) => {
					const settled = method.apply(target, args)
					if (!(settled instanceof Promise)) return settled
					return settled.catch((error: unknown) => {
						stats.recordFailure(error)
						throw error
					})
				}
				// Same name and parameter count as the method (the registry reads them).
				Object.defineProperties(counting, {
					name: { value: method.name },
					length: { value: method.length }
				})
				wrapped.set(value, counting)
			}
			return wrapped.get(value)
		}
	})
}

function completeCredentials(credentials: Credentials | undefined): Credentials | undefined {
	if (!credentials?.sessionId || !credentials.csrfToken || !credentials.dsUserId) return undefined
	return credentials
}

/**
 * The Instagram client. Method names are part of the contract (docs/architecture.md, "Client API
 * surface").
 */
export class InstagramClient {
	/** Request statistics for the dashboard: `ig.stats.snapshot()`. */
	readonly stats: ClientStats
	/** The shared transport (used by the API groups). */
	readonly transport: Transport
	/** The resolved Instagram origin. */
	readonly baseURL: string
	/** The speed mode in force (`normal` unless chosen). */
	readonly speed: SpeedMode
	/** What Instagram last said about the session (`ig.session.report()`). */
	readonly session: SessionHealth
	/** The proxies in use, if any. */
	readonly proxies: ProxyPool | undefined

	readonly users: Users
	readonly media: Media
	readonly feed: Feed
	readonly search: Search
	readonly stories: Stories
	readonly friendships: Friendships
	readonly account: Account
	readonly public: Public
	readonly hashtags: Hashtags
	readonly notifications: Notifications
	readonly direct: Direct

	/** Credentials are kept inside the transport only (never on a public field). */
	constructor(options: ClientOptions = {}) {
		// An empty or blank SMKIT_UPSTREAM_URL counts as unset (every request failed with 'Invalid URL').
		this.baseURL = (options.baseURL || process.env.SMKIT_UPSTREAM_URL?.trim() || INSTAGRAM_ORIGIN).replace(
			/\/+$/,
			''
		)
		this.speed = options.speed ?? 'normal'
		const speed = speedClientOptions(this.speed)
		const limiter = new RateLimiter(
			options.rateLimits ?? speed.rateLimits,
			options.rateLimitMaxWait ?? 60_000
		)
		const delays = options.delays ?? speed.delays
		this.stats = new ClientStats(limiter, Date.now, { speed: this.speed, pauses: delays })
		const credentials = completeCredentials(options.credentials)
		this.session = new SessionHealth(credentials !== undefined)
		this.proxies = options.proxies
		this.transport = new Transport(
			{
				baseURL: this.baseURL,
				fetch: options.fetch ?? ((input, init) => fetch(input, init)),
				timeout: options.timeout ?? 15_000,
				maxRetries: options.maxRetries ?? 3,
				maxRetryWait: options.maxRetryWait ?? 30_000,
				retryBaseDelayMs: options.retryBaseDelayMs ?? 1000,
				delays,
				limiter,
				stats: this.stats,
				health: this.session,
				proxies: options.proxies
			},
			credentials
		)
		const counted = <Group extends object>(group: Group) => countFailures(group, this.stats)
		this.users = counted(new Users(this))
		this.media = counted(new Media(this))
		this.feed = counted(new Feed(this))
		this.search = counted(new Search(this))
		this.stories = counted(new Stories(this))
		this.friendships = counted(new Friendships(this))
		this.account = counted(new Account(this))
		this.public = counted(new Public(this))
		this.hashtags = counted(new Hashtags(this))
		this.notifications = counted(new Notifications(this))
		this.direct = counted(new Direct(this))
	}

	/** True when credentials are present (not a check that Instagram still accepts them). */
	get loggedIn(): boolean {
		return this.transport.loggedIn
	}

	/** The viewer's pk (DS_USER_ID), or undefined when not logged in. */
	get viewerPk(): string | undefined {
		return this.transport.viewerPk
	}

	/** Switches to other credentials (a new login) or to none (a logout); the session state starts over. */
	setCredentials(credentials: Credentials | undefined): void {
		this.transport.useSession(completeCredentials(credentials))
	}

	/**
	 * Asks Instagram whether the session works, with one light authenticated call (the viewer's own
	 * profile), and resolves to the resulting report. Answers that say nothing about the session
	 * (rate limit, server error, no connection) are thrown and leave the state as it was. An answer
	 * that empties the session cookie ended the session, whatever its body: the check says expired.
	 */
	async checkSession(options: { signal?: AbortSignal } = {}): Promise<SessionReport> {
		if (!this.loggedIn) return this.session.report()
		try {
			const body = (await this.transport.send({
				method: 'GET',
				path: '/api/v1/accounts/current_user/',
				template: '/api/v1/accounts/current_user/',
				query: { edit: 'true' },
				category: 'get_profile',
				signal: options.signal
			})) as { user?: { username?: unknown } }
			const username = body.user?.username
			// The transport recorded the answer: valid, or expired when it ended the session (kept so).
			if (this.session.state === 'valid')
				this.session.recordSuccess(typeof username === 'string' ? username : undefined)
		} catch (error) {
			const verdict =
				error instanceof IgApiError &&
				error.upstreamStatus !== 0 &&
				(error.kind === 'login_required' || error.kind === 'challenge_required')
			if (!verdict) throw error
		}
		return this.session.report()
	}
}

/** The API group names, in the order of docs/architecture.md, "Client API surface". */
export const API_GROUPS = [
	'users',
	'media',
	'feed',
	'search',
	'stories',
	'friendships',
	'account',
	'public',
	'hashtags',
	'notifications',
	'direct'
] as const

/** One API group name. */
export type ApiGroupName = (typeof API_GROUPS)[number]
