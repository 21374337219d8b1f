/**
 * Opaque paging cursors. Instagram's cursors are base64 blobs the client only sends back; these encode a
 * list kind and an offset the same way, and refuse a cursor minted for another list.
 */

/** An opaque cursor for position `offset` in a list of kind `kind` (e.g. `followers`). */
export function encodeCursor(kind: string, offset: number): string {
	return `QVFD${Buffer.from(`${kind}:${offset}`).toString('base64url')}`
}

/** The offset a cursor of kind `kind` carries; 0 for no cursor; null for one that is malformed or foreign. */
export function decodeCursor(kind: string, cursor: string | null | undefined): number | null {
	if (cursor === null || cursor === undefined || cursor === '' || cursor === 'null') return 0
	if (!cursor.startsWith('QVFD')) return null
	const text = Buffer.from(cursor.slice(4), 'base64url').toString()
	const [cursorKind, offset] = text.split(':')
	if (cursorKind !== kind || offset === undefined || !/^\d{1,7}$/.test(offset)) return null
	return Number(offset)
}

/** One page of a list and the cursor of the next page (null at the end). */
export function pageOf<T>(
	items: readonly T[],
	kind: string,
	offset: number,
	size: number
): { page: T[]; nextCursor: string | null } {
	const page = items.slice(offset, offset + size)
	const end = offset + page.length
	return { page, nextCursor: end < items.length ? encodeCursor(kind, end) : null }
}

/** A page size from a query value: a whole number clamped to [1, max], else `fallback`. */
export function pageSize(value: string | null | undefined, fallback: number, max: number): number {
	const parsed = Number.parseInt(value ?? '', 10)
	if (!Number.isFinite(parsed) || parsed < 1) return fallback
	return Math.min(parsed, max)
}
