/**
 * Dashboard: `/api/status` and `/api/dashboard` figures as cards, three small charts (requests per
 * minute, latency, rate-limit budget left) and the per-endpoint counts, refreshed every three
 * seconds while open. The raw dashboard data stays one click away.
 */
import { barChart, meters } from '../components/charts'
import { dataTable } from '../components/data-table'
import { jsonTree } from '../components/json-tree'
import { apiGet } from '../lib/api'
import { h, replaceChildren } from '../lib/dom'
import { formatCount, formatDuration, formatUptime } from '../lib/format'
import type { Panel } from '../lib/panel'
import { type ServerStatus, setStatus } from '../lib/state'
import { readDashboard } from './dashboard-data'

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

/** Builds the Dashboard panel. */
export function createDashboardPanel(): Panel {
	const body = h('div', { className: 'dashboard', attrs: { 'aria-live': 'off' } })
	let timer: ReturnType<typeof setInterval> | null = null
	let rawOpen = false

	async function refresh(): Promise<void> {
		const [statusResult, dashboardResult] = await Promise.all([
			apiGet<ServerStatus>('/api/status'),
			apiGet('/api/dashboard')
		])
		if (!dashboardResult.ok || !dashboardResult.envelope) {
			replaceChildren(
				body,
				h(
					'div',
					{ className: 'error-box', attrs: { role: 'alert' } },
					h('span', { className: 'tag tag-error', text: dashboardResult.code ?? 'error' }),
					' ',
					dashboardResult.error ?? ''
				)
			)
			return
		}
		const status = statusResult.ok && statusResult.envelope ? statusResult.envelope.data : null
		if (status) setStatus(status)
		const figures = readDashboard(dashboardResult.envelope.data)
		const raw = h(
			'details',
			{ className: 'raw-details', on: { toggle: () => (rawOpen = raw.open) } },
			h('summary', { text: 'Raw dashboard data' }),
			jsonTree(dashboardResult.envelope.data, { expandDepth: 1 })
		)
		raw.open = rawOpen
		replaceChildren(
			body,
			h(
				'div',
				{ className: 'stat-grid' },
				card('Server', [
					['Status', status?.status ?? '—'],
					['Uptime', formatUptime(status?.uptime_seconds)],
					['Version', status?.version ?? '—']
				]),
				card('Playground', [
					['Requests', formatCount(status?.total_requests ?? figures.playgroundRequests)],
					['Errors', formatCount(status?.total_errors ?? figures.playgroundErrors)]
				]),
				card('Instagram client', [
					['Requests', formatCount(figures.requests)],
					['Errors', formatCount(figures.errors)],
					['Retries', formatCount(figures.retries)],
					['Rate-limit hits', formatCount(figures.rateLimitHits)]
				]),
				card('Latency', [
					['Average', formatDuration(figures.latencyAverage)],
					['p95', formatDuration(figures.latencyP95)]
				]),
				card('Session', [
					['Logged in', yesNo(status?.logged_in)],
					['Demo data', yesNo(status?.demo)],
					[
						'AI',
						status?.ai_available
							? [status.ai_provider, status.ai_model].filter(Boolean).join(' · ') || 'yes'
							: 'not configured'
					]
				])
			),
			h(
				'div',
				{ className: 'chart-grid' },
				barChart(figures.perMinute, { title: 'Requests per minute' }),
				barChart(figures.latency, { title: 'Latency (bar: average, line: p95)', unit: 'ms' }),
				meters('Rate-limit budget left', figures.budget)
			),
			h('h2', { className: 'section-title', text: 'Requests per endpoint' }),
			figures.endpoints.length
				? h('div', { className: 'result-body' }, dataTable(figures.endpoints))
				: h('p', { className: 'result-empty', text: 'No upstream requests yet.' }),
			raw
		)
	}

	function stop(): void {
		if (timer) clearInterval(timer)
		timer = null
	}

	const element = h(
		'section',
		{ className: 'panel', attrs: { 'aria-labelledby': 'panel-title-dashboard' } },
		h(
			'header',
			{ className: 'panel-header' },
			h('h1', {
				className: 'panel-title',
				text: 'Dashboard',
				attrs: { id: 'panel-title-dashboard', tabindex: -1 }
			}),
			h('p', {
				className: 'panel-description',
				text: 'Server status and what the Instagram client measured. Refreshes every 3 seconds while open.'
			})
		),
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
