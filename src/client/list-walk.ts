/**
 * The guard of a list walk (pagination.ts): what one walk has seen (the cursors it followed, the
 * records it returned, its run of pages with nothing new) and when the upstream's pages stop
 * leading anywhere new, so a misbehaving upstream can neither repeat a record nor end a list early.
 */
import { IgApiError } from './errors'

/** A position in a list: an upstream page's cursor and how many of that page's items come before it. */
export interface Position {
	cursor: string | null
	skip: number
}

/** Pages in a row without a new record after which a walk stops (see the top of this file). */
export const STALE_PAGES = 5

/** Why a walk stopped before the end of its list. */
export type StallReason = 'repeated_cursor' | 'no_new_records'

/**
 * Instagram's pages stopped leading anywhere new (a repeated cursor, pages of records returned
 * already) before the walk returned anything: an upstream failure, which the same walk may get
 * past later (a job asks again after a back-off). `reason` says which.
 */
export class ListStalledError extends IgApiError {
	override name = 'ListStalledError'
	constructor(readonly reason: StallReason) {
		super(
			'upstream_error',
			reason === 'repeated_cursor'
				? 'Instagram gave the same cursor again: the list cannot go on from here for now'
				: `Instagram gave ${STALE_PAGES} pages in a row without a new record: the list cannot go on from here for now`,
			{ upstreamStatus: 200 }
		)
	}
}

/** What one walk has seen: the cursors it followed, the keys it returned, its pages with nothing new. */
export interface WalkState {
	cursors: Set<string>
	keys: Set<string>
	/**
	 * Whether `keys` holds the records returned so far. A walk's first page is taken without keys
	 * (most calls end there, and a page of 100 records paid 4 us for them); they are made from the
	 * records returned before the walk takes a second page (`keyReturned`).
	 */
	keyed: boolean
	/** Pages in a row whose records were all returned already, and where that run began. */
	stale: number
	staleFrom: Position | null
}

export const newWalk = (): WalkState => ({
	cursors: new Set(),
	keys: new Set(),
	keyed: false,
	stale: 0,
	staleFrom: null
})

/** The walk's keys, made first from `returned` (the records returned so far) when not made yet. */
export function keyReturned(state: WalkState, returned: readonly unknown[]): Set<string> {
	if (!state.keyed) {
		for (const item of returned) {
			const key = recordKey(item)
			if (key !== undefined) state.keys.add(key)
		}
		state.keyed = true
	}
	return state.keys
}

/**
 * A record's identity, as jobs key records: its `pk` (users, media, comments, stories). A record
 * without one (a thread, a hashtag, a collection) is never taken for a repeat.
 */
function recordKey(item: unknown): string | undefined {
	const pk = item !== null && typeof item === 'object' ? (item as { pk?: unknown }).pk : undefined
	return (typeof pk === 'string' && pk !== '') || typeof pk === 'number' ? String(pk) : undefined
}

/**
 * Moves the records of `rest` whose key is new to `items`, until `count` is reached (a duplicate
 * after that is passed over, so the next call does not begin with it). `used`: how many of `rest`
 * were looked at; `added`: how many were new. `keys` null: the walk's first page, taken as it is.
 */
export function takeNew<Item>(
	rest: readonly Item[],
	items: Item[],
	count: number | undefined,
	keys: Set<string> | null
): { used: number; added: number } {
	// The walk's first page (no keys yet): nothing came before it.
	if (keys === null) {
		const wanted = count === undefined ? rest.length : Math.max(0, count - items.length)
		const taken = wanted >= rest.length ? rest : rest.slice(0, wanted)
		items.push(...taken)
		return { used: taken.length, added: taken.length }
	}
	let used = 0
	let added = 0
	for (const item of rest) {
		const key = recordKey(item)
		const repeated = key !== undefined && keys.has(key)
		if (!repeated && count !== undefined && items.length >= count) break
		used++
		if (repeated) continue
		if (key !== undefined) keys.add(key)
		items.push(item)
		added++
	}
	return { used, added }
}

/**
 * Why the walk cannot go on after the page at `at`, if so: its next cursor is one the walk followed
 * already (that page would come again, and again), or it is the `STALE_PAGES`th page in a row whose
 * records all came before (an empty page counts neither way). Keeps the run of such pages in `state`.
 */
export function stall(
	state: WalkState,
	at: Position,
	looked: number,
	added: number,
	next: string | null
): StallReason | null {
	if (next && state.cursors.has(next)) return 'repeated_cursor'
	if (added > 0) {
		state.stale = 0
		state.staleFrom = null
	} else if (looked > 0) {
		if (state.stale === 0) state.staleFrom = at
		state.stale++
	}
	return state.stale >= STALE_PAGES ? 'no_new_records' : null
}
