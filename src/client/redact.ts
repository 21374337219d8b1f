/**
 * Redaction of secrets (cookies, tokens, API keys) from text that leaves the process: error
 * messages, data handed to generated code, log lines. A secret is found in every encoding it
 * travels in, not only as given: raw, URL-encoded (either hex case, and form encoding),
 * URL-decoded (a session id is stored encoded, `123%3Aabc`, and echoed decoded, `123:abc`) and
 * JSON-escaped, and any value of a `sessionid` or `csrftoken` cookie is removed whatever it is.
 */

/** What a secret is replaced with. */
export const REDACTED = '[redacted]'

/** Secrets shorter than this are not searched for (they would match ordinary text). */
const MIN_SECRET_LENGTH = 4

/** `sessionid=…` and `csrftoken=…` (as a cookie, query or form value, or `"sessionid": "…"`). */
const cookieValue =
	/((?:^|[^a-z0-9_])"?(?:sessionid|csrftoken)"?\s*(?:=|%3D|:)\s*"?)(?!\[redacted\])[^;\s&"',}\\]+/gi

function decoded(value: string): string | undefined {
	try {
		return decodeURIComponent(value)
	} catch {
		return undefined
	}
}

/** Every spelling of `secret` to search for, longest first. */
export function secretVariants(secret: string): string[] {
	const forms = new Set<string>([secret])
	const plain = decoded(secret)
	if (plain !== undefined) forms.add(plain)
	for (const form of [...forms]) {
		const encoded = encodeURIComponent(form)
		forms.add(encoded)
		forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()))
		forms.add(new URLSearchParams({ v: form }).toString().slice(2))
	}
	for (const form of [...forms]) forms.add(JSON.stringify(form).slice(1, -1))
	return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length)
}

/** The `user:password@` part of a URL (`http://user:pw@proxy:8080`): proxy credentials. */
const urlCredentials = /(\b[a-z][a-z0-9+.-]*:\/\/)(?!\[redacted\]@)([^\s/?#@"'<>]+)@/gi

/**
 * The placeholder of the examples messages give (`http://USER:PASSWORD@host:port`), exactly so
 * written (upper case), which is no credential and is left as it is. A proxy whose password is
 * really `PASSWORD` still has it redacted: known secrets are replaced before this rule runs.
 */
export const CREDENTIALS_PLACEHOLDER = 'USER:PASSWORD'

/** `text` with every spelling of each secret, every session cookie value and every URL's credentials (but the example placeholder) replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
	let result = text
	for (const secret of secrets) {
		if (!secret || secret.length < MIN_SECRET_LENGTH) continue
		for (const variant of secretVariants(secret)) result = result.split(variant).join(REDACTED)
	}
	return result
		.replace(cookieValue, `$1${REDACTED}`)
		.replace(urlCredentials, (whole, scheme: string, credentials: string) =>
			credentials === CREDENTIALS_PLACEHOLDER ? whole : `${scheme}${REDACTED}@`
		)
}

/** A JSON-like value with `redact` applied to every string in it (keys included); other values as they are. */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
	if (typeof value === 'string') return redact(value)
	if (Array.isArray(value)) return value.map((item) => redactValue(item, redact))
	if (value !== null && typeof value === 'object') {
		const copy: Record<string, unknown> = Object.create(null)
		for (const [key, item] of Object.entries(value)) copy[redact(key)] = redactValue(item, redact)
		return copy
	}
	return value
}
