/**
 * `/api/dashboard` data as the Dashboard reads it (the client's `stats.snapshot()` plus the
 * playground's counters), and the points of the requests-per-minute chart: the server keeps the
 * last 60 minutes, so the chart is complete from the first look.
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
	/** The last 60 minutes, oldest first. */
	per_minute?: { minute?: string; requests?: number; errors?: number }[]
	endpoints?: Record<string, EndpointFigures>
	rate_limits?: Record<string, BudgetFigures> | null
	/** Speed mode the budgets come from: safe, normal, fast or unlimited. */
	speed?: string
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

/** Per-minute figures as the chart shows them: local time of day under the axis, date and time on hover. */
export function rateSeries(client: ClientFigures | undefined): ChartPoint[] {
	return (client?.per_minute ?? []).flatMap((entry) => {
		const start = new Date(entry.minute ?? '')
		if (Number.isNaN(start.getTime())) return []
		return [
			{
				label: start.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
				title: start.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }),
				value: entry.requests ?? 0,
				errors: entry.errors ?? 0,
				minute: Math.floor(start.getTime() / 60_000)
			}
		]
	})
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
