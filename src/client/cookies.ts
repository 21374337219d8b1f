/**
 * Session import: a browser's cookies in the three forms people have (a Netscape `cookies.txt`
 * file as browser extensions and yt-dlp write it, a JSON export — an array of `{name, value,
 * domain}` or `{cookies: [...]}`, or Cookie Quick Manager's `Name raw` fields — or a pasted
 * `Cookie:` header), reduced to instagram.com's
 * cookies and mapped to the environment variables of the session.
 *
 * Nothing here prints or returns a cookie value in a message: errors name cookies, never values.
 */

/** One cookie of an export. `domain` is undefined for a pasted header (no domain is given). */
export interface ImportedCookie {
	name: string
	value: string
	domain?: string
	/** Seconds since the epoch; undefined or 0 for a session cookie. */
	expires?: number
}

/** The format an import was read as. */
export type CookieFormat = 'netscape' | 'json' | 'header'

/** Cookie name → environment variable, the three required ones first. */
export const SESSION_COOKIE_VARIABLES = {
	sessionid: 'SESSION_ID',
	csrftoken: 'CSRF_TOKEN',
	ds_user_id: 'DS_USER_ID',
	mid: 'MID',
	ig_did: 'IG_DID',
	datr: 'DATR',
	rur: 'RUR'
} as const

/** Every variable an import may write, and `smkit logout` removes (IG_WWW_CLAIM belongs to the session too). */
export const SESSION_VARIABLES = [...Object.values(SESSION_COOKIE_VARIABLES), 'IG_WWW_CLAIM'] as const

const REQUIRED = ['sessionid', 'csrftoken', 'ds_user_id'] as const

/** A cookie import that cannot be used; the message names cookies and formats, never values. */
export class CookieImportError extends Error {
	override name = 'CookieImportError'
}

/** What an import yields: the variables to store and what was seen (names and counts only). */
export interface SessionImport {
	format: CookieFormat
	/** SESSION_ID, CSRF_TOKEN, DS_USER_ID and any of MID, IG_DID, DATR, RUR present. */
	variables: Record<string, string>
	/** instagram.com cookies read (all names, used or not). */
	instagramCookies: number
	/** Cookies of other sites that were left out. */
	ignoredCookies: number
}

/** Whether a cookie domain is instagram.com or one of its subdomains (`.instagram.com`, `www.instagram.com`). */
export function isInstagramDomain(domain: string): boolean {
	const host = domain.trim().toLowerCase().replace(/^\./, '')
	return host === 'instagram.com' || host.endsWith('.instagram.com')
}

/** Guesses the format: JSON when it parses as an array or object, Netscape when a line has 7 tab-separated fields, else a header. */
export function detectCookieFormat(text: string): CookieFormat {
	const trimmed = text.trim()
	if (trimmed.startsWith('[') || trimmed.startsWith('{')) return 'json'
	const lines = trimmed.split(/\r?\n/)
	if (lines.some((line) => /^# ?Netscape HTTP Cookie File/i.test(line))) return 'netscape'
	if (lines.some((line) => line.replace(/^#HttpOnly_/, '').split('\t').length >= 7)) return 'netscape'
	return 'header'
}

/** Reads a Netscape cookies.txt: `domain flag path secure expiry name value`, `#HttpOnly_` prefix allowed. */
export function parseNetscapeCookies(text: string): ImportedCookie[] {
	const cookies: ImportedCookie[] = []
	for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
		const line = rawLine.startsWith('#HttpOnly_') ? rawLine.slice('#HttpOnly_'.length) : rawLine
		if (!line.trim() || line.startsWith('#')) continue
		const fields = line.split('\t')
		if (fields.length < 7) continue
		const [domain = '', , , , expiry = '0', name = ''] = fields
		// A value may itself contain tabs only in malformed files; keep what follows the name.
		const value = fields.slice(6).join('\t').trim()
		const expires = Number(expiry)
		cookies.push({ name: name.trim(), value, domain, expires: Number.isFinite(expires) ? expires : 0 })
	}
	return cookies
}

/**
 * A cookie of Cookie Quick Manager, Firefox's cookie extension, whose JSON export names its fields
 * `Name raw`, `Content raw`, `Host raw` (a URL: `https://.instagram.com/`) and `Expires raw`
 * (seconds as text, `0` for a session cookie).
 */
function quickManagerCookie(record: Record<string, unknown>): ImportedCookie | undefined {
	const name = record['Name raw']
	const value = record['Content raw']
	if (typeof name !== 'string' || typeof value !== 'string') return undefined
	const host = typeof record['Host raw'] === 'string' ? record['Host raw'] : ''
	const expires = Number(record['Expires raw'] ?? 0)
	return {
		name: name.trim(),
		value: value.trim(),
		domain: host.replace(/^[a-z]+:\/\//i, '').replace(/[/:].*$/, ''),
		expires: Number.isFinite(expires) && expires > 0 ? expires : 0
	}
}

/**
 * Reads a JSON export: an array of cookies, or an object with a `cookies` array (EditThisCookie,
 * Cookie-Editor, Playwright), or Cookie Quick Manager's array.
 */
export function parseJsonCookies(text: string): ImportedCookie[] {
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		throw new CookieImportError('The cookie export is not valid JSON')
	}
	const list = Array.isArray(parsed) ? parsed : (parsed as { cookies?: unknown } | null)?.cookies
	if (!Array.isArray(list))
		throw new CookieImportError('The JSON cookie export must be an array of {name, value, domain} objects')
	const cookies: ImportedCookie[] = []
	for (const entry of list) {
		if (typeof entry !== 'object' || entry === null) continue
		const record = entry as Record<string, unknown>
		const quickManager = quickManagerCookie(record)
		if (quickManager) {
			cookies.push(quickManager)
			continue
		}
		if (typeof record.name !== 'string' || typeof record.value !== 'string') continue
		const expires = Number(record.expirationDate ?? record.expires ?? record.expiry ?? 0)
		cookies.push({
			name: record.name.trim(),
			value: record.value.trim(),
			domain:
				typeof record.domain === 'string'
					? record.domain
					: typeof record.host === 'string'
						? record.host
						: '',
			expires: Number.isFinite(expires) && expires > 0 ? expires : 0
		})
	}
	return cookies
}

/** Reads a pasted header: `Cookie: a=b; c=d` or just `a=b; c=d` (several lines are joined). */
export function parseCookieHeader(text: string): ImportedCookie[] {
	const joined = text
		.split(/\r?\n/)
		.map((line) => line.trim().replace(/^cookie\s*:\s*/i, ''))
		.filter(Boolean)
		.join('; ')
	const cookies: ImportedCookie[] = []
	for (const part of joined.split(';')) {
		const separator = part.indexOf('=')
		if (separator <= 0) continue
		cookies.push({ name: part.slice(0, separator).trim(), value: part.slice(separator + 1).trim() })
	}
	return cookies
}

/** The longest `--cookies` argument a message shows back: longer, it is pasted text rather than a path. */
const LONGEST_SHOWN_PATH = 200

/**
 * Whether a text given where a file name is expected (`--cookies`) may be shown back in a message:
 * only when it looks like a plain path. That is at most 200 characters, none of `=` `;` (a Cookie
 * header's), a tab or line break (a cookies.txt line's), `{` `[` `"` (a JSON export's), and no
 * session cookie's name (sessionid, csrftoken, ds_user_id, mid, ig_did, datr, rur) as a word of it
 * (as a cookies.txt line copied with spaces for tabs has). Anything else may be the cookies
 * themselves, holding the session's values, and is never echoed.
 */
export function looksLikePlainPath(text: string): boolean {
	if (text.length > LONGEST_SHOWN_PATH || /[=;\t\r\n{["]/.test(text)) return false
	const names = Object.keys(SESSION_COOKIE_VARIABLES).join('|')
	return !new RegExp(`(?:^|[^a-z0-9])(?:${names})(?![a-z0-9])`, 'i').test(text)
}

/** A value the environment file and a Cookie header can carry: printable ASCII, no spaces, separators or quotes (so the env file can hold it verbatim). */
export function isUsableValue(value: string): boolean {
	return value.length > 0 && value.length <= 4096 && /^[\x21-\x7e]+$/.test(value) && !/[;"']/.test(value)
}

/**
 * Turns exported cookies into the session's environment variables. Only instagram.com's cookies
 * count (a header has no domains and is taken as Instagram's); an expired or missing required
 * cookie is an error naming it. `now` is in seconds (tests pin it).
 */
export function importSession(rawText: string, now = Date.now() / 1000): SessionImport {
	// A file saved by a Windows editor starts with a byte order mark, which JSON.parse refuses.
	const text = rawText.replace(/^\uFEFF/, '')
	if (!text.trim()) throw new CookieImportError('No cookies given')
	if (/^\s*curl\s/i.test(text))
		throw new CookieImportError(
			"This is a curl command (Copy as cURL): paste only its cookies, the text inside -b '…' or after cookie: in -H 'cookie: …'"
		)
	const format = detectCookieFormat(text)
	const all =
		format === 'json'
			? parseJsonCookies(text)
			: format === 'netscape'
				? parseNetscapeCookies(text)
				: parseCookieHeader(text)
	if (format === 'header' && all.length === 0)
		throw new CookieImportError(
			'No cookies found: give a cookies.txt file (Netscape format), a JSON cookie export, or a Cookie header (sessionid=...; csrftoken=...; ds_user_id=...)'
		)
	if (format === 'netscape' && all.length === 0)
		throw new CookieImportError(
			'The cookies.txt file has no cookie lines: each needs 7 fields separated by tabs (copied text may have spaces instead of tabs; upload the file itself)'
		)
	const instagram = all.filter((cookie) => cookie.domain === undefined || isInstagramDomain(cookie.domain))
	const variables: Record<string, string> = {}
	const expired: string[] = []
	for (const [cookieName, variable] of Object.entries(SESSION_COOKIE_VARIABLES)) {
		// Several entries of one name (subdomains, a stale copy): the most specific domain,
		// www.instagram.com, first, then the others in order; the first unexpired, usable one wins.
		const candidates = instagram.filter((cookie) => cookie.name === cookieName)
		const www = (entry: ImportedCookie) => entry.domain?.replace(/^\./, '') === 'www.instagram.com'
		const ordered = [...candidates.filter(www), ...candidates.filter((entry) => !www(entry))]
		const live = ordered.filter((entry) => !entry.expires || entry.expires >= now)
		const value = live.map((entry) => unquote(entry.value)).find(isUsableValue)
		if (value !== undefined) variables[variable] = value
		else if (candidates.length > 0 && live.length === 0) expired.push(cookieName)
		else if (live.length > 0 && (REQUIRED as readonly string[]).includes(cookieName))
			throw new CookieImportError(`The ${cookieName} cookie has characters a session cookie cannot have`)
	}
	const missing = REQUIRED.filter((name) => !(SESSION_COOKIE_VARIABLES[name] in variables))
	if (missing.length > 0) {
		const where =
			format === 'header'
				? 'in the Cookie header'
				: `among the ${instagram.length} instagram.com cookies of the ${format === 'json' ? 'JSON export' : 'cookies.txt file'}`
		const reason = missing.some((name) => expired.includes(name)) ? ' (expired)' : ''
		throw new CookieImportError(
			`No usable ${missing.join(', ')} cookie${missing.length > 1 ? 's' : ''}${reason} ${where}: log in to instagram.com in the browser, then export its cookies again`
		)
	}
	return {
		format,
		variables,
		instagramCookies: instagram.length,
		ignoredCookies: all.length - instagram.length
	}
}

/** `"abc"` → `abc` (browsers keep the quotes Instagram puts around `rur`). */
function unquote(value: string): string {
	return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}
