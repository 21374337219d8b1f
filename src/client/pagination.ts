/**
 * Pages of list methods. A page is plain data `{ items, next_cursor }` (what JSON serialisation
 * keeps) that is also async-iterable over every item of every following page:
 *
 *   const page = await ig.friendships.getFollowers(pk, { count: 120 })  // pages upstream to 120
 *   for await (const user of await ig.friendships.getFollowers(pk)) ...   // all followers, lazily
 */
import { IgArgumentError } from './errors'
import type { PageData } from './types'

/** Trailing options of every list method. */
export interface ListOptions {
	/** Collect across upstream pages until this many items (or the end). Without it: one page. */
	count?: number
	/** Resume from a previous page's `next_cursor`. */
	cursor?: string | null
	/** Aborts the call (and any paging in progress). */
	signal?: AbortSignal
}

/** A page of items that also iterates (asynchronously) over all items of the following pages. */
export type Page<Item> = PageData<Item> & AsyncIterable<Item>

/** Fetches one upstream page; `limit` is how many items are still wanted (a page-size hint). */
export type PageFetcher<Item> = (cursor: string | null, limit: number | undefined) => Promise<PageData<Item>>

/** Safety stop for cursors that never end (a misbehaving upstream must not loop forever). */
const MAX_PAGES = 200

/** Validates `count`: a positive integer, or undefined. */
export function checkCount(count: number | undefined): void {
	if (count === undefined) return
	if (!Number.isInteger(count) || count < 1)
		throw new IgArgumentError(`count must be a positive integer, got ${count}`)
}

/**
 * Runs a list method: one page, or with `count` as many pages as needed. When `count` cuts a
 * page short, `next_cursor` still points after that whole page (Instagram cursors are opaque).
 */
export async function paginate<Item>(
	fetchPage: PageFetcher<Item>,
	options: ListOptions = {}
): Promise<Page<Item>> {
	const { count } = options
	checkCount(count)
	const items: Item[] = []
	const seen = new Set<string>()
	let cursor = options.cursor ?? null
	for (let pages = 0; pages < MAX_PAGES; pages++) {
		const page = await fetchPage(cursor, count === undefined ? undefined : count - items.length)
		items.push(...page.items)
		// A repeated cursor would fetch the same page again: treat it as the end.
		cursor = page.next_cursor && !seen.has(page.next_cursor) ? page.next_cursor : null
		if (cursor) seen.add(cursor)
		if (count === undefined || items.length >= count || !cursor) break
	}
	if (count === undefined || items.length <= count) return makePage(items, cursor, fetchPage)
	// The iterator still yields the cut-off rest of the last page before fetching further pages.
	return makePage(items.slice(0, count), cursor, fetchPage, items.slice(count))
}

/**
 * Wraps items and a cursor as a `Page` whose iterator yields `items`, then `pending` (fetched but
 * beyond `count`), then every item of the following pages.
 */
export function makePage<Item>(
	items: Item[],
	nextCursor: string | null,
	fetchPage?: PageFetcher<Item>,
	pending: Item[] = []
): Page<Item> {
	const page = { items, next_cursor: nextCursor } as Page<Item>
	Object.defineProperty(page, Symbol.asyncIterator, {
		enumerable: false,
		value: async function* iterate(): AsyncGenerator<Item> {
			yield* items
			yield* pending
			const seen = new Set<string>()
			let cursor = nextCursor
			while (cursor && fetchPage && !seen.has(cursor)) {
				seen.add(cursor)
				const next = await fetchPage(cursor, undefined)
				yield* next.items
				cursor = next.next_cursor
			}
		}
	})
	return page
}

/** A complete list that has no further pages. */
export function singlePage<Item>(items: Item[]): Page<Item> {
	return makePage(items, null)
}

/** Adds fields (totals) to a page while keeping it iterable. */
export function withFields<Item, Extra extends object>(page: Page<Item>, extra: Extra): Page<Item> & Extra {
	return Object.assign(page, extra)
}
