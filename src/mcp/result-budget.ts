/**
 * How big one tool result may be. Assistants cap what a tool returns (Claude Code keeps at most
 * 50,000 characters of a result in the conversation and 25,000 tokens in all), and a list of 200
 * posts is over 400,000 characters of JSON. A list tool therefore returns fewer items than asked
 * when they would not fit, never a cut record: its `next_cursor` continues right after the last
 * item returned, so walking the list still yields every record once.
 */

/**
 * The most characters of JSON text a list result carries (its `structuredContent` is the same
 * JSON): under Claude Code's 50,000, about 12,000 tokens. A single item larger than this still
 * comes alone (it is never cut), which no Instagram record comes near.
 */
export const MAX_RESULT_CHARS = 40_000

/** {@link MAX_RESULT_CHARS} as descriptions say it: `40,000 characters`. */
export const RESULT_LIMIT_TEXT = `${String(MAX_RESULT_CHARS).replace(/\B(?=(\d{3})+$)/g, ',')} characters`

/**
 * Room kept for a `next_cursor` longer than the one measured: after fewer items, the cursor points
 * inside an upstream page, which the client writes as the page's cursor plus an offset.
 */
const CURSOR_ROOM = 3_000

/** The length of a value's JSON text. */
export const jsonLength = (value: unknown): number => JSON.stringify(value)?.length ?? 4

/**
 * How many of `items`, from the first, fit in `room` characters as the elements of a JSON array
 * (the commas between them counted); at least one when there is one, so a walk always moves on.
 */
export function itemsThatFit(items: readonly unknown[], room: number): number {
	let used = 0
	for (let index = 0; index < items.length; index++) {
		used += jsonLength(items[index]) + (index > 0 ? 1 : 0)
		if (used > room) return Math.max(1, index)
	}
	return items.length
}

/** A page as JSON: `{ items, next_cursor, ...fields }`. */
type JsonPage = { items: unknown[]; next_cursor?: unknown } & Record<string, unknown>

const isPage = (value: unknown): value is JsonPage =>
	typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items)

/**
 * A page of a list within {@link MAX_RESULT_CHARS}: `fetch(count)` runs the list call from the
 * caller's cursor (`count` undefined: the caller's own `count`) and resolves to its JSON. When the
 * page is too long, the call runs again from the same cursor for only the items that fit, so the
 * list itself sets `next_cursor` after the last one (the client's rule: any sequence of counts walks
 * a list whole, without gap or repeat). Each retry asks for fewer items, down to one.
 */
export async function pageWithinBudget(fetch: (count?: number) => Promise<unknown>): Promise<unknown> {
	let page = await fetch()
	while (isPage(page) && page.items.length > 1 && jsonLength(page) > MAX_RESULT_CHARS) {
		const frame = jsonLength({ ...page, items: [] }) + CURSOR_ROOM
		const count = Math.min(page.items.length - 1, itemsThatFit(page.items, MAX_RESULT_CHARS - frame))
		page = await fetch(count)
	}
	return page
}
