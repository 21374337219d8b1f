/**
 * Fetching a list again for Save when the server no longer holds what is on screen: its first page,
 * then its later pages as "Load more" (the server joins each to the pages before it,
 * src/playground/result-chain.ts), so the result of the last page holds the whole list from its
 * first request, each record once.
 */
import { apiGet, type DataRequest, withCursor } from './api'

/** A list fetched again: the request of its last page (what a save names) and how many records it holds. */
export type ListAgain =
	| { ok: true; last: DataRequest; records: number }
	| { ok: false; error: string; code: string }

/**
 * Fetches `path` and follows its `next_cursor` as "Load more" until it holds at least `records`
 * records or ends. A later page without records ends it too: following it would not bring the list
 * any closer to `records`. A result that is no list is fetched once.
 */
export async function fetchListAgain(path: string, records: number): Promise<ListAgain> {
	let last: DataRequest = { path, loadMore: false }
	let held = 0
	for (;;) {
		const result = await apiGet(last.path, { loadMore: last.loadMore })
		if (!result.ok || !result.envelope) {
			return { ok: false, error: result.error ?? 'Request failed', code: result.code ?? 'error' }
		}
		const { data, next_cursor: cursor } = result.envelope
		if (!Array.isArray(data)) return { ok: true, last, records: 0 }
		held += data.length
		const emptyLaterPage = last.loadMore && data.length === 0
		if (held >= records || !cursor || emptyLaterPage) return { ok: true, last, records: held }
		last = { path: withCursor(path, cursor), loadMore: true }
	}
}
