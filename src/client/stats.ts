/**
 * Client statistics for the playground dashboard, measured by the transport itself (the original's
 * counters were never fed). Endpoints are counted by path template (`/api/v1/media/{pk}/info/`), so
 * the table does not grow with every id.
 */
import type { IgErrorKind } from './errors'
import type { BudgetState, RateLimiter } from './rate-limit'

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
	/** Requests that ended in an error (HTTP error, bad body, network failure, timeout). */
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
	errors_by_kind: Partial<Record<IgErrorKind, number>>
	/** Keyed by `METHOD /path/{template}/`. */
	endpoints: Record<string, EndpointStats>
	/** Remaining budget per rate-limit category; `null` when limiting is disabled. */
	rate_limits: Record<string, BudgetState> | null
}

const LATENCY_SAMPLES = 1000

/** Live counters of one client; `snapshot()` returns a plain JSON-safe copy. */
export class ClientStats {
	readonly #since = new Date()
	#requests = 0
	#errors = 0
	#retries = 0
	#rateLimitHits = 0
	#throttledWaits = 0
	readonly #latencies: number[] = []
	readonly #recent: number[] = []
	readonly #errorsByKind: Partial<Record<IgErrorKind, number>> = {}
	readonly #endpoints = new Map<string, { requests: number; errors: number; totalMs: number }>()

	constructor(readonly limiter?: RateLimiter) {}

	/** Records one finished upstream request (success or failure). */
	recordRequest(
		endpoint: string,
		durationMs: number,
		errorKind?: IgErrorKind,
		upstreamRateLimit = false
	): void {
		this.#requests++
		this.#latencies.push(durationMs)
		if (this.#latencies.length > LATENCY_SAMPLES) this.#latencies.shift()
		const now = Date.now()
		this.#recent.push(now)
		this.#pruneRecent(now)
		const entry = this.#endpoints.get(endpoint) ?? { requests: 0, errors: 0, totalMs: 0 }
		entry.requests++
		entry.totalMs += durationMs
		if (errorKind) {
			this.#errors++
			entry.errors++
			this.#errorsByKind[errorKind] = (this.#errorsByKind[errorKind] ?? 0) + 1
		}
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
		const sorted = [...this.#latencies].sort((left, right) => left - right)
		const average = sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : 0
		const p95 = sorted.length
			? (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0)
			: 0
		this.#pruneRecent(Date.now())
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
			requests_per_minute: this.#recent.length,
			errors_by_kind: { ...this.#errorsByKind },
			endpoints,
			rate_limits: this.limiter?.enabled ? this.limiter.remaining() : null
		}
	}

	#pruneRecent(now: number): void {
		while (this.#recent.length && (this.#recent[0] as number) <= now - 60_000) this.#recent.shift()
	}
}

function round(value: number): number {
	return Math.round(value * 10) / 10
}
