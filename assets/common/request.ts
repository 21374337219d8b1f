/**
 * What every request of both pages carries (docs/api-contract.md, "Security"): the access token
 * from the page URL (`?token=`) as `Authorization: Bearer`, and `Content-Type: application/json`
 * on a JSON body (the servers refuse other posts). Requests go to the page's own origin.
 */

/** The access token of the page URL, or null. */
export function accessToken(search = window.location.search): string | null {
	return new URLSearchParams(search).get('token') || null
}

/** True when the page URL carried an access token. */
export function hasToken(): boolean {
	return accessToken() !== null
}

/**
 * Headers of a request: the token's `Authorization` when the page has one, the JSON content type
 * when `json` (a body follows), then `extra`.
 */
export function requestHeaders(
	options: { json?: boolean; token?: string | null; extra?: Record<string, string> } = {}
): Record<string, string> {
	const token = options.token === undefined ? accessToken() : options.token
	return {
		...(options.json ? { 'Content-Type': 'application/json' } : {}),
		...(token ? { Authorization: `Bearer ${token}` } : {}),
		...options.extra
	}
}
