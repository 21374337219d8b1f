/**
 * Saved results (`GET /api/saved`): view one (its JSON with the result's records exportable to
 * CSV), delete one after an in-page confirmation. File names come from the server and are only
 * ever text and URL-encoded path segments.
 */

import { h, replaceChildren } from '../../common/dom'
import { formatBytes } from '../../common/format'
import { confirmAction } from '../components/dialogs'
import { errorBox } from '../components/error-box'
import { createResultView } from '../components/result-view'
import { showToast } from '../components/toast'
import { apiGet, apiRequest } from '../lib/api'
import { focusFirst, keysOf, neighbourKey, panelHeading } from '../lib/focus'
import { formatTime } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'

/** One entry of `GET /api/saved`. */
interface SavedEntry {
	name?: string
	file?: string
	size?: number
	modified?: string | number
	request?: string
}

/** The `{filename}` path segment for an entry: the file's base name. */
function fileNameOf(entry: SavedEntry): string {
	const base = (entry.file ?? '').split(/[\\/]/).pop() ?? ''
	return base !== '' ? base : `${entry.name ?? ''}.json`
}

/** The records inside a saved file (`result.data`), for CSV export. */
function savedRecords(content: unknown): unknown {
	const result = (content as { result?: { data?: unknown } } | null)?.result
	return result && typeof result === 'object' && 'data' in result ? result.data : content
}

/** Builds the Saved panel. */
export function createSavedPanel(): Panel {
	const list = h('div', { className: 'saved-list', attrs: { 'aria-live': 'polite' } })
	const viewer = createResultView({
		csvSource: savedRecords,
		emptyText: 'Choose "View" on a saved result to open it here.'
	})
	const refreshButton = h('button', {
		className: 'button',
		text: 'Refresh',
		attrs: { type: 'button' },
		on: { click: () => void refresh() }
	})

	/** The file the viewer shows (null when it shows none). */
	let viewed: string | null = null

	async function view(entry: SavedEntry): Promise<void> {
		const fileName = fileNameOf(entry)
		const result = await apiGet(`/api/saved/${encodeURIComponent(fileName)}`)
		if (!result.ok || !result.envelope) {
			showToast(`Could not open ${fileName}: ${result.error} (${result.code})`, 'error')
			return
		}
		viewed = fileName
		viewer.show(result.envelope.data, `Saved: ${fileName}`, fileName.replace(/\.json$/, ''))
		viewer.element.scrollIntoView({ block: 'nearest' })
	}

	async function remove(entry: SavedEntry): Promise<void> {
		const fileName = fileNameOf(entry)
		const confirmed = await confirmAction({
			title: 'Delete saved result?',
			message: `"${fileName}" will be deleted from the saved folder. This cannot be undone.`,
			confirmLabel: 'Delete',
			danger: true
		})
		if (!confirmed) return
		const next = neighbourKey(keysOf(list, '[data-act="view"]', 'file'), fileName)
		const result = await apiRequest('DELETE', `/api/saved/${encodeURIComponent(fileName)}`)
		if (result.ok) {
			showToast(`Deleted ${fileName}.`, 'success')
			// Another file's view stays open.
			if (viewed === fileName) {
				viewed = null
				viewer.clear()
			}
		} else {
			showToast(`Could not delete ${fileName}: ${result.error} (${result.code})`, 'error')
		}
		await refresh()
		// Deleted, the focus goes to the file that takes its place, or to the heading; refused, it
		// stays on the file's Delete (lib/focus.ts). The table was redrawn either way.
		if (result.ok) focusFirst(savedButton(next, 'view'), panelHeading('saved'))
		else focusFirst(savedButton(fileName, 'delete'))
	}

	/** A file's View or Delete button in the table. */
	const savedButton = (fileName: string | null, act: 'view' | 'delete') =>
		fileName === null
			? null
			: list.querySelector<HTMLElement>(`[data-act="${act}"][data-file="${CSS.escape(fileName)}"]`)

	function row(entry: SavedEntry): HTMLTableRowElement {
		const fileName = fileNameOf(entry)
		return h(
			'tr',
			null,
			h(
				'th',
				{ className: 'saved-name', attrs: { scope: 'row' } },
				// Each part in its own direction: an Arabic name keeps `_2024` where it was typed.
				h('span', { text: entry.name ?? fileName, attrs: { dir: 'auto' } }),
				h('small', { text: entry.file ?? fileName })
			),
			h('td', { className: 'cell-number', text: formatBytes(Number(entry.size)) }),
			h('td', { text: formatTime(entry.modified) }),
			h('td', { className: 'saved-request' }, h('code', { text: entry.request ?? '' })),
			h(
				'td',
				{ className: 'row-actions' },
				h('button', {
					className: 'button button-small',
					text: 'View',
					dataset: { act: 'view', file: fileName },
					attrs: { type: 'button', 'aria-label': `View ${fileName}` },
					on: { click: () => void view(entry) }
				}),
				h('button', {
					className: 'button button-small button-danger',
					text: 'Delete',
					dataset: { act: 'delete', file: fileName },
					attrs: { type: 'button', 'aria-label': `Delete ${fileName}` },
					on: { click: () => void remove(entry) }
				})
			)
		)
	}

	async function refresh(): Promise<void> {
		const result = await apiGet<SavedEntry[]>('/api/saved')
		if (!result.ok || !result.envelope) {
			replaceChildren(list, errorBox(result.code, result.error))
			return
		}
		const entries = Array.isArray(result.envelope.data) ? result.envelope.data : []
		// With nothing saved, the list's sentence is the only empty state (no empty viewer below it).
		viewer.element.hidden = entries.length === 0
		if (entries.length === 0) {
			replaceChildren(
				list,
				h('p', {
					className: 'result-empty',
					text: 'Nothing saved yet. Run a request in any data panel and press Save.'
				})
			)
			return
		}
		const header = h(
			'tr',
			null,
			...['Name', 'Size', 'Saved', 'Request', 'Actions'].map((label) =>
				h('th', { text: label, attrs: { scope: 'col' } })
			)
		)
		replaceChildren(
			list,
			h(
				'div',
				{ className: 'table-scroll' },
				h(
					'table',
					{ className: 'data-table stacked-table saved-table' },
					h('thead', null, header),
					h('tbody', null, ...entries.map(row))
				)
			)
		)
	}

	const element = panelFrame(
		'saved',
		'Saved',
		'Results saved with "Save", kept as JSON files on the server.',
		h('div', { className: 'panel-toolbar' }, refreshButton),
		list,
		viewer.element
	)
	return { id: 'saved', title: 'Saved', element, show: () => void refresh() }
}
