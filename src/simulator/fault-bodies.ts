/**
 * The faults of a list's pages (faults.ts), as a misbehaving upstream or proxy answers them:
 *
 * - `repeat_cursor`: the page is answered with the request's own cursor as its next one.
 * - `stale_page`: the page is answered with a new cursor each time that leads to the same page
 *   again (the same position, another spelling), so a walk gets records it has already, page
 *   after page, under cursors it never saw. Once the rule stops, such a cursor reads as that page's.
 *   A cursor that is not the simulator's own kind (a user feed's media id) cannot be spelled anew:
 *   it comes back as it was, a repeated cursor.
 * - `wrong_shape`: a 200 answer of valid JSON without the list (`{"status":"ok"}`, `null`, `""`).
 *
 * The answer is edited as text, so the exact 64-bit numbers of the records stay as they were.
 */
import type { ActiveFault, FaultKind } from './faults'

/** The fault kinds this file answers. */
export const PAGE_FAULTS: ReadonlySet<FaultKind> = new Set(['repeat_cursor', 'stale_page', 'wrong_shape'])

/** Where a request carries its list cursor (query or form), besides GraphQL's `variables.after`. */
const CURSOR_PARAMS = ['max_id', 'min_id', 'cursor', 'continuation_token', 'after']

/** The keys under which an answer carries the cursor of the next page. */
const NEXT_CURSOR =
	/"(next_max_id|next_min_id|next_min_child_cursor|end_cursor|oldest_cursor|continuation_token)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g

/** The simulator's own cursors inside a cursor text (cursor.ts): `QVFD` and base64url. */
const SIMULATOR_CURSOR = /QVFD([A-Za-z0-9_-]+)/g

/**
 * The answer to a request hit by `fault`, one of `PAGE_FAULTS`. `route` answers the request as the
 * simulator would; it is not called for `wrong_shape`.
 */
export async function answerWithPageFault(
	fault: ActiveFault,
	request: Request,
	url: URL,
	route: () => Promise<Response>
): Promise<Response> {
	if (fault.kind === 'wrong_shape') return jsonResponse(fault.body ?? '{"status":"ok"}', 200)
	const cursor = await requestCursor(request.clone(), url)
	const response = await route()
	if (cursor === null || response.status !== 200) return response
	const next = fault.kind === 'repeat_cursor' ? cursor : respelled(cursor, fault.hits)
	const text = await response.text()
	const edited = text.replace(
		NEXT_CURSOR,
		(_match, key: string, colon: string) => `"${key}"${colon}${JSON.stringify(next)}`
	)
	return jsonResponse(edited, response.status)
}

/** The list cursor a request was sent with, or null (a first page). */
async function requestCursor(request: Request, url: URL): Promise<string | null> {
	const form = request.method === 'POST' ? new URLSearchParams(await request.text()) : new URLSearchParams()
	for (const params of [url.searchParams, form]) {
		for (const name of CURSOR_PARAMS) {
			const value = params.get(name)
			if (value) return value
		}
		const variables = params.get('variables')
		if (variables) {
			try {
				const after = (JSON.parse(variables) as { after?: unknown }).after
				if (typeof after === 'string' && after) return after
			} catch {
				// Not JSON: the route refuses it, the fault changes nothing.
			}
		}
	}
	return null
}

/** `cursor` spelled anew (`hit` makes it unique) for the same position: `kind:offset:hit`. */
function respelled(cursor: string, hit: number): string {
	return cursor.replace(SIMULATOR_CURSOR, (_match, encoded: string) => {
		const [kind, offset] = Buffer.from(encoded, 'base64url').toString().split(':')
		return `QVFD${Buffer.from(`${kind}:${offset}:${hit}`).toString('base64url')}`
	})
}

function jsonResponse(text: string, status: number): Response {
	return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8' } })
}
