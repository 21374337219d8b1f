/**
 * "Load more" results: the UI's "Load more" asks for the next page of the list on screen (the same
 * endpoint and query, `cursor` = the shown `next_cursor`) with the header {@link LOAD_MORE_HEADER}.
 * Such a page extends the result it continues, so the last result (what `POST /api/save` writes)
 * holds every record loaded so far, not only the last page. Without the header a page with a cursor
 * is a result of its own (History's re-run of a later page shows and saves that page).
 */

/** Header of a "Load more" request (any value). */
export const LOAD_MORE_HEADER = 'x-smkit-load-more'

/** Lists that may still be continued: the most recent few, so a page re-fetched late still finds its list. */
const KEPT_LISTS = 8

/** A list result that "Load more" may continue. */
interface OpenList {
	/** Endpoint and query without `cursor` and `count`. */
	key: string
	/** The cursor that continues it. */
	nextCursor: string
	/** Request line of its first page. */
	request: string
	records: unknown[]
	pages: number
}

/** A result to keep: the request line and the envelope to save. */
export interface ChainedResult {
	request: string
	envelope: unknown
}

/** The list a URL pages through: path and query without `cursor`, `count` and `token`. */
function listKey(url: URL): string {
	const query = new URLSearchParams(url.search)
	for (const name of ['cursor', 'count', 'token']) query.delete(name)
	query.sort()
	return `${url.pathname}?${query}`
}

/** Joins "Load more" pages to the list they continue. */
export class ResultChains {
	private readonly lists: OpenList[] = []

	/**
	 * The result to keep for a successful data response: the envelope as it is, or, for a "Load
	 * more" page of a list still open, the list so far with this page appended.
	 */
	add(url: URL, requestLine: string, envelope: unknown, loadMore: boolean): ChainedResult {
		const body = envelope as { data?: unknown; next_cursor?: unknown; message?: unknown }
		if (!Array.isArray(body.data)) return { request: requestLine, envelope }
		const key = listKey(url)
		const cursor = url.searchParams.get('cursor')
		const previous = loadMore
			? this.lists.find((list) => list.key === key && list.nextCursor === cursor)
			: undefined
		const records = previous ? [...previous.records, ...body.data] : body.data
		const pages = (previous?.pages ?? 0) + 1
		const request = previous?.request ?? requestLine
		const result = previous
			? {
					request,
					envelope: {
						...body,
						data: records,
						message: `${typeof body.message === 'string' ? body.message : 'Page'} (${records.length} records loaded in ${pages} pages)`
					}
				}
			: { request, envelope }
		if (typeof body.next_cursor === 'string' && body.next_cursor !== '') {
			this.lists.unshift({ key, nextCursor: body.next_cursor, request, records, pages })
			if (this.lists.length > KEPT_LISTS) this.lists.length = KEPT_LISTS
		}
		return result
	}
}
