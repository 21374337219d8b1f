/**
 * Pages of list methods. A page is plain data `{ items, next_cursor }` (what JSON serialisation
 * keeps) that is also async-iterable over every item of every following page:
 *
 *   const page = await ig.friendships.getFollowers(pk, { count: 120 })  // pages upstream to 120
 *   for await (const user of await ig.friendships.getFollowers(pk)) ...   // all followers, lazily
 *
 * The rule every list keeps: walking a list with any sequence of `count` values, each call passing
 * the previous `next_cursor`, yields exactly the whole list in order, with no gap and no duplicate;
 * `next_cursor` is null only at the end. When `count` ends inside an upstream page, `next_cursor`
 * names that position (the upstream page's cursor plus how many of its items were returned), so the
 * next call fetches the page again and continues after them. Callers treat cursors as opaque.
 */
import { IgApiError, IgArgumentError } from './errors'
import type { PageData } from './types'

/** Trailing options of every list method. */
export interface ListOptions {
	/** Collect across upstream pages until this many items (or the end). Without it: the rest of one upstream page. */
	count?: number
	/** Resume from a previous page's `next_cursor`. */
	cursor?: string | null
	/** Aborts the call (and any paging in progress). */
	signal?: AbortSignal
}

/** A page of items that also iterates (asynchronously) over all items of the following pages. */
export type Page<Item> = PageData<Item> & AsyncIterable<Item>

/**
 * Fetches one upstream page starting at `cursor` (null: the first page); `limit` is a page-size hint
 * (how many items of this page are wanted), undefined for the upstream default.
 */
export type PageFetcher<Item> = (cursor: string | null, limit: number | undefined) => Promise<PageData<Item>>

/** Safety stop for cursors that never end (a misbehaving upstream must not loop forever). */
const MAX_PAGES = 200
/** Marks a cursor that points inside an upstream page (no Instagram cursor starts like this). */
const INSIDE_PAGE = '~p1.'
/** What every cursor of ours starts with: one that does but is not `INSIDE_PAGE` was damaged. */
const OUR_CURSOR = '~p'
const NOT_OURS = 'cursor is not a next_cursor this list returned'

/**
 * The error for a cursor this list cannot have returned (damaged, or another list's): a list method
 * that reads its own cursors refuses one instead of starting over or reading another list.
 */
export function foreignCursor(): IgArgumentError {
	return new IgArgumentError(NOT_OURS)
}
/** The largest in-page offset a cursor may carry. */
const MAX_OFFSET = 100_000

/** A position in a list: an upstream page's cursor and how many of that page's items come before it. */
interface Position {
	cursor: string | null
	skip: number
}

/** Validates `count`: a positive integer, or undefined. */
export function checkCount(count: number | undefined): void {
	if (count === undefined) return
	if (!Number.isInteger(count) || count < 1)
		throw new IgArgumentError(`count must be a positive integer, got ${count}`)
}

/** The cursor of a position: the upstream cursor itself at a page start, else an in-page cursor. */
function encodePosition(position: Position): string | null {
	if (position.skip === 0) return position.cursor
	const json = JSON.stringify({ c: position.cursor, o: position.skip })
	return INSIDE_PAGE + Buffer.from(json).toString('base64url')
}

/** The position a cursor names; an upstream cursor is the start of its page. */
function decodePosition(cursor: string | null | undefined): Position {
	if (!cursor) return { cursor: null, skip: 0 }
	if (!cursor.startsWith(OUR_CURSOR)) return { cursor, skip: 0 }
	if (!cursor.startsWith(INSIDE_PAGE)) throw foreignCursor()
	const encoded = cursor.slice(INSIDE_PAGE.length)
	let parsed: unknown
	try {
		if (/^[\w-]+$/.test(encoded)) parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString())
	} catch {
		parsed = undefined
	}
	const { c, o } = (parsed ?? {}) as { c?: unknown; o?: unknown }
	const validCursor = c === null || (typeof c === 'string' && c !== '')
	if (!validCursor || !Number.isInteger(o) || (o as number) < 1 || (o as number) > MAX_OFFSET)
		throw foreignCursor()
	return { cursor: c as string | null, skip: o as number }
}

/**
 * Runs a list method from `options.cursor`: without `count` the rest of one upstream page, with
 * `count` as many pages as needed for that many items. See the rule at the top of this file.
 * `whole`: Instagram sends this list in one piece (likers, search results, stories), so its only
 * cursors point inside that piece; any other would go upstream, be ignored there, and bring the
 * first records back as if they came after the cursor, so it is refused.
 */
export async function paginate<Item>(
	fetchPage: PageFetcher<Item>,
	options: ListOptions = {},
	shape: 'paged' | 'whole' = 'paged'
): Promise<Page<Item>> {
	const { count } = options
	checkCount(count)
	const items: Item[] = []
	const seen = new Set<string>()
	let position: Position | null = decodePosition(options.cursor)
	if (shape === 'whole' && position.cursor !== null) throw foreignCursor()
	if (position.cursor) seen.add(position.cursor)
	for (let pages = 0; position && pages < MAX_PAGES; pages++) {
		const wanted = count === undefined ? undefined : count - items.length
		const limit = wanted === undefined ? undefined : position.skip + wanted
		const page: PageData<Item> = await (pages === 0 && options.cursor === position.cursor
			? fetchFromCallersCursor(fetchPage, position.cursor, limit)
			: fetchPage(position.cursor, limit))
		// The page may come back shorter than when the cursor was made: skip into the following pages.
		const rest = position.skip === 0 ? page.items : page.items.slice(position.skip)
		const taken = wanted === undefined || wanted >= rest.length ? rest : rest.slice(0, wanted)
		items.push(...taken)
		if (taken.length < rest.length) {
			position = { cursor: position.cursor, skip: position.skip + taken.length }
			break
		}
		const skipped = Math.max(0, position.skip - page.items.length)
		// A repeated cursor would fetch the same page again: treat it as the end.
		const next = page.next_cursor && !seen.has(page.next_cursor) ? page.next_cursor : null
		if (next) seen.add(next)
		position = next ? { cursor: next, skip: skipped } : null
		if (count === undefined ? skipped === 0 : items.length >= count) break
	}
	return makePage(items, position && encodePosition(position), fetchPage, shape)
}

/**
 * The first page from a cursor the caller gave as Instagram's own: Instagram refusing the request
 * with a 400 ("Invalid max_id") means the cursor, so the error names it, as for a damaged cursor of
 * ours. The upstream status decides, not the kind the answer was read as (an unexplained 400 is
 * `upstream_error`); a 400 read as something known (private account, rate limit) stays that.
 */
async function fetchFromCallersCursor<Item>(
	fetchPage: PageFetcher<Item>,
	cursor: string | null,
	limit: number | undefined
): Promise<PageData<Item>> {
	try {
		return await fetchPage(cursor, limit)
	} catch (error) {
		if (
			cursor !== null &&
			error instanceof IgApiError &&
			(error.kind === 'bad_request' || error.kind === 'upstream_error') &&
			error.upstreamStatus === 400
		)
			throw new IgArgumentError(`${NOT_OURS}: Instagram refused it (${upstreamWords(error.message)})`)
		throw error
	}
}

/** An Instagram error's own words, without smkit's prefix and the request it names. */
function upstreamWords(message: string): string {
	return message.replace(/^Instagram: /, '').replace(/\s*\((?:[^,()]*, )?HTTP \d+ from [^)]*\)$/, '')
}

/**
 * Runs a list Instagram sends in one piece (likers, search results, stories): `fetchAll` fetches it,
 * `count` slices it and `next_cursor` points inside it; any other cursor is refused (`whole` above).
 */
export function paginateWhole<Item>(
	fetchAll: () => Promise<Item[]>,
	options: ListOptions = {}
): Promise<Page<Item>> {
	return paginate(async () => ({ items: await fetchAll(), next_cursor: null }), options, 'whole')
}

/** Wraps items and a cursor as a `Page` whose iterator yields `items`, then every item after the cursor. */
export function makePage<Item>(
	items: Item[],
	nextCursor: string | null,
	fetchPage?: PageFetcher<Item>,
	shape: 'paged' | 'whole' = 'paged'
): Page<Item> {
	const page = { items, next_cursor: nextCursor } as Page<Item>
	Object.defineProperty(page, Symbol.asyncIterator, {
		enumerable: false,
		value: async function* iterate(): AsyncGenerator<Item> {
			yield* items
			const seen = new Set<string>()
			let cursor = nextCursor
			while (cursor && fetchPage && !seen.has(cursor)) {
				seen.add(cursor)
				const next = await paginate(fetchPage, { cursor }, shape)
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
