/**
 * Request guards shared by the playground and the agent web server (docs/api-contract.md,
 * "Security"). Without them any web page could drive a local server: a page may send `text/plain`
 * or form posts cross-site without a preflight, and a rebinding DNS name reaches 127.0.0.1. So:
 * - Host must name this server (DNS rebinding): the bound host or a loopback name, with our port;
 * - a body needs `Content-Type: application/json`, so cross-site forms and `text/plain` posts fail;
 * - POST/DELETE carrying an `Origin` must come from our own origin (or the configured CORS origin);
 * - every `/api/` request, reads included, is refused when the browser says another site sent it
 *   (`Sec-Fetch-Site: cross-site` or `same-site`, a foreign `Origin` or `Referer`): a page could
 *   otherwise spend the user's budget with `<img src=.../api/...>` and change the last result;
 * - beyond loopback, every request needs the access token (`Authorization: Bearer` or `?token=`).
 * Rejections are 403 `forbidden` envelopes answered before routing, so no handler runs.
 */

import { Elysia } from 'elysia'
import { UsageError } from '../cli-error'
import { failureResponse } from './envelope'
import { urlOf } from './request-url'

/** Options of `securityGuard`. */
export interface SecurityOptions {
	/** The host the server is bound to (default 127.0.0.1). */
	host?: string
	/** The port the server listens on; when omitted (tests, port 0 before listen) any port passes. */
	port?: number | (() => number | undefined)
	/** Access token; required when `host` is not a loopback address. */
	token?: string
	/** A browser origin allowed to call the API cross-site (CORS); none by default. */
	corsOrigin?: string
	/** GET paths served without the token (static, non-sensitive: API docs, the UI shell). */
	publicPaths?: readonly string[]
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])
const wildcardHosts = new Set(['0.0.0.0', '::', '[::]'])

/** True for 127.0.0.1, ::1 and localhost: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
	return loopbackNames.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host)
}

/** Shortest access token accepted: a shorter one could be guessed. */
export const MIN_TOKEN_LENGTH = 16

/**
 * The token a server must demand: the given one (`--token` or `SMKIT_TOKEN`; shorter than 16
 * characters is a UsageError, exit 2), else a fresh random one when bound beyond loopback (the caller prints
 * it), else none.
 */
export function resolveAccessToken(host: string, token?: string): { token?: string; generated: boolean } {
	if (token !== undefined && token !== '' && token.length < MIN_TOKEN_LENGTH) {
		throw new UsageError(
			`The access token must be at least ${MIN_TOKEN_LENGTH} characters (--token or SMKIT_TOKEN)`
		)
	}
	if (token) return { token, generated: false }
	if (isLoopbackHost(host)) return { generated: false }
	// Global Web Crypto, not node:crypto: that module alone adds half a megabyte to a server's heap.
	// Never starting with '-': typed back after --token, such a value reads as an option.
	let generated: string
	do generated = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
	while (generated.startsWith('-'))
	return { token: generated, generated: true }
}

/** Splits a Host header into lower-case name and port (brackets kept for IPv6). */
export function parseHostHeader(value: string): { name: string; port?: number } | undefined {
	const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim())
	if (!match) return undefined
	return { name: match[1].toLowerCase(), port: match[2] === undefined ? undefined : Number(match[2]) }
}

/** Compares secrets in constant time (hashing first evens out the lengths). */
export function sameSecret(given: string, expected: string): boolean {
	const digest = (value: string) => new Bun.CryptoHasher('sha256').update(value).digest()
	return crypto.timingSafeEqual(digest(given), digest(expected))
}

/** The token a request carries, from `Authorization: Bearer` or the `token` query parameter. */
export function presentedToken(request: Request, url: URL): string | undefined {
	const authorization = request.headers.get('authorization')
	const bearer = authorization ? /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1] : undefined
	return bearer ?? url.searchParams.get('token') ?? undefined
}

/** Wrong tokens tolerated before answers to wrong tokens are slowed down. */
const FREE_TOKEN_FAILURES = 5
/** After this long without a wrong token, the count starts again. */
const TOKEN_FAILURE_WINDOW_MS = 10 * 60 * 1000
/** The longest a wrong token's answer is held back. */
const MAX_TOKEN_DELAY_MS = 5000

/**
 * Counts wrong access tokens: after a few, each further wrong one is answered later (doubling from
 * 100 ms up to 5 s), so guessing is slow. A right token is never delayed.
 */
export class TokenFailures {
	private count = 0
	private last = 0

	/** Records a wrong token; returns how long to hold its answer back (ms). */
	record(now = Date.now()): number {
		if (now - this.last > TOKEN_FAILURE_WINDOW_MS) this.count = 0
		this.last = now
		this.count++
		const over = this.count - FREE_TOKEN_FAILURES
		return over <= 0 ? 0 : Math.min(MAX_TOKEN_DELAY_MS, 100 * 2 ** (over - 1))
	}
}

/** Whether a request carries a body (declared length, chunked, or a body stream without length). */
export function hasBody(request: Request): boolean {
	const length = request.headers.get('content-length')
	if (length !== null) return Number(length) > 0
	return request.headers.has('transfer-encoding') || request.body !== null
}

/** The origin of a URL header value, or undefined when it is not a URL. */
function originOf(value: string): string | undefined {
	return URL.canParse(value) ? new URL(value).origin : undefined
}

/**
 * Whether a browser sent this request for a page of another origin: `Sec-Fetch-Site` naming another
 * site (a page on another port of this machine is the same site), or an `Origin` or `Referer` of
 * another origin. Tools that send none of these headers pass.
 */
export function sentByOtherSite(request: Request, url: URL): boolean {
	const site = request.headers.get('sec-fetch-site')
	if (site === 'cross-site' || site === 'same-site') return true
	const origin = request.headers.get('origin')
	if (origin !== null && origin !== url.origin) return true
	const referer = request.headers.get('referer')
	return referer !== null && referer !== '' && originOf(referer) !== url.origin
}

/** Methods that change state: they need our own origin and a JSON body. */
export const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * A check that a request's Host header names a server bound to `boundHost` (or a loopback name)
 * with the expected port (DNS rebinding). A port of undefined or 0 (not known yet) matches any.
 */
export function hostCheck(
	boundHost: string,
	port: number | undefined | (() => number | undefined)
): (request: Request, url: URL) => boolean {
	const bound = boundHost.toLowerCase()
	const boundName = bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound
	const anyHostName = wildcardHosts.has(bound)
	// The last Host header (with an explicit port) found right for the expected port: nearly every
	// request repeats it, so it is not parsed again.
	let accepted: { header: string; port: number } | undefined
	return (request, url) => {
		const header = request.headers.get('host') ?? url.host
		const expected = typeof port === 'function' ? port() : port
		if (accepted !== undefined && accepted.header === header && accepted.port === expected) return true
		const host = parseHostHeader(header)
		if (!host) return false
		// Bound to every interface, any name may reach us; the mandatory token guards that case.
		if (!anyHostName && host.name !== boundName && !isLoopbackHost(host.name)) return false
		if (expected === undefined || expected === 0) return true
		const allowed = (host.port ?? (url.protocol === 'https:' ? 443 : 80)) === expected
		if (allowed && host.port !== undefined) accepted = { header, port: expected }
		return allowed
	}
}

/**
 * Request headers a `--cors-origin` page may send: besides the body type and the token, the
 * playground's "Load more" marker (docs/api-contract.md, "Saving") and its poll marker (a panel's
 * periodic look, kept out of History).
 */
const CORS_ALLOWED_HEADERS = 'Content-Type, Authorization, X-Smkit-Load-More, X-Smkit-Poll'

/**
 * Response headers a `--cors-origin` page may read (a browser hides all but a few otherwise): the
 * playground's history id (what `POST /api/save` takes) and session warning, the wait of a 429,
 * a download's file name and the methods of a 405.
 */
const CORS_EXPOSED_HEADERS = 'X-Smkit-History-Id, X-Smkit-Session, Retry-After, Content-Disposition, Allow'

/**
 * Elysia plugin applying these checks to every request of the app that uses it. Throws at
 * build time when bound beyond loopback without a token (fail closed; see `resolveAccessToken`).
 */
export function securityGuard(options: SecurityOptions = {}) {
	const boundHost = (options.host ?? '127.0.0.1').toLowerCase()
	if (!isLoopbackHost(boundHost) && !options.token) {
		throw new Error(`An access token is required when binding to ${boundHost} (use --token or SMKIT_TOKEN)`)
	}
	const publicPaths = new Set(options.publicPaths ?? [])
	const hostAllowed = hostCheck(boundHost, options.port)
	const tokenFailures = new TokenFailures()

	const corsHeaders = (origin: string): Record<string, string> => ({
		'access-control-allow-origin': origin,
		'access-control-allow-credentials': 'false',
		'access-control-expose-headers': CORS_EXPOSED_HEADERS,
		vary: 'Origin'
	})

	/**
	 * The refusal of a request (a 403 envelope, or a promise of one after a wrong token's delay),
	 * undefined when it may go on. Synchronous for every request that passes, so Elysia does not
	 * await it per request (the hook below has no `async` for that reason).
	 */
	const refusalOf = (request: Request, set: { headers: Record<string, unknown> }) => {
		const url = urlOf(request)
		if (!hostAllowed(request, url)) {
			return failureResponse('Forbidden: unknown Host header', 'forbidden')
		}
		const origin = request.headers.get('origin')
		const corsAllowed = options.corsOrigin !== undefined && origin === options.corsOrigin
		if (corsAllowed) Object.assign(set.headers, corsHeaders(options.corsOrigin as string))
		if (corsAllowed && request.method === 'OPTIONS') {
			// Preflight: carries no credentials by design, so it is answered before the token check.
			return new Response(null, {
				status: 204,
				headers: {
					...corsHeaders(options.corsOrigin as string),
					'access-control-allow-methods': 'GET, POST, DELETE',
					'access-control-allow-headers': CORS_ALLOWED_HEADERS,
					'access-control-max-age': '600'
				}
			})
		}
		if (url.pathname.startsWith('/api/') && !corsAllowed && sentByOtherSite(request, url)) {
			return failureResponse('Forbidden: request from another site', 'forbidden')
		}
		if (options.token && !(request.method === 'GET' && publicPaths.has(url.pathname))) {
			const given = presentedToken(request, url)
			if (given === undefined || !sameSecret(given, options.token)) {
				const delay = given === undefined ? 0 : tokenFailures.record()
				const refusal = () => failureResponse('Forbidden: missing or wrong access token', 'forbidden')
				if (delay > 0) return Bun.sleep(delay).then(refusal)
				return refusal()
			}
		}
		if (unsafeMethods.has(request.method)) {
			if (origin !== null && origin !== url.origin && !corsAllowed) {
				return failureResponse('Forbidden: cross-origin request', 'forbidden')
			}
			const mediaType = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase()
			if (hasBody(request) && mediaType !== 'application/json') {
				return failureResponse('Forbidden: a request body must be sent as application/json', 'forbidden')
			}
		}
		return undefined
	}

	// Elysia awaits a hook whose source looks asynchronous (`async`, `await`, or `=> call(` and
	// `return call(`, minified too): this one only returns a value, so passing requests go on
	// without an extra await.
	return new Elysia({ name: 'smkit-security-guard', seed: options }).onRequest(function guard(context) {
		const refusal = refusalOf(context.request, context.set)
		if (refusal !== undefined) return refusal
	})
}
