/**
 * Reads `/api/dashboard` data into the figures the Dashboard draws. Each figure is looked up
 * under the names the server uses; anything missing reads as "no data" rather than failing.
 */
import type { ChartPoint, MeterItem } from '../components/charts'

/** The figures the Dashboard shows. */
export interface DashboardFigures {
	requests?: number
	errors?: number
	retries?: number
	rateLimitHits?: number
	latencyAverage?: number
	latencyP95?: number
	playgroundRequests?: number
	playgroundErrors?: number
	perMinute: ChartPoint[]
	latency: ChartPoint[]
	budget: MeterItem[]
	endpoints: { endpoint: string; requests: number }[]
}

type Bag = Record<string, unknown>

function at(source: unknown, path: string): unknown {
	let current = source
	for (const key of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined
		current = (current as Bag)[key]
	}
	return current
}

function firstNumber(source: unknown, ...paths: string[]): number | undefined {
	for (const path of paths) {
		const value = at(source, path)
		if (typeof value === 'number' && Number.isFinite(value)) return value
	}
	return undefined
}

function firstValue(source: unknown, ...paths: string[]): unknown {
	for (const path of paths) {
		const value = at(source, path)
		if (value !== undefined && value !== null) return value
	}
	return undefined
}

function minuteLabel(value: unknown, index: number): string {
	if (typeof value === 'string' && value !== '') {
		const date = new Date(value)
		return Number.isNaN(date.getTime())
			? value
			: date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
	}
	if (typeof value === 'number')
		return new Date(value < 1e12 ? value * 1000 : value).toLocaleTimeString([], {
			hour: '2-digit',
			minute: '2-digit'
		})
	return String(index + 1)
}

function series(value: unknown, valueKeys: string[]): ChartPoint[] {
	if (Array.isArray(value)) {
		return value.map((item, index) => {
			if (typeof item === 'number') return { label: String(index + 1), value: item }
			const record = (item ?? {}) as Bag
			const number = valueKeys.map((key) => record[key]).find((candidate) => typeof candidate === 'number') as
				| number
				| undefined
			return {
				label: minuteLabel(record.minute ?? record.time ?? record.timestamp ?? record.start, index),
				value: number ?? 0
			}
		})
	}
	if (value && typeof value === 'object') {
		return Object.entries(value as Bag)
			.filter(([, count]) => typeof count === 'number')
			.map(([label, count], index) => ({ label: minuteLabel(label, index), value: count as number }))
	}
	return []
}

function budgetOf(value: unknown): MeterItem[] {
	if (!value || typeof value !== 'object') return []
	const entries: [string, unknown][] = Array.isArray(value)
		? value.map((item) => [String((item as Bag)?.category ?? (item as Bag)?.name ?? ''), item])
		: Object.entries(value as Bag)
	return entries.flatMap(([label, item]) => {
		const remaining = firstNumber(item, 'remaining', 'left', 'available')
		const limit = firstNumber(item, 'limit', 'max', 'capacity', 'per_hour', 'total')
		if (typeof item === 'number')
			return [{ label, value: item, max: Math.max(item, 1), detail: `${item} left` }]
		if (remaining === undefined) return []
		return [{ label, value: remaining, max: limit ?? Math.max(remaining, 1) }]
	})
}

function endpointsOf(value: unknown): { endpoint: string; requests: number }[] {
	let rows: { endpoint: string; requests: number }[] = []
	if (Array.isArray(value)) {
		rows = value.map((item) => ({
			endpoint: String((item as Bag)?.endpoint ?? (item as Bag)?.name ?? ''),
			requests: firstNumber(item, 'requests', 'count', 'calls') ?? 0
		}))
	} else if (value && typeof value === 'object') {
		rows = Object.entries(value as Bag).map(([endpoint, count]) => ({
			endpoint,
			requests: typeof count === 'number' ? count : (firstNumber(count, 'requests', 'count', 'calls') ?? 0)
		}))
	}
	return rows.sort((left, right) => right.requests - left.requests)
}

/** Extracts the figures from `/api/dashboard` data. */
export function readDashboard(data: unknown): DashboardFigures {
	const client = firstValue(data, 'client', 'stats') ?? data
	const playground = firstValue(data, 'playground', 'server') ?? {}
	const latencyAverage = firstNumber(
		client,
		'latency.avg_ms',
		'latency.average_ms',
		'latency.avg',
		'latency_avg_ms',
		'avg_latency_ms'
	)
	const latencyP95 = firstNumber(client, 'latency.p95_ms', 'latency.p95', 'latency_p95_ms', 'p95_latency_ms')
	const perMinute = series(firstValue(client, 'requests_per_minute', 'per_minute', 'timeline'), [
		'requests',
		'count',
		'value'
	])
	let latency = series(firstValue(client, 'latency_per_minute', 'latency.per_minute', 'latency.series'), [
		'avg_ms',
		'average_ms',
		'avg',
		'value'
	])
	if (latency.length === 0 && latencyAverage !== undefined)
		latency = [{ label: 'all requests', value: latencyAverage, secondary: latencyP95 }]
	return {
		requests: firstNumber(client, 'requests', 'total_requests', 'requests_total'),
		errors: firstNumber(client, 'errors', 'total_errors', 'errors_total'),
		retries: firstNumber(client, 'retries', 'total_retries'),
		rateLimitHits: firstNumber(client, 'rate_limit_hits', 'rate_limited'),
		latencyAverage,
		latencyP95,
		playgroundRequests: firstNumber(playground, 'requests', 'total_requests'),
		playgroundErrors: firstNumber(playground, 'errors', 'total_errors'),
		perMinute,
		latency,
		budget: budgetOf(firstValue(client, 'rate_limit_budget', 'budget', 'rate_limits', 'remaining_budget')),
		endpoints: endpointsOf(
			firstValue(client, 'endpoints', 'per_endpoint', 'endpoint_counts', 'requests_by_endpoint')
		)
	}
}
