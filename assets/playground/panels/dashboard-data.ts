/**
 * `/api/dashboard` data as the Dashboard reads it (the client's `stats.snapshot()` plus the
 * playground's counters), and the samples behind the requests-per-minute chart: the server reports
 * the current rate only, so the page keeps the last readings itself while it is open.
 */
import type { ChartPoint } from '../components/charts'

/** Per upstream endpoint (`METHOD /path/{template}/`). */
export interface EndpointFigures {
	requests?: number
	errors?: number
	avg_ms?: number
}

/** Remaining budget of one rate-limit category. */
export interface BudgetFigures {
	limit?: number
	window_seconds?: number
	used?: number
	remaining?: number
}

/** The client section (see src/client/stats.ts). */
export interface ClientFigures {
	since?: string
	requests?: number
	errors?: number
	retries?: number
	rate_limit_hits?: number
	throttled_waits?: number
	latency_ms?: { avg?: number; p95?: number }
	requests_per_minute?: number
	errors_by_kind?: Record<string, number>
	endpoints?: Record<string, EndpointFigures>
	rate_limits?: Record<string, BudgetFigures> | null
}

/** `/api/dashboard` data. */
export interface DashboardData {
	client?: ClientFigures
	playground?: {
		uptime_seconds?: number
		total_requests?: number
		total_errors?: number
		history_entries?: number
	}
}

interface Sample {
	time: number
	requestsPerMinute: number
}

const MAX_SAMPLES = 40
const samples: Sample[] = []

/** Adds a reading of the current request rate (one per refresh). */
export function recordSample(data: DashboardData, time = Date.now()): void {
	const rate = data.client?.requests_per_minute
	if (typeof rate !== 'number') return
	samples.push({ time, requestsPerMinute: rate })
	if (samples.length > MAX_SAMPLES) samples.splice(0, samples.length - MAX_SAMPLES)
}

/** The readings so far, oldest first, as chart points labelled with the time of day. */
export function rateSeries(): ChartPoint[] {
	return samples.map((sample) => ({
		label: new Date(sample.time).toLocaleTimeString([], {
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit'
		}),
		value: sample.requestsPerMinute
	}))
}

/** Endpoints sorted by request count, most used first. */
export function endpointRows(
	client: ClientFigures | undefined
): { endpoint: string; requests: number; errors: number; avg_ms: number }[] {
	return Object.entries(client?.endpoints ?? {})
		.map(([endpoint, figures]) => ({
			endpoint,
			requests: figures.requests ?? 0,
			errors: figures.errors ?? 0,
			avg_ms: Math.round(figures.avg_ms ?? 0)
		}))
		.sort((left, right) => right.requests - left.requests || left.endpoint.localeCompare(right.endpoint))
}
