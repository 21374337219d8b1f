/**
 * What a result's toolbar buttons do: save on the server (with an in-page name dialog), export to
 * CSV (the server builds the file; its name comes from Content-Disposition), copy as JSON, and
 * "Collect all" (a job for the whole list).
 */

import { h } from '../../common/dom'
import { formatBytes } from '../../common/format'
import { type ApiResult, apiDownload, apiGet, apiRequest, type DataRequest, historyIdOf } from '../lib/api'
import { whileBusy } from '../lib/focus'
import { type Collectable, collectAll, focusJobWhenShown } from '../lib/jobs'
import { promptForName } from './dialogs'
import { showToast } from './toast'

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

/**
 * Saves a result: the server stores the result of the request this page names by its history id,
 * whatever was requested since (by this page or any other client). When the server no longer
 * keeps it (only the last 50 are kept) or this page never fetched it, it is fetched again first.
 * After "Load more" `request` is the last page, fetched as "Load more": the server joins it to the
 * pages before it, so the file holds every record on screen.
 */
export async function saveResult(request: DataRequest): Promise<void> {
	const { path, loadMore } = request
	const name = await promptForName({
		title: 'Save result',
		label: 'Name',
		value: suggestName(path),
		hint: 'Letters, digits, "_" and "-". An existing name gets a suffix; nothing is overwritten.',
		confirmLabel: 'Save',
		pattern: '[A-Za-z0-9_\\-]{1,100}(\\.json)?'
	})
	if (name === null) return
	const saveById = (historyId: number) =>
		apiRequest<{ name?: string; file?: string; size?: number }>('POST', '/api/save', {
			name,
			history_id: historyId
		})
	const known = historyIdOf(request)
	let result: ApiResult<{ name?: string; file?: string; size?: number }> | undefined =
		known === undefined ? undefined : await saveById(known)
	if (result === undefined || (!result.ok && result.code === 'not_found')) {
		const refreshed = await apiGet(path, { loadMore })
		const historyId = historyIdOf(request)
		if (!refreshed.ok || historyId === undefined) {
			showToast(`Could not refresh the result before saving: ${refreshed.error} (${refreshed.code})`, 'error')
			return
		}
		result = await saveById(historyId)
	}
	if (!result.ok || !result.envelope) {
		showToast(`Save failed: ${result.error} (${result.code})`, 'error')
		return
	}
	const saved = result.envelope.data
	showToast(`Saved as ${saved.file ?? saved.name ?? name} (${formatBytes(Number(saved.size))})`, 'success')
}

/** The records to export: an array of objects as is, a single object as one row, else null. */
export function csvRows(data: unknown): Record<string, unknown>[] | null {
	const rows = Array.isArray(data) ? data : data !== null && typeof data === 'object' ? [data] : null
	if (!rows || rows.length === 0) return null
	return rows.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row))
		? (rows as Record<string, unknown>[])
		: null
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
	const button = h('button', {
		className: 'button',
		text: 'Collect all',
		attrs: { type: 'button', title: `Start a job that collects every record of this list (${list.kind})` },
		on: {
			click: () =>
				void whileBusy(button, async () => {
					const started = await collectAll(list)
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
