/**
 * Dashboard: `/api/status` and `/api/dashboard` as cards, three small charts (upstream requests per
 * minute over the last hour, average latency per upstream endpoint, rate-limit budget left) and the
 * per-endpoint table, refreshed every three seconds while the panel is open.
 */

import { h, replaceChildren } from '../../common/dom'
import { barChart, horizontalBars } from '../components/charts'
import { dataTable } from '../components/data-table'
import { errorBox } from '../components/error-box'
import { jsonTree } from '../components/json-tree'
import { apiGet } from '../lib/api'
import { formatClock, formatCount, formatDuration, formatUptime } from '../lib/format'
import { rebuildKeepingView } from '../lib/keep-view'
import { type Panel, panelFrame } from '../lib/panel'
import { type ServerStatus, setStatus } from '../lib/state'
import { type DashboardData, endpointRows, rateSeries } from './dashboard-data'

const POLL_MS = 3000

function card(title: string, rows: [string, string][]): HTMLElement {
	return h(
		'article',
		{ className: 'stat-card' },
		h('h2', { className: 'stat-card-title', text: title }),
		h('dl', null, ...rows.flatMap(([label, value]) => [h('dt', { text: label }), h('dd', { text: value })]))
	)
}

function yesNo(value: unknown): string {
	return value === true ? 'yes' : value === false ? 'no' : '—'
}

function content(status: ServerStatus | null, data: DashboardData, raw: HTMLDetailsElement): HTMLElement[] {
	const client = data.client ?? {}
	const playground = data.playground ?? {}
	const endpoints = endpointRows(client)
	const slowest = Math.max(1, ...endpoints.map((row) => row.avg_ms))
	const errorKinds = Object.entries(client.errors_by_kind ?? {}).filter(([, count]) => count > 0)
	const speed = client.speed ?? status?.speed ?? 'normal'
	const budgets = Object.entries(client.rate_limits ?? {}).map(([category, budget]) => ({
		label: category,
		value: budget.remaining ?? 0,
		max: budget.limit ?? 0,
		detail: `${formatCount(budget.remaining)} / ${formatCount(budget.limit)} per ${formatUptime(budget.window_seconds)}`
	}))
	return [
		h(
			'div',
			{ className: 'stat-grid' },
			card('Server', [
				['Status', status?.status ?? '—'],
				['Uptime', formatUptime(status?.uptime_seconds ?? playground.uptime_seconds)],
				['Version', status?.version ?? '—']
			]),
			card('Playground', [
				['Requests', formatCount(status?.total_requests ?? playground.total_requests)],
				['Errors', formatCount(status?.total_errors ?? playground.total_errors)],
				['History entries', formatCount(playground.history_entries)]
			]),
			card('Instagram client', [
				['Requests', formatCount(client.requests)],
				['Errors', formatCount(client.errors)],
				['Retries', formatCount(client.retries)],
				['Rate-limit hits', formatCount(client.rate_limit_hits)],
				['Throttled waits', formatCount(client.throttled_waits)]
			]),
			card('Latency', [
				['Average', formatDuration(client.latency_ms?.avg)],
				['p95', formatDuration(client.latency_ms?.p95)],
				['Last minute', `${formatCount(client.requests_per_minute)} requests`]
			]),
			card('Session', [
				['Logged in', yesNo(status?.logged_in)],
				['Instagram session', status?.session ?? '—'],
				['Account', status?.username ? `@${status.username}` : '—'],
				['Speed', speed],
				['Demo data', yesNo(status?.demo)],
				[
					'AI',
					status?.ai_available
						? [status.ai_provider, status.ai_model].filter(Boolean).join(' · ') || 'yes'
						: 'off'
				],
				['Counting since', formatClock(client.since)]
			]),
			errorKinds.length
				? card(
						'Errors by kind',
						errorKinds.map(([kind, count]) => [kind, formatCount(count)])
					)
				: null
		),
		h(
			'div',
			{ className: 'chart-grid' },
			barChart(rateSeries(client), {
				title: 'Instagram requests per minute',
				emptyText: 'No upstream requests yet.'
			}),
			horizontalBars(
				endpoints.slice(0, 8).map((row) => ({
					label: row.endpoint,
					value: row.avg_ms,
					max: slowest,
					detail: formatDuration(row.avg_ms)
				})),
				{ title: 'Average latency per endpoint', emptyText: 'No upstream requests yet.' }
			),
			horizontalBars(budgets, {
				title: `Rate-limit budget left (speed: ${speed})`,
				tone: 'budget',
				emptyText:
					speed === 'unlimited'
						? 'Speed unlimited: the client limits no rate.'
						: 'Client-side rate limiting is off.'
			})
		),
		h('h2', { className: 'section-title', text: 'Requests per upstream endpoint' }),
		endpoints.length
			? h('div', { className: 'result-body' }, dataTable(endpoints))
			: h('p', { className: 'result-empty', text: 'No upstream requests yet.' }),
		raw
	]
}

/** Builds the Dashboard panel. */
export function createDashboardPanel(): Panel {
	const body = h('div', { className: 'dashboard' })
	let timer: ReturnType<typeof setInterval> | null = null
	let rawOpen = false

	async function refresh(): Promise<void> {
		const [statusResult, dashboardResult] = await Promise.all([
			apiGet<ServerStatus>('/api/status'),
			apiGet<DashboardData>('/api/dashboard')
		])
		if (!dashboardResult.ok || !dashboardResult.envelope) {
			replaceChildren(body, errorBox(dashboardResult.code, dashboardResult.error))
			return
		}
		const status = statusResult.ok && statusResult.envelope ? statusResult.envelope.data : null
		if (status) setStatus(status)
		const data = dashboardResult.envelope.data ?? {}
		const raw = h(
			'details',
			{ className: 'raw-details', on: { toggle: () => (rawOpen = raw.open) } },
			h('summary', { text: 'Raw dashboard data' }),
			jsonTree(data, { expandDepth: 1 })
		)
		raw.open = rawOpen
		// Every three seconds: focus, scrolled boxes and opened tree nodes stay as they were.
		rebuildKeepingView(body, () => replaceChildren(body, ...content(status, data, raw)))
	}

	function stop(): void {
		if (timer) clearInterval(timer)
		timer = null
	}

	const element = panelFrame(
		'dashboard',
		'Dashboard',
		'Server status and what the Instagram client measured. Refreshes every 3 seconds while open.',
		body
	)
	return {
		id: 'dashboard',
		title: 'Dashboard',
		element,
		show() {
			stop()
			void refresh()
			timer = setInterval(() => {
				if (!document.hidden) void refresh()
			}, POLL_MS)
		},
		hide: stop
	}
}
