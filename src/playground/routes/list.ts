/**
 * Lists in envelopes (docs/api-contract.md, "Data"): `data` is the array of records, so a client can post an
 * envelope straight to the CSV export, and `next_cursor` sits beside it for `?cursor=`.
 */
import type { PageData } from '../../client/types'
import { ok, type SuccessBody } from '../envelope'

/** A page as a list envelope; `describe` gets the item count for the message. */
export function okPage<Item>(page: PageData<Item>, describe: (count: number) => string): SuccessBody<Item[]> {
	return ok(page.items, describe(page.items.length), { next_cursor: page.next_cursor })
}

/** "1 result", "12 results" (`pluralNoun` for irregular plurals: "stories"). */
export const plural = (count: number, noun: string, pluralNoun = `${noun}s`) =>
	`${count} ${count === 1 ? noun : pluralNoun}`
