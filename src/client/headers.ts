/**
 * Request headers Instagram expects (docs/instagram.md, "Headers of logged-in requests", "Anonymous
 * requests"): the authenticated browser profile
 * with its fixed-order cookie header, the anonymous web/mobile profiles, and the `jazoest` field.
 * No HTTP/2 pseudo-headers (`:authority`, `:path`) as ordinary headers: a browser never sends them.
 */

/** Web app id of instagram.com (authenticated and anonymous web API). */
export const WEB_APP_ID = '1217981644879628'
/** App id the anonymous mobile API (`i.instagram.com`) expects. */
export const MOBILE_APP_ID = '936619743392459'
/** Desktop Chrome 142, used when `USER_AGENT` is not set. */
export const DEFAULT_USER_AGENT =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7632.110 Safari/537.36'
/** `x-instagram-ajax` until the warm-up reads the live server revision. */
export const DEFAULT_AJAX_REVISION = '1034642761'

/** Desktop Chrome profiles the anonymous transport rotates through. */
const ANONYMOUS_USER_AGENTS = [
	DEFAULT_USER_AGENT,
	'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.122 Safari/537.36',
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.207 Safari/537.36'
]

/** The mutable session an authenticated client sends (credentials plus values Instagram updates). */
export interface Session {
	sessionId: string
	csrfToken: string
	dsUserId: string
	mid?: string
	igDid?: string
	datr?: string
	rur?: string
	userAgent?: string
	igWwwClaim?: string
	ajaxRevision?: string
}

/** The session's secret values (cookies and the www-claim; the viewer pk `dsUserId` is public), empty ones left out. */
export function sessionSecrets(session: Session): string[] {
	// The www-claim is Instagram's signature over this session (its default '0' is too short to count).
	return [
		session.sessionId,
		session.csrfToken,
		session.mid,
		session.igDid,
		session.datr,
		session.rur,
		session.igWwwClaim
	].filter((value): value is string => Boolean(value))
}

/** `"2"` followed by the decimal sum of the CSRF token's character codes (Instagram's form check). */
export function jazoest(csrfToken: string): string {
	let sum = 0
	for (const character of csrfToken) sum += character.codePointAt(0) ?? 0
	return `2${sum}`
}

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded'

/** The form-urlencoded body of a POST: the fields with a value, plus `jazoest` when logged in. */
export function formBody(
	fields: Record<string, string | number | boolean | null | undefined> = {},
	csrfToken?: string
): string {
	const form = new URLSearchParams()
	for (const [name, value] of Object.entries(fields))
		if (value !== undefined && value !== null) form.set(name, String(value))
	if (csrfToken !== undefined) form.set('jazoest', jazoest(csrfToken))
	return form.toString()
}

/** `headers` with the form content type (a copy when they carry another one). */
export function withFormContentType(headers: Headers): Headers {
	if (headers.get('content-type') === FORM_CONTENT_TYPE) return headers
	const copy = new Headers(headers)
	copy.set('content-type', FORM_CONTENT_TYPE)
	return copy
}

/**
 * The `sec-ch-ua*` client hints derived from a user agent (docs/instagram.md, "Headers of logged-in
 * requests").
 */
export function clientHints(userAgent: string): Record<string, string> {
	const platform = /Macintosh|Mac OS/.test(userAgent)
		? 'macOS'
		: /Linux/.test(userAgent)
			? 'Linux'
			: 'Windows'
	const chrome = /Chrome\/(\d+)\.([\d.]+)/.exec(userAgent)
	const major = chrome?.[1] ?? '142'
	const fullVersion = chrome ? `${chrome[1]}.${chrome[2]}` : '142.0.7632.110'
	const platformVersion = platform === 'macOS' ? '15.5.0' : platform === 'Linux' ? '6.8.0' : '19.0.0'
	return {
		'sec-ch-ua': `"Chromium";v="${major}", "Google Chrome";v="${major}", "Not_A Brand";v="99"`,
		'sec-ch-ua-full-version-list': `"Chromium";v="${fullVersion}", "Google Chrome";v="${fullVersion}", "Not_A Brand";v="99.0.0.0"`,
		'sec-ch-ua-mobile': '?0',
		'sec-ch-ua-model': '""',
		'sec-ch-ua-platform': `"${platform}"`,
		'sec-ch-ua-platform-version': `"${platformVersion}"`
	}
}

/** The cookie header in Instagram's fixed order; optional cookies are omitted when empty. */
export function cookieHeader(session: Session): string {
	const pairs: [string, string | undefined][] = [
		['ig_did', session.igDid],
		['mid', session.mid],
		['ig_nrcb', '1'],
		['datr', session.datr],
		['dpr', '1.5'],
		['ds_user_id', session.dsUserId],
		['ps_l', '1'],
		['ps_n', '1'],
		['csrftoken', session.csrfToken],
		['sessionid', session.sessionId],
		['rur', session.rur ? `"${session.rur.replace(/^"|"$/g, '')}"` : undefined],
		['wd', '1707x932']
	]
	return pairs
		.filter((pair): pair is [string, string] => Boolean(pair[1]))
		.map(([name, value]) => `${name}=${value}`)
		.join('; ')
}

/**
 * Headers of every authenticated request, GET and POST alike (docs/instagram.md, "Headers of logged-in
 * requests").
 */
export function authenticatedHeaders(session: Session, origin: string): Record<string, string> {
	const userAgent = session.userAgent || DEFAULT_USER_AGENT
	return {
		accept: '*/*',
		'accept-encoding': 'gzip, deflate, br, zstd',
		'accept-language': 'en-US,en;q=0.9',
		'cache-control': 'no-cache',
		pragma: 'no-cache',
		priority: 'u=1, i',
		'content-type': 'application/x-www-form-urlencoded',
		origin,
		referer: `${origin}/`,
		'sec-ch-prefers-color-scheme': 'dark',
		...clientHints(userAgent),
		'sec-fetch-dest': 'empty',
		'sec-fetch-mode': 'cors',
		'sec-fetch-site': 'same-origin',
		'user-agent': userAgent,
		'x-asbd-id': '359341',
		'x-csrftoken': session.csrfToken,
		'x-ig-app-id': WEB_APP_ID,
		'x-ig-www-claim': session.igWwwClaim || '0',
		'x-instagram-ajax': session.ajaxRevision || DEFAULT_AJAX_REVISION,
		'x-requested-with': 'XMLHttpRequest',
		cookie: cookieHeader(session)
	}
}

/** Which anonymous profile a public request uses. */
export type AnonymousProfile = 'html' | 'web' | 'mobile' | 'graphql_docid'

/**
 * Headers of an anonymous request: never a cookie, a rotating desktop user agent (docs/instagram.md,
 * "Anonymous requests").
 */
export function anonymousHeaders(
	profile: AnonymousProfile,
	origin: string,
	rotation: number
): Record<string, string> {
	const userAgent = ANONYMOUS_USER_AGENTS[rotation % ANONYMOUS_USER_AGENTS.length] as string
	const base: Record<string, string> = {
		accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
		'accept-language': 'en-US,en;q=0.9',
		'accept-encoding': 'gzip, deflate, br',
		'cache-control': 'no-cache',
		'sec-fetch-dest': 'document',
		'sec-fetch-mode': 'navigate',
		'sec-fetch-site': 'none',
		'sec-fetch-user': '?1',
		'upgrade-insecure-requests': '1',
		'user-agent': userAgent,
		...clientHints(userAgent)
	}
	if (profile === 'html') return base
	const api: Record<string, string> = {
		...base,
		accept: '*/*',
		'x-ig-app-id': profile === 'mobile' ? MOBILE_APP_ID : WEB_APP_ID,
		'x-requested-with': 'XMLHttpRequest',
		'sec-fetch-dest': 'empty',
		'sec-fetch-mode': 'cors',
		'sec-fetch-site': profile === 'mobile' ? 'same-site' : 'same-origin',
		referer: `${origin}/`
	}
	delete api['sec-fetch-user']
	delete api['upgrade-insecure-requests']
	if (profile === 'graphql_docid') {
		api['content-type'] = 'application/x-www-form-urlencoded'
		api['x-fb-lsd'] = 'AVqbxe3J_YA'
		api['x-asbd-id'] = '129477'
	}
	return api
}

/**
 * The headers one client's requests carry, kept as `Headers`: the session's are built again only
 * when the session changes (a login, a cookie Instagram rotates, the warm-up's values), the
 * anonymous ones once per profile and user agent. About 25 headers and the cookie line: building
 * them per request and handing `fetch` a plain object (which it converts every time) cost 10-20 us
 * per request more than a `Headers` kept (README, "Performance"). Shared by concurrent requests:
 * never modify what these return.
 */
export class RequestHeaders {
	#session: Headers | undefined
	readonly #anonymous = new Map<string, Headers>()
	#rotation = 0

	constructor(private readonly origin: string) {}

	/** The headers of an authenticated request with `session` as it is now. */
	ofSession(session: Session): Headers {
		this.#session ??= new Headers(authenticatedHeaders(session, this.origin))
		return this.#session
	}

	/** The session changed: the next authenticated request builds its headers again. */
	sessionChanged(): void {
		this.#session = undefined
	}

	/** The headers of an anonymous request of `profile`, with the next user agent of the rotation. */
	anonymous(profile: AnonymousProfile): Headers {
		const rotation = this.#rotation++ % ANONYMOUS_USER_AGENTS.length
		const key = `${profile} ${rotation}`
		let headers = this.#anonymous.get(key)
		if (!headers) {
			headers = new Headers(anonymousHeaders(profile, this.origin, rotation))
			this.#anonymous.set(key, headers)
		}
		return headers
	}
}

/** Cookie names Instagram may update, mapped to session fields. */
const COOKIE_FIELDS: Record<string, keyof Session> = {
	csrftoken: 'csrfToken',
	sessionid: 'sessionId',
	mid: 'mid',
	ds_user_id: 'dsUserId',
	ig_did: 'igDid',
	datr: 'datr',
	rur: 'rur'
}

/** What a response changed in the session. */
export interface SessionUpdate {
	/** The response emptied the `sessionid` cookie: Instagram no longer accepts the session. */
	ended: boolean
	/** A cookie or the www-claim got a new value (headers built from the session are stale). */
	changed: boolean
}

/**
 * Applies `Set-Cookie` and `x-ig-set-www-claim` from a response to `session` (Instagram updates
 * cookies as it goes) and says what changed. A session is `ended` when the response empties the
 * `sessionid` cookie, even when Instagram answered the request (as to an anonymous visitor).
 */
export function absorbSessionUpdates(session: Session, headers: Headers): SessionUpdate {
	const update = { ended: false, changed: false }
	for (const cookie of headers.getSetCookie()) {
		const [pair = ''] = cookie.split(';')
		const separator = pair.indexOf('=')
		const field = COOKIE_FIELDS[pair.slice(0, separator).trim()]
		const value = pair
			.slice(separator + 1)
			.trim()
			.replace(/^"|"$/g, '')
		// An emptied or "delete" cookie is Instagram logging the session out; keep what we have.
		const emptied = !value || value === 'delete' || value === '""'
		if (field === 'sessionId' && separator > 0 && emptied) update.ended = true
		if (field && separator > 0 && !emptied && session[field] !== value) {
			session[field] = value
			update.changed = true
		}
	}
	const claim = headers.get('x-ig-set-www-claim')
	if (claim && session.igWwwClaim !== claim) {
		session.igWwwClaim = claim
		update.changed = true
	}
	return update
}
