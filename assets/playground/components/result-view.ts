/**
 * The result area every data panel shares: a status line (HTTP status, duration, size, items),
 * a summary card for users and posts, views (Table, Tree, Images, Raw), "Load more" when the
 * envelope has `next_cursor` (appends, fetching with `?cursor=`), Save, CSV and Copy, and "Collect
 * all" under a list a job can collect whole (it starts the job and opens the Jobs panel).
 * Failures show the envelope's `error` and `code` as they are.
 */

import { h, replaceChildren } from '../../common/dom'
import { formatBytes } from '../../common/format'
import { type ApiResult, apiGet, withCursor } from '../lib/api'
import { formatDuration, formatQuantity } from '../lib/format'
import { collectableList } from '../lib/jobs'
import { inTableOrder, type TableSort } from './data-table'
import { collectAllButton, copyJson, csvButton, csvRows, type Row, saveResult } from './result-actions'
import {
	availableViews,
	defaultView,
	emptyList,
	tableAction,
	VIEW_LABELS,
	type ViewName,
	viewContent
} from './result-body'
import { summaryCard } from './summary-card'
import { showToast } from './toast'
import { viewTabs } from './view-tabs'

/** Options for `createResultView`. */
export interface ResultViewOptions {
	/** Offer "Save" (the server saves its last data response; off for saved files). */
	save?: boolean
	/** Picks the records CSV export posts (default: the data itself). */
	csvSource?: (data: unknown) => unknown
	/** Shown before anything ran. */
	emptyText?: string
}

/** A result area; `run` fetches a GET path into it, `show` displays data already at hand. */
export interface ResultView {
	element: HTMLElement
	/** `csvName` says what the records are; it starts the CSV file's name (`followers-luna.explorer`). */
	run(path: string, csvName?: string): Promise<ApiResult>
	show(data: unknown, caption: string, csvName?: string): void
	clear(): void
}

interface Shown {
	data: unknown
	path: string | null
	/** The last "Load more" page (null until one is loaded). */
	lastFetched: string | null
	nextCursor: string | null
	caption: string
	csvName: string | null
}

/** Builds a result area. */
export function createResultView(options: ResultViewOptions = {}): ResultView {
	// Screen readers hear one short sentence per result, not the whole table (see `announce`).
	const announcer = h('p', { className: 'visually-hidden', attrs: { 'aria-live': 'polite' } })
	const content = h('div', { className: 'result-content' })
	// Focus comes here when what had it goes away (the last "Load more", a request run from elsewhere).
	const attrs = { 'aria-label': 'Result', tabindex: -1 }
	const element = h('section', { className: 'result', attrs }, announcer, content)
	const empty = (): HTMLElement =>
		h('p', { className: 'result-empty', text: options.emptyText ?? 'Run a request to see its result here.' })
	let shown: Shown | null = null
	let view: ViewName | null = null
	/** The table's order: kept while the same result grows ("Load more") or changes view. */
	let sort: TableSort = { column: null, direction: 1 }
	let runCounter = 0
	content.append(empty())

	function announce(text: string): void {
		announcer.textContent = text
	}

	function statusLine(result: ApiResult | null): HTMLElement {
		const line = h('div', { className: 'result-status' })
		if (result) {
			line.append(
				h('span', {
					className: `tag ${result.ok ? 'tag-success' : 'tag-error'}`,
					text: result.ok ? `${result.status} OK` : `${result.status || 'no answer'}`
				}),
				h('span', { text: formatDuration(result.durationMs), attrs: { title: 'Duration' } }),
				h('span', { text: formatBytes(result.sizeBytes), attrs: { title: 'Response size' } })
			)
		}
		if (shown) {
			if (Array.isArray(shown.data))
				line.append(h('span', { className: 'result-count', text: formatQuantity(shown.data.length, 'item') }))
			line.append(h('code', { className: 'result-caption', text: shown.caption }))
		}
		return line
	}

	function render(result: ApiResult | null): void {
		if (!shown) return
		const current = shown
		if (Array.isArray(current.data) && current.data.length === 0) {
			replaceChildren(content, statusLine(result), emptyActions(), emptyList(current.path))
			return
		}
		const views = availableViews(current.data)
		if (!view || !views.includes(view)) view = defaultView(current.data, views)
		const { tablist: tabs, panel: body } = viewTabs(
			views.map((name) => ({ name, label: VIEW_LABELS[name] })),
			view,
			viewContent(view, current.data, tableAction(current.path), sort),
			(name) => {
				view = name
				render(result)
				element.querySelector<HTMLElement>('[role=tab][aria-selected=true]')?.focus()
			}
		)
		const actions = h('div', { className: 'result-actions' })
		if (options.save && current.path) {
			// After "Load more" the last page, whose result holds every page on screen; a list names its
			// first page and how many records it shows, so Save writes them all or says why not.
			const request = current.lastFetched
				? { path: current.lastFetched, loadMore: true }
				: { path: current.path, loadMore: false }
			const list = Array.isArray(current.data)
				? { path: current.path, records: current.data.length }
				: undefined
			actions.append(
				h('button', {
					className: 'button',
					text: 'Save',
					attrs: { type: 'button' },
					on: { click: () => void saveResult(request, list) }
				})
			)
		}
		const rows = csvRows(options.csvSource ? options.csvSource(current.data) : current.data)
		// The list on screen (not records picked from it) is exported in the table's order.
		const order = rows === current.data ? (records: Row[]) => inTableOrder(records, sort) : undefined
		actions.append(
			csvButton(rows, current.csvName, order),
			h('button', {
				className: 'button',
				text: 'Copy',
				attrs: { type: 'button', title: 'Copy as JSON' },
				on: { click: () => void copyJson(current.data) }
			})
		)
		const collectable = current.path && Array.isArray(current.data) ? collectableList(current.path) : null
		if (collectable) actions.append(collectAllButton(collectable))
		const more =
			current.nextCursor && Array.isArray(current.data)
				? h(
						'div',
						{ className: 'load-more' },
						h('button', {
							className: 'button button-primary',
							text: 'Load more',
							attrs: { type: 'button' },
							on: { click: () => void loadMore() }
						})
					)
				: null
		replaceChildren(
			content,
			statusLine(result),
			summaryCard(current.data),
			h('div', { className: 'result-toolbar' }, tabs, actions),
			body,
			more
		)
	}

	/** Save, CSV and Copy for an empty list: nothing to save or export. */
	function emptyActions(): HTMLElement {
		const reason = 'The result is empty'
		return h(
			'div',
			{ className: 'result-toolbar' },
			h(
				'div',
				{ className: 'result-actions' },
				...(options.save ? ['Save', 'CSV'] : ['CSV']).map((text) =>
					h('button', { className: 'button', text, attrs: { type: 'button', disabled: true, title: reason } })
				)
			)
		)
	}

	function renderError(result: ApiResult): void {
		announce(`Failed: ${result.code ?? 'error'}`)
		replaceChildren(
			content,
			statusLine(result),
			h(
				'div',
				{ className: 'error-box', attrs: { role: 'alert' } },
				h(
					'div',
					{ className: 'error-title' },
					h('span', { className: 'tag tag-error', text: result.code ?? 'error' }),
					h('span', { text: `${result.method} ${result.path}` })
				),
				h('p', { className: 'error-text', text: result.error ?? 'Request failed.' })
			)
		)
	}

	function setBusy(busy: boolean, label = 'Loading…'): void {
		element.setAttribute('aria-busy', String(busy))
		element.querySelector('.result-loading')?.remove()
		if (busy) content.prepend(h('div', { className: 'result-loading', text: label }))
	}

	function describe(result: ApiResult): string {
		const count = Array.isArray(shown?.data) ? `${formatQuantity(shown.data.length, 'item')}, ` : ''
		return `Loaded ${count}${formatDuration(result.durationMs)}`
	}

	async function run(path: string, csvName?: string): Promise<ApiResult> {
		const ticket = ++runCounter
		setBusy(true)
		const result = await apiGet(path)
		if (ticket !== runCounter) return result
		setBusy(false)
		if (!result.ok || !result.envelope) {
			shown = null
			renderError(result)
			return result
		}
		shown = {
			data: result.envelope.data,
			path,
			lastFetched: null,
			nextCursor: result.envelope.next_cursor ?? null,
			caption: `GET ${path}`,
			csvName: csvName ?? null
		}
		view = null
		sort = { column: null, direction: 1 }
		render(result)
		announce(describe(result))
		return result
	}

	async function loadMore(): Promise<void> {
		if (!shown?.path || !shown.nextCursor || !Array.isArray(shown.data)) return
		const current = shown
		const ticket = ++runCounter
		const pagePath = withCursor(current.path!, current.nextCursor!)
		setBusy(true, 'Loading more…')
		const result = await apiGet(pagePath, { loadMore: true })
		if (ticket !== runCounter) return
		setBusy(false)
		if (!result.ok || !result.envelope) {
			// Keep what is loaded; the cursor stays, so "Load more" can be tried again.
			showToast(`Load more failed: ${result.error} (${result.code})`, 'error')
			return
		}
		const page = result.envelope.data
		shown = {
			...current,
			data: [...(current.data as unknown[]), ...(Array.isArray(page) ? page : [page])],
			lastFetched: pagePath,
			nextCursor: result.envelope.next_cursor ?? null
		}
		// The pressed button is replaced: its successor takes the focus, or at the end of the list (no
		// button any more) the result itself, and the announcement says that was all.
		const hadFocus = element.contains(document.activeElement)
		render(result)
		const complete = shown.nextCursor === null
		announce(`${describe(result)}${complete ? '. That is the whole list.' : ''}`)
		if (hadFocus) (element.querySelector<HTMLElement>('.load-more button') ?? element).focus()
	}

	return {
		element,
		run,
		show(data, caption, csvName) {
			runCounter++
			shown = { data, path: null, lastFetched: null, nextCursor: null, caption, csvName: csvName ?? null }
			view = null
			sort = { column: null, direction: 1 }
			setBusy(false)
			render(null)
		},
		clear() {
			runCounter++
			shown = null
			replaceChildren(content, empty())
		}
	}
}
