/**
 * "Load more" results: the UI's "Load more" asks for the next page of the list on screen (the same
 * endpoint and query, `cursor` = the shown `next_cursor`) with the header {@link LOAD_MORE_HEADER}.
 * Such a page extends the result it continues, so the last result (what `POST /api/save` writes)
 * holds every record loaded so far, not only the last page. Without the header a page with a cursor
 * is a result of its own (History's re-run of a later page shows and saves that page). A "Load
 * more" page whose list is no longer kept is kept on its own too, marked as a later page: the
 * pages before it are on the screen that asked for it, not in the result, so a save naming how
 * many records it shows is refused (routes/saved.ts).
 */

/** Header of a "Load more" request (any value). */
export const LOAD_MORE_HEADER = 'x-smkit-load-more'

/** Lists that may still be continued: the most recent few, so a page re-fetched late still finds its list. */
const KEPT_LISTS = 8

/**
 * A result kept for `POST /api/save`: the request line and the envelope. Once the response is
 * serialised, the result holds that JSON text instead of the envelope's objects and parses it
 * again only if it is saved or continued: the last 50 results of 100 records each, kept as object
 * graphs, were thousands of live objects every garbage collection had to go through under load.
 */
export class KeptResult {
	#envelope: unknown
	#text: string | undefined

	/**
	 * `laterPage`: a "Load more" page kept on its own, its list no longer kept (it holds that page,
	 * not the list from its first page).
	 */
	constructor(
		readonly request: string,
		envelope: unknown,
		readonly laterPage = false
	) {
		this.#envelope = envelope
	}

	/** The envelope (parsed from the kept text when it was serialised). */
	get envelope(): unknown {
		if (this.#envelope === undefined && this.#text !== undefined) this.#envelope = JSON.parse(this.#text)
		return this.#envelope
	}

	/** The envelope was serialised as `text`: keep that instead of its objects. */
	serialised(text: string): void {
		this.#text = text
		this.#envelope = undefined
	}

	/** How many records it holds: the length of a list's `data`, else undefined. */
	get records(): number | undefined {
		const data = (this.envelope as { data?: unknown } | null)?.data
		return Array.isArray(data) ? data.length : undefined
	}
}

/** A list result that "Load more" may continue. */
interface OpenList {
	/** The URL of its last page (the key is computed only when a "Load more" page looks for it). */
	url: URL
	/** The cursor that continues it. */
	nextCursor: string
	/** Request line of its first page. */
	request: string
	/** Its records: those of the first page's kept result, or the joined records after "Load more". */
	records: () => unknown[]
	pages: number
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
	add(url: URL, requestLine: string, envelope: unknown, loadMore: boolean): KeptResult {
		const body = envelope as { data?: unknown; next_cursor?: unknown; message?: unknown }
		if (!Array.isArray(body.data)) return new KeptResult(requestLine, envelope)
		let previous: OpenList | undefined
		if (loadMore) {
			const cursor = url.searchParams.get('cursor')
			const key = listKey(url)
			previous = this.lists.find((list) => list.nextCursor === cursor && listKey(list.url) === key)
		}
		let kept: KeptResult
		let records: () => unknown[]
		let pages = 1
		if (previous) {
			const joined = [...previous.records(), ...body.data]
			pages = previous.pages + 1
			kept = new KeptResult(previous.request, {
				...body,
				data: joined,
				message: `${typeof body.message === 'string' ? body.message : 'Page'} (${joined.length} records loaded in ${pages} pages)`
			})
			records = () => joined
		} else {
			const result = new KeptResult(requestLine, envelope, loadMore && url.searchParams.has('cursor'))
			kept = result
			records = () => (result.envelope as { data: unknown[] }).data
		}
		if (typeof body.next_cursor === 'string' && body.next_cursor !== '') {
			this.lists.unshift({ url, nextCursor: body.next_cursor, request: kept.request, records, pages })
			if (this.lists.length > KEPT_LISTS) this.lists.length = KEPT_LISTS
		}
		return kept
	}
}
