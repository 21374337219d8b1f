/**
 * Request history (`GET /api/history`: last 50, newest first), refreshed every two seconds
 * while the panel is open and the tab visible. A GET of a data endpoint can be re-run: it opens
 * its panel with the same values and runs it.
 */

import { h, replaceChildren } from '../../common/dom'
import { errorBox } from '../components/error-box'
import { apiGet } from '../lib/api'
import { formatClock, formatDuration } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { matchRequest } from './catalog'

const POLL_MS = 2000

/** One entry of `GET /api/history` (docs/api-contract.md, "System endpoints"). */
interface HistoryEntry {
	id?: string | number
	method?: string
	path?: string
	status?: number
	success?: boolean
	duration_ms?: number
	timestamp?: string
	message?: string
	error?: string
}

/** Builds the History panel; `rerun(path)` opens the owning panel and runs the request. */
export function createHistoryPanel(rerun: (path: string) => void): Panel {
	const body = h('div', { className: 'history-list' })
	const note = h('p', { className: 'panel-note', text: 'Refreshes every 2 seconds while open.' })
	let timer: ReturnType<typeof setInterval> | null = null
	let lastSignature = ''

	function row(entry: HistoryEntry): HTMLTableRowElement {
		const method = entry.method ?? ''
		const path = entry.path ?? ''
		const rerunnable = method === 'GET' && matchRequest(path) !== null
		const button = rerunnable
			? h('button', {
					className: 'button button-small',
					text: 'Re-run',
					attrs: { type: 'button', 'aria-label': `Re-run GET ${path}` },
					on: { click: () => rerun(path) }
				})
			: null
		const tr = h(
			'tr',
			{ className: rerunnable ? 'is-clickable' : '' },
			h('td', { className: 'history-time', text: formatClock(entry.timestamp) }),
			h('td', null, h('span', { className: 'tag', text: method })),
			h('td', { className: 'history-path' }, h('code', { text: path })),
			h(
				'td',
				null,
				h('span', {
					className: `tag ${entry.success ? 'tag-success' : 'tag-error'}`,
					text: String(entry.status ?? '')
				})
			),
			h('td', { className: 'cell-number', text: formatDuration(entry.duration_ms) }),
			h('td', {
				className: 'history-message',
				text: entry.success ? (entry.message ?? '') : (entry.error ?? entry.message ?? '')
			}),
			h('td', { className: 'row-actions' }, button)
		)
		// The whole row re-runs on click for mouse users; keyboard users have the button.
		if (rerunnable)
			tr.addEventListener('click', (event) => (event.target as HTMLElement).closest('button') || rerun(path))
		return tr
	}

	async function refresh(): Promise<void> {
		const result = await apiGet<HistoryEntry[]>('/api/history')
		if (!result.ok || !result.envelope) {
			lastSignature = ''
			replaceChildren(body, errorBox(result.code, result.error))
			return
		}
		const entries = Array.isArray(result.envelope.data) ? result.envelope.data.slice(0, 50) : []
		// Rebuild only on change so focus and scroll position survive the polling.
		const signature = `${entries.length}:${entries[0]?.id ?? ''}:${entries[0]?.timestamp ?? ''}`
		if (signature === lastSignature) return
		lastSignature = signature
		if (entries.length === 0) {
			replaceChildren(
				body,
				h('p', { className: 'result-empty', text: 'No requests yet. Requests from every panel appear here.' })
			)
			return
		}
		const header = h(
			'tr',
			null,
			...['Time', 'Method', 'Path', 'Status', 'Duration', 'Message', ''].map((label) =>
				h('th', { text: label, attrs: { scope: 'col' } })
			)
		)
		replaceChildren(
			body,
			h(
				'div',
				{ className: 'table-scroll' },
				h(
					'table',
					{ className: 'data-table stacked-table history-table' },
					h('thead', null, header),
					h('tbody', null, ...entries.map(row))
				)
			)
		)
	}

	function stop(): void {
		if (timer) clearInterval(timer)
		timer = null
	}

	const element = panelFrame(
		'history',
		'History',
		'The last 50 requests to the playground, newest first.',
		note,
		body
	)
	return {
		id: 'history',
		title: 'History',
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
