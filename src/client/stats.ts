/**
 * Client statistics for the playground dashboard, measured by the transport itself, so every
 * request counts whoever made it. Endpoints are counted by path template (`/api/v1/media/{pk}/info/`), so
 * the table does not grow with every id.
 */
import { IgArgumentError, IgError, type IgErrorKind } from './errors'
import type { BudgetState, RateLimiter } from './rate-limit'
import type { SpeedMode } from './speed'

/** Counters of one upstream endpoint. */
export interface EndpointStats {
	requests: number
	errors: number
	avg_ms: number
}

/** What `stats.snapshot()` returns (the dashboard's client section). */
export interface StatsSnapshot {
	/** ISO 8601 time the counters started. */
	since: string
	/** Upstream HTTP requests sent (each retry attempt counts). */
	requests: number
	/**
	 * Calls whose caller got an Instagram error. A failed request the client got past by itself (the
	 * first request's warm-up, a look-up before a fallback, an attempt a retry fixed) is not one;
	 * `endpoints` counts those per endpoint.
	 */
	errors: number
	/** Attempts repeated after a retryable error. */
	retries: number
	/** Upstream rate-limit answers (429, "Please wait a few minutes", spam). */
	rate_limit_hits: number
	/** Calls that waited for the client's own rate-limit window. */
	throttled_waits: number
	latency_ms: { avg: number; p95: number }
	/** Requests sent in the last 60 seconds. */
	requests_per_minute: number
	/** `errors` by kind. */
	errors_by_kind: Partial<Record<IgErrorKind, number>>
	/** The last 60 minutes since counting started, one entry per minute, oldest first (zeros included). */
	per_minute: MinuteStats[]
	/** Keyed by `METHOD /path/{template}/`; `errors` there counts failed requests. */
	endpoints: Record<string, EndpointStats>
	/** Remaining budget per rate-limit category; `null` when limiting is disabled. */
	rate_limits: Record<string, BudgetState> | null
	/** The speed mode the budgets come from (speed.ts). */
	speed: SpeedMode
	/** Whether human-like pauses precede requests. */
	pauses: boolean
}

/** One minute of the per-minute history. */
export interface MinuteStats {
	/** ISO 8601 start of the minute. */
	minute: string
	/** Upstream requests sent in that minute. */
	requests: number
	/** Calls that failed in that minute (as `errors`). */
	errors: number
}

const LATENCY_SAMPLES = 1000
/** Minutes of per-minute history kept. */
export const MINUTES_KEPT = 60
const MINUTE_MS = 60_000

/** Live counters of one client; `snapshot()` returns a plain JSON-safe copy. */
export class ClientStats {
	readonly #since: Date
	#requests = 0
	#errors = 0
	#retries = 0
	#rateLimitHits = 0
	#throttledWaits = 0
	/** The last LATENCY_SAMPLES latencies, a ring (written at `#latencyCount % LATENCY_SAMPLES`). */
	readonly #latencies = new Float64Array(LATENCY_SAMPLES)
	#latencyCount = 0
	/**
	 * Times of the requests of the last minute, ascending, from `#recentStart` on: a queue read from
	 * its front without shifting the array (thousands of entries under load; a shift moves them all).
	 */
	#recent: number[] = []
	#recentStart = 0
	readonly #errorsByKind: Partial<Record<IgErrorKind, number>> = {}
	readonly #endpoints = new Map<string, { requests: number; errors: number; totalMs: number }>()
	/** Per-minute counts keyed by minute number (epoch ms / 60000), at most MINUTES_KEPT of them. */
	readonly #minutes = new Map<number, { requests: number; errors: number }>()
	/** The bucket of the minute written last (nearly every request falls into it). */
	#lastMinute: { key: number; bucket: { requests: number; errors: number } } | undefined

	constructor(
		readonly limiter?: RateLimiter,
		/** The clock (tests move it). */
		private readonly now: () => number = Date.now,
		/** The speed mode the budgets come from, and whether pauses are on (reported as they are). */
		readonly pace: { speed: SpeedMode; pauses: boolean } = { speed: 'normal', pauses: false }
	) {
		this.#since = new Date(this.now())
	}

	#minute(time: number): { requests: number; errors: number } {
		const key = Math.floor(time / MINUTE_MS)
		if (this.#lastMinute?.key === key) return this.#lastMinute.bucket
		let bucket = this.#minutes.get(key)
		if (!bucket) {
			bucket = { requests: 0, errors: 0 }
			this.#minutes.set(key, bucket)
			for (const old of this.#minutes.keys()) if (old <= key - MINUTES_KEPT) this.#minutes.delete(old)
		}
		this.#lastMinute = { key, bucket }
		return bucket
	}

	/**
	 * Records a call that ended in `error` for its caller (see `errors`). Argument errors and
	 * cancellations are not Instagram errors and are not counted.
	 */
	recordFailure(error: unknown): void {
		if (!(error instanceof IgError) || error instanceof IgArgumentError) return
		this.#errors++
		this.#errorsByKind[error.kind] = (this.#errorsByKind[error.kind] ?? 0) + 1
		this.#minute(this.now()).errors++
	}

	/** Records one finished upstream request (success or failure). */
	recordRequest(
		endpoint: string,
		durationMs: number,
		errorKind?: IgErrorKind,
		upstreamRateLimit = false
	): void {
		this.#requests++
		this.#latencies[this.#latencyCount++ % LATENCY_SAMPLES] = durationMs
		const now = this.now()
		this.#recent.push(now)
		this.#pruneRecent(now)
		this.#minute(now).requests++
		const entry = this.#endpoints.get(endpoint) ?? { requests: 0, errors: 0, totalMs: 0 }
		entry.requests++
		entry.totalMs += durationMs
		// The request failed; whether its caller saw an error is `recordFailure`'s business.
		if (errorKind) entry.errors++
		if (upstreamRateLimit) this.#rateLimitHits++
		this.#endpoints.set(endpoint, entry)
	}

	/** Records that an attempt is about to be repeated. */
	recordRetry(): void {
		this.#retries++
	}

	/** Records a wait imposed by the client's own rate limiter. */
	recordThrottle(): void {
		this.#throttledWaits++
	}

	/** A JSON-safe copy of every counter. */
	snapshot(): StatsSnapshot {
		const sorted = this.#latencies.slice(0, Math.min(this.#latencyCount, LATENCY_SAMPLES)).sort()
		const average = sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : 0
		const p95 = sorted.length
			? (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0)
			: 0
		const now = this.now()
		this.#pruneRecent(now)
		const endpoints: Record<string, EndpointStats> = {}
		for (const [endpoint, entry] of this.#endpoints)
			endpoints[endpoint] = {
				requests: entry.requests,
				errors: entry.errors,
				avg_ms: round(entry.totalMs / entry.requests)
			}
		return {
			since: this.#since.toISOString(),
			requests: this.#requests,
			errors: this.#errors,
			retries: this.#retries,
			rate_limit_hits: this.#rateLimitHits,
			throttled_waits: this.#throttledWaits,
			latency_ms: { avg: round(average), p95: round(p95) },
			requests_per_minute: this.#recent.length - this.#recentStart,
			errors_by_kind: { ...this.#errorsByKind },
			per_minute: this.#perMinute(now),
			endpoints,
			rate_limits: this.limiter?.enabled ? this.limiter.remaining() : null,
			speed: this.pace.speed,
			pauses: this.pace.pauses
		}
	}

	/** The minutes from the later of "counting started" and "an hour ago" to now. */
	#perMinute(now: number): MinuteStats[] {
		const last = Math.floor(now / MINUTE_MS)
		const first = Math.max(last - MINUTES_KEPT + 1, Math.floor(this.#since.getTime() / MINUTE_MS))
		const minutes: MinuteStats[] = []
		for (let key = first; key <= last; key++) {
			const bucket = this.#minutes.get(key)
			minutes.push({
				minute: new Date(key * MINUTE_MS).toISOString(),
				requests: bucket?.requests ?? 0,
				errors: bucket?.errors ?? 0
			})
		}
		return minutes
	}

	#pruneRecent(now: number): void {
		const recent = this.#recent
		let start = this.#recentStart
		while (start < recent.length && (recent[start] as number) <= now - 60_000) start++
		// Drop the expired front once it is most of the array (amortised: each time is copied once).
		if (start > 1024 && start * 2 > recent.length) {
			this.#recent = recent.slice(start)
			start = 0
		}
		this.#recentStart = start
	}
}

function round(value: number): number {
	return Math.round(value * 10) / 10
}
