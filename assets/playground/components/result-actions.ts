/**
 * What a result's toolbar buttons do: save on the server (with an in-page name dialog), export to
 * CSV (the server builds the file; its name comes from Content-Disposition), copy as JSON, and
 * "Collect all" (a job for the whole list).
 */

import { h } from '../../common/dom'
import { formatBytes } from '../../common/format'
import { type ApiResult, apiRequest, type DataRequest, historyIdOf } from '../lib/api'
import { apiDownload } from '../lib/download'
import { whileBusy } from '../lib/focus'
import { formatQuantity } from '../lib/format'
import { type Collectable, collectAll, focusJobWhenShown } from '../lib/jobs'
import { fetchListAgain } from '../lib/list-again'
import { promptForName } from './dialogs'
import { showToast } from './toast'

/**
 * Names the server keeps: a letter or a digit of any script, before a trailing `.json` (which it
 * drops). The browser anchors the pattern and compiles it with the `v` flag.
 */
export const SAVE_NAME_PATTERN =
	'(?:(?!.*\\.[jJ][sS][oO][nN]\\s*$).*[\\p{L}\\p{N}].*|.*[\\p{L}\\p{N}].*\\.[jJ][sS][oO][nN]\\s*)'

/** A name the server will accept, suggested from a request path. */
export function suggestName(path: string): string {
	const cleaned = path
		.replace(/^\/api\//, '')
		.replace(/[?&](count|cursor)=[^&]*/g, '')
		.replace(/[?&=]/g, '-')
		.replace(/[^A-Za-z0-9_-]+/g, '_')
		.replace(/^[-_]+|[-_]+$/g, '')
	return cleaned.slice(0, 80) || 'result'
}

/** A list on screen, for Save: the request it started from (its first page) and how many records it shows. */
export interface ShownList {
	path: string
	records: number
}

type SaveAnswer = ApiResult<{ name?: string; file?: string; size?: number; records?: number }>

/**
 * Saves a result: the server stores the result of the request this page names by its history id,
 * whatever was requested since (by this page or any other client). After "Load more" `request` is
 * the last page, whose result holds every page before it, and a list names how many records it
 * shows: the server writes a result holding exactly those or refuses. When it no longer keeps the
 * result (only the last 50 are kept; after a restart none), refuses it (the list's first pages are
 * no longer kept), or this page never fetched it, the list is fetched again from its first page
 * (lib/list-again.ts) and that is saved, the toast saying so: never fewer records than shown
 * without a word.
 */
export async function saveResult(request: DataRequest, shown?: ShownList): Promise<void> {
	const name = await promptForName({
		title: 'Save result',
		label: 'Name',
		value: suggestName(shown?.path ?? request.path),
		hint: 'Letters and digits of any script, "_" and "-"; spaces and other characters become "_". An existing name gets a suffix; nothing is overwritten.',
		confirmLabel: 'Save',
		// What the server keeps needs a letter or a digit, of any script, before any `.json` it drops
		// (docs/api-contract.md, "Saving"): `.json` alone is refused here, not by the server.
		pattern: SAVE_NAME_PATTERN
	})
	if (name === null) return
	// The request shown goes along: after a restart the same history id names another request.
	const path = shown?.path ?? request.path
	const saveById = (historyId: number, records: number | undefined): Promise<SaveAnswer> =>
		apiRequest('POST', '/api/save', {
			name,
			history_id: historyId,
			path,
			...(records === undefined ? {} : { records })
		})
	const known = historyIdOf(request)
	const first = known === undefined ? undefined : await saveById(known, shown?.records)
	// A 400 for a list is the refusal of an incomplete result, unless it names the name (refused first).
	const notHeld =
		first === undefined ||
		(!first.ok &&
			(first.code === 'not_found' ||
				(shown !== undefined && first.status === 400 && !/\bname\b/i.test(first.error ?? ''))))
	if (first && !notHeld) {
		reportSave(first, name)
		return
	}
	if (shown)
		showToast(`Fetching the list again from its first page to save all ${shown.records} records…`, 'info')
	const again = await fetchListAgain(shown?.path ?? request.path, shown?.records ?? 0)
	const historyId = again.ok ? historyIdOf(again.last) : undefined
	if (!again.ok || historyId === undefined) {
		const why = again.ok ? 'its answer named no history id' : `${again.error} (${again.code})`
		showToast(
			`Not saved: the server no longer holds the result, and fetching it again failed: ${why}`,
			'error'
		)
		return
	}
	const result = await saveById(historyId, shown ? again.records : undefined)
	reportSave(result, name, shown && { shown: shown.records, fetched: again.records })
}

/** The toast after a save; `again` when the list was fetched again first (how many were shown and fetched). */
function reportSave(result: SaveAnswer, name: string, again?: { shown: number; fetched: number }): void {
	if (!result.ok || !result.envelope) {
		showToast(`Not saved: ${result.error} (${result.code})`, 'error')
		return
	}
	const saved = result.envelope.data
	const records = saved.records ?? again?.fetched
	const size = `${records === undefined ? '' : `${formatQuantity(records, 'record')}, `}${formatBytes(Number(saved.size))}`
	const file = saved.file ?? saved.name ?? name
	if (!again) {
		showToast(`Saved as ${file} (${size})`, 'success')
		return
	}
	const fewer = again.fetched < again.shown
	const ending = fewer
		? `: the list now ends there, ${again.shown - again.fetched} fewer than the ${again.shown} shown`
		: ''
	showToast(
		`The server no longer held the ${again.shown} records shown: fetched the list again and saved it as ${file} (${size})${ending}`,
		fewer ? 'info' : 'success'
	)
}

/** The records to export: an array of objects as is, a single object as one row, else null. */
export function csvRows(data: unknown): Record<string, unknown>[] | null {
	const rows = Array.isArray(data) ? data : data !== null && typeof data === 'object' ? [data] : null
	if (!rows || rows.length === 0) return null
	return rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row))
		? (rows as Record<string, unknown>[])
		: null
}

/** A record as CSV export takes it. */
export type Row = Record<string, unknown>

/**
 * The CSV button of a result: exports `rows` (disabled when there are none), put in the order the
 * table shows by `order` when it is pressed.
 */
export function csvButton(
	rows: Row[] | null,
	name: string | null,
	order?: (rows: Row[]) => Row[]
): HTMLButtonElement {
	return h('button', {
		className: 'button',
		text: 'CSV',
		attrs: {
			type: 'button',
			disabled: rows === null,
			title:
				rows === null ? 'Only records (objects) can be exported' : 'Download as CSV, rows in the order shown'
		},
		on: { click: () => rows && void exportCsv(order ? order(rows) : rows, name) }
	})
}

/**
 * Posts records to `/api/export/csv` and downloads the file the server returns, named after `name`
 * (what the records are) and the time.
 */
export async function exportCsv(rows: Record<string, unknown>[], name?: string | null): Promise<void> {
	const body = name ? { data: { data: rows }, name } : { data: { data: rows } }
	const answer = await apiDownload('/api/export/csv', body, 'export.csv')
	if ('blob' in answer) {
		const url = URL.createObjectURL(answer.blob)
		const link = h('a', { attrs: { href: url, download: answer.fileName } })
		document.body.append(link)
		link.click()
		link.remove()
		setTimeout(() => URL.revokeObjectURL(url), 10_000)
		showToast(`Downloaded ${answer.fileName} (${formatBytes(answer.blob.size)})`, 'success')
	} else {
		showToast(`CSV export failed: ${answer.error} (${answer.code})`, 'error')
	}
}

/** Copies a value as indented JSON (Clipboard API, or a hidden textarea where it is missing). */
export async function copyJson(value: unknown): Promise<void> {
	const text = JSON.stringify(value, null, 2)
	try {
		await navigator.clipboard.writeText(text)
	} catch {
		// Plain-http pages beyond loopback are not a secure context: no Clipboard API there.
		const area = h('textarea', { className: 'visually-hidden', attrs: { readonly: true } })
		area.value = text
		document.body.append(area)
		area.select()
		const copied = document.execCommand('copy')
		area.remove()
		if (!copied) {
			showToast('Copy is not available in this browser context.', 'error')
			return
		}
	}
	showToast('Copied JSON to the clipboard.', 'success')
}

/**
 * "Collect all": starts a job for the whole list, then opens the Jobs panel with the new job's card
 * focused (lib/focus.ts). Busy meanwhile through `aria-disabled`, never `disabled`: a refused or
 * failed start leaves the focus on this button.
 */
export function collectAllButton(list: Collectable): HTMLButtonElement {
	// No job filters: under a search the button says the search is not applied.
	const button = h('button', {
		className: 'button',
		text: list.search === undefined ? 'Collect all' : 'Collect all (without the search)',
		attrs: {
			type: 'button',
			title:
				list.search === undefined
					? `Start a job that collects every record of this list (${list.kind})`
					: `Start a job that collects every follower: the search "${list.search}" is not applied`
		},
		on: {
			click: () =>
				void whileBusy(button, async () => {
					const started = await collectAll(list)
					// Declined in the confirmation: nothing to report.
					if (started.code === 'cancelled') return
					if (!started.ok || !started.envelope) {
						showToast(`Could not start the job: ${started.error} (${started.code})`, 'error')
						return
					}
					const job = started.envelope.data
					showToast(`Job ${job.id} started: ${list.kind} of ${job.target}.`, 'success')
					// The Jobs panel gives the new job's card the focus once it shows it.
					focusJobWhenShown(job.id)
					window.location.hash = '#jobs'
				})
		}
	})
	return button
}
