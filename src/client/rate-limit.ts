/**
 * Client-side rate limiting: one sliding window per category (docs/instagram.md, "Anonymous requests",
 * "Rate limits"). A full
 * window makes the call wait for a free slot instead of failing; only a wait longer than
 * `maxWaitMs` fails, with a `rate_limited` error that says when to retry.
 *
 * Tests and demo mode pass `rateLimits: false` (the real budgets, e.g. 20 profile calls a minute,
 * would throttle a test suite), or raise single budgets: `rateLimits: { get_profile: 1000 }`.
 */
import { IgApiError } from './errors'

/** Budget of one category: at most `limit` calls within any `windowMs`. */
export interface Budget {
	limit: number
	windowMs: number
}

const MINUTE = 60_000
const HOUR = 3_600_000

/** Instagram-safe budgets, authenticated and anonymous (docs/instagram.md, "Rate limits"). */
export const DEFAULT_BUDGETS = {
	get_default: { limit: 30, windowMs: MINUTE },
	get_profile: { limit: 20, windowMs: MINUTE },
	get_feed: { limit: 15, windowMs: MINUTE },
	get_followers: { limit: 10, windowMs: MINUTE },
	get_search: { limit: 20, windowMs: MINUTE },
	get_stories: { limit: 15, windowMs: MINUTE },
	get_direct: { limit: 10, windowMs: MINUTE },
	post_like: { limit: 30, windowMs: HOUR },
	post_comment: { limit: 15, windowMs: HOUR },
	post_follow: { limit: 20, windowMs: HOUR },
	post_dm: { limit: 10, windowMs: HOUR },
	post_default: { limit: 20, windowMs: HOUR },
	public_web_api: { limit: 10, windowMs: MINUTE },
	public_graphql: { limit: 8, windowMs: MINUTE },
	public_graphql_docid: { limit: 15, windowMs: MINUTE },
	public_mobile_api: { limit: 12, windowMs: MINUTE },
	public_html: { limit: 10, windowMs: MINUTE },
	public_embed: { limit: 20, windowMs: MINUTE }
} satisfies Record<string, Budget>

/** A rate-limit category name. Unknown names get the `get_default` budget. */
export type RateCategory = keyof typeof DEFAULT_BUDGETS

/** `false` disables limiting; otherwise per-category overrides (a number is the new limit). */
export type RateLimitOptions = false | Partial<Record<RateCategory, number | Budget>>

/** Remaining budget of one category, for the dashboard. */
export interface BudgetState {
	limit: number
	window_seconds: number
	used: number
	remaining: number
}

/** Sliding-window limiter shared by every request of one client. */
export class RateLimiter {
	readonly enabled: boolean
	readonly #budgets: Record<string, Budget>
	/** Start times of calls in the window, ascending; may include reserved future slots. */
	readonly #windows = new Map<string, number[]>()
	readonly #waitListeners = new Set<(category: string, waitMs: number) => void>()

	constructor(
		options: RateLimitOptions = {},
		readonly maxWaitMs = 60_000
	) {
		this.enabled = options !== false
		this.#budgets = { ...DEFAULT_BUDGETS }
		for (const [category, value] of Object.entries(options || {})) {
			if (value === undefined) continue
			const base = this.#budgets[category] ?? DEFAULT_BUDGETS.get_default
			this.#budgets[category] = typeof value === 'number' ? { ...base, limit: value } : value
		}
	}

	/**
	 * Reserves a slot in `category`, waiting until one is free. Resolves to the milliseconds
	 * waited. Throws `rate_limited` (no upstream request made) when the wait would exceed `maxWaitMs`.
	 */
	async acquire(category: string, endpoint: string, signal?: AbortSignal): Promise<number> {
		if (!this.enabled) return 0
		const budget = this.#budget(category)
		const now = Date.now()
		const window = this.#prune(category, now)
		// Concurrent callers each reserve a distinct future slot, so a burst queues in order.
		const start =
			window.length >= budget.limit
				? Math.max(now, (window[window.length - budget.limit] as number) + budget.windowMs)
				: now
		const wait = start - now
		if (wait > this.maxWaitMs) {
			const retryAfter = Math.ceil(wait / 1000)
			throw new IgApiError(
				'rate_limited',
				`Client rate limit for ${category} reached (${budget.limit} calls per ${budget.windowMs / 1000} s); retry in ${retryAfter} s (${endpoint})`,
				{ upstreamStatus: 0, endpoint, retryAfter }
			)
		}
		window.push(start)
		if (wait > 0) {
			for (const listener of this.#waitListeners) listener(category, wait)
			try {
				await sleep(wait, signal)
			} catch (error) {
				// A wait given up (the caller's deadline) sends no request: its slot is given back.
				this.#release(category, start)
				throw error
			}
		}
		return wait
	}

	/** Removes one reserved slot starting at `start` (the window may have been pruned meanwhile). */
	#release(category: string, start: number): void {
		const window = this.#windows.get(category)
		const index = window?.indexOf(start) ?? -1
		if (index >= 0) window?.splice(index, 1)
	}

	/** Calls `listener` whenever a call starts waiting for a slot (jobs show budget waits). Returns the unsubscribe. */
	onWait(listener: (category: string, waitMs: number) => void): () => void {
		this.#waitListeners.add(listener)
		return () => this.#waitListeners.delete(listener)
	}

	/** Remaining budget per category (every known category plus any used one). */
	remaining(): Record<string, BudgetState> {
		const now = Date.now()
		const result: Record<string, BudgetState> = {}
		for (const category of new Set([...Object.keys(this.#budgets), ...this.#windows.keys()])) {
			const budget = this.#budget(category)
			const used = this.#prune(category, now).length
			result[category] = {
				limit: budget.limit,
				window_seconds: budget.windowMs / 1000,
				used,
				remaining: Math.max(0, budget.limit - used)
			}
		}
		return result
	}

	#budget(category: string): Budget {
		return this.#budgets[category] ?? this.#budgets.get_default ?? DEFAULT_BUDGETS.get_default
	}

	#prune(category: string, now: number): number[] {
		const budget = this.#budget(category)
		const window = (this.#windows.get(category) ?? []).filter((time) => time > now - budget.windowMs)
		this.#windows.set(category, window)
		return window
	}
}

/** `promise`, or its caller let go with the signal's reason once `signal` aborts (the work runs on). */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return promise
	if (signal.aborted) return Promise.reject(signal.reason)
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(signal.reason)
		signal.addEventListener('abort', onAbort, { once: true })
		promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
	})
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason)
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort)
			resolve()
		}, ms)
		const onAbort = () => {
			clearTimeout(timer)
			reject(signal?.reason)
		}
		signal?.addEventListener('abort', onAbort, { once: true })
	})
}
