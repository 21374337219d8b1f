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
 *
 * What a misbehaving upstream cannot make a walk do: return a record twice (a record whose `pk` the
 * walk returned already is dropped, as jobs drop it), or end early. A page whose next cursor is one
 * the walk followed already (page after page would come again), or a run of `STALE_PAGES` pages
 * with no new record (a page served again under a new cursor each time) stops the walk: it returns
 * what it has with a `next_cursor` that continues right after it (never null: the list has not
 * ended), or, when it has nothing, fails with `ListStalledError` (`upstream_error`).
 */
import { IgApiError, IgArgumentError } from './errors'
import {
	keyReturned,
	ListStalledError,
	newWalk,
	type Position,
	type StallReason,
	stall,
	takeNew,
	type WalkState
} from './list-walk'
import type { PageData } from './types'

export { ListStalledError, STALE_PAGES, type StallReason } from './list-walk'

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
	return walk(fetchPage, options, shape, newWalk())
}

/**
 * One call of a walk (`state` is the walk's: a fresh one per call, or an iteration's across its
 * calls). A record whose key the walk returned already is dropped; the walk stops where Instagram
 * answers with a cursor it followed already or with `STALE_PAGES` pages in a row of nothing new
 * (`stall`), with a cursor that continues, or `ListStalledError` when this call has nothing.
 */
async function walk<Item>(
	fetchPage: PageFetcher<Item>,
	options: ListOptions,
	shape: 'paged' | 'whole',
	state: WalkState
): Promise<Page<Item>> {
	const { count } = options
	checkCount(count)
	const items: Item[] = []
	let stalled: StallReason | null = null
	let position: Position | null = decodePosition(options.cursor)
	if (shape === 'whole' && position.cursor !== null) throw foreignCursor()
	if (position.cursor) state.cursors.add(position.cursor)
	for (let pages = 0; position && pages < MAX_PAGES; pages++) {
		const at: Position = position
		const wanted = count === undefined ? undefined : count - items.length
		const limit = wanted === undefined ? undefined : at.skip + wanted
		const page: PageData<Item> = await (pages === 0 && options.cursor === at.cursor
			? fetchFromCallersCursor(fetchPage, at.cursor, limit)
			: fetchPage(at.cursor, limit))
		// The page may come back shorter than when the cursor was made: skip into the following pages.
		const rest = at.skip === 0 ? page.items : page.items.slice(at.skip)
		// A walk's first page needs no keys: they are made when a second page comes (`keyReturned`).
		const keys = pages === 0 && !state.keyed ? null : keyReturned(state, items)
		const { used, added } = takeNew(rest, items, count, keys)
		if (used < rest.length) {
			position = { cursor: at.cursor, skip: at.skip + used }
			break
		}
		stalled = stall(state, at, rest.length, added, page.next_cursor)
		if (stalled) {
			// Right after what was returned: the page that repeated is asked again, past its records.
			position = stalled === 'repeated_cursor' ? { cursor: at.cursor, skip: at.skip + used } : state.staleFrom
			break
		}
		const skipped = Math.max(0, at.skip - page.items.length)
		const next = page.next_cursor
		if (next) state.cursors.add(next)
		position = next ? { cursor: next, skip: skipped } : null
		if (count === undefined ? skipped === 0 : items.length >= count) break
	}
	if (stalled && items.length === 0) throw new ListStalledError(stalled)
	return makePage(items, position && encodePosition(position), fetchPage, shape, state)
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

/**
 * Wraps items and a cursor as a `Page` whose iterator yields `items`, then every item after the
 * cursor: one walk (`state`) across its calls, so a record comes once and a cursor that comes
 * round again, or pages with nothing new, end the iteration with `ListStalledError`.
 */
export function makePage<Item>(
	items: Item[],
	nextCursor: string | null,
	fetchPage?: PageFetcher<Item>,
	shape: 'paged' | 'whole' = 'paged',
	state: WalkState = newWalk()
): Page<Item> {
	const page = { items, next_cursor: nextCursor } as Page<Item>
	Object.defineProperty(page, Symbol.asyncIterator, {
		enumerable: false,
		value: async function* iterate(): AsyncGenerator<Item> {
			yield* items
			let cursor = nextCursor
			// The records of this page come before any the iteration fetches.
			if (cursor && fetchPage) keyReturned(state, items)
			while (cursor && fetchPage) {
				const next = await walk(fetchPage, { cursor }, shape, state)
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
