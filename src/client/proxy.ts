/**
 * Upstream proxies: one (`--proxy URL`, `HTTPS_PROXY`, `ALL_PROXY`) or a list (`--proxy-file`) that
 * rotates per request or sticks to one proxy per client (`--proxy-mode rotate|sticky`). A proxy
 * whose connections fail `failureLimit` times in a row is taken out for `cooldownMs`; the transport
 * then carries the request through the next one. Hosts named by `NO_PROXY` are reached directly.
 *
 * Bun's fetch (the `proxy` request option) speaks http:// and https:// proxies; socks4/socks5 are
 * refused with a message saying so. Proxy URLs may hold credentials, which are secrets: only
 * `redactProxyUrl` forms ever reach a message, log line or response.
 */

/** How a list of proxies is used. */
export type ProxyMode = 'rotate' | 'sticky'

/** Settings of a {@link ProxyPool}. */
export interface ProxyPoolOptions {
	/** http:// or https:// URLs, optionally with `user:password@`. */
	urls: readonly string[]
	/** `rotate` (default): the next proxy for every request; `sticky`: one proxy until it fails. */
	mode?: ProxyMode
	/** `NO_PROXY` list: comma- or space-separated hosts (`.example.com`, `example.com:8080`, `*`). */
	noProxy?: string
	/** Consecutive failures that take a proxy out. Default 2. */
	failureLimit?: number
	/** How long a failing proxy stays out, in ms. Default 300000 (5 minutes). */
	cooldownMs?: number
}

/** A proxy URL that cannot be used; the message shows the URL without credentials. */
export class ProxyConfigError extends Error {
	override name = 'ProxyConfigError'
}

/** One proxy of a pool and its record. */
export interface ProxyEntry {
	/** The URL as given (with credentials): pass to fetch only. */
	readonly url: string
	/** The URL with credentials replaced by `[redacted]`. */
	readonly label: string
	requests: number
	failures: number
	consecutiveFailures: number
	/** Epoch ms until which the proxy is out, 0 when in use. */
	outUntil: number
}

/** A proxy's figures for status endpoints (never the credentials). */
export interface ProxyFigures {
	url: string
	requests: number
	failures: number
	available: boolean
}

/**
 * Whether a parsed proxy URL holds more than `scheme://[user:password@]host[:port][/]`. A proxy URL
 * has no path, query or fragment: one that seems to is a password with an unescaped `/`, `?`, `#`
 * or `@` that the parser cut there (`http://usr:p@ss#w0rd@host:8080` reads as the host `ss`), so
 * what it names as host and the rest may be parts of the password.
 */
function cutShort(url: URL): boolean {
	return (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== ''
}

/**
 * `http://user:secret@host:8080` → `http://[redacted]@host:8080`; text that is no `scheme://` URL
 * becomes `[redacted proxy]` (`user:secret@host:8080` parses as the scheme `user:`), and one cut
 * short (`cutShort`) shows its scheme only, `http://[redacted]`.
 */
export function redactProxyUrl(text: string): string {
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim()) || !URL.canParse(text)) return '[redacted proxy]'
	const url = new URL(text)
	if (cutShort(url)) return `${url.protocol}//[redacted]`
	const hidden = url.username || url.password
	url.username = ''
	url.password = ''
	const plain = `${url.protocol}//${url.host}`
	return hidden ? plain.replace('//', '//[redacted]@') : plain
}

/**
 * Why a proxy answered 407: it wants credentials its URL does not give (with how to write them, an
 * example whose `USER:PASSWORD` placeholder redaction leaves as it is), or refused the ones given.
 */
export function proxyAuthenticationFailure(proxyUrl: string): string {
	return new URL(proxyUrl).username === ''
		? 'the proxy asks for credentials (HTTP 407): give them in its URL, http://USER:PASSWORD@host:port'
		: 'the proxy refused its credentials (HTTP 407)'
}

/** Checks one proxy URL; throws {@link ProxyConfigError} for other schemes or a missing host. */
export function validateProxyUrl(text: string): string {
	const trimmed = text.trim()
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(trimmed)?.[1]?.toLowerCase()
	if (scheme?.startsWith('socks'))
		throw new ProxyConfigError(
			`${redactProxyUrl(trimmed)}: ${scheme} proxies are not supported (Bun's fetch speaks http:// and https:// proxies only)`
		)
	// Written without a scheme, as proxy sellers' lists are: say how to write it. Only a bare
	// host:port is shown; anything else may hold a password (host:port:user:password).
	if (scheme === undefined && /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(trimmed))
		throw new ProxyConfigError(`${trimmed}: a proxy URL starts with its scheme: http://${trimmed}`)
	if (scheme === undefined)
		throw new ProxyConfigError(
			'[redacted proxy]: a proxy must be an http:// or https:// URL, such as http://user:password@host:port (a host:port:user:password line is written http://user:password@host:port)'
		)
	if (scheme !== 'http' && scheme !== 'https')
		throw new ProxyConfigError(`${redactProxyUrl(trimmed)}: a proxy must be an http:// or https:// URL`)
	// Unparsable, cut short by an unescaped character of its password, or holding what no URL holds
	// (white space, a % not followed by two hex digits): nothing after the scheme is shown.
	const unreadable =
		!URL.canParse(trimmed) ||
		cutShort(new URL(trimmed)) ||
		/\s/.test(trimmed) ||
		/%(?![0-9a-f]{2})/i.test(trimmed)
	// Without an @ there is no user name or password to hide, nor to blame: said as it is.
	if (unreadable && !trimmed.includes('@'))
		throw new ProxyConfigError(
			`${trimmed}: cannot be read as a proxy URL, which is ${scheme}://host:port (a user name and password before the host if any), with nothing after the port`
		)
	if (unreadable)
		throw new ProxyConfigError(
			`${scheme}://[redacted]: cannot be read as a proxy URL, which ends with its host:port: write the characters / ? # % @ and spaces of a user name or password percent-encoded (%2F %3F %23 %25 %40 %20)`
		)
	if (!new URL(trimmed).hostname)
		throw new ProxyConfigError(`${redactProxyUrl(trimmed)}: the proxy URL names no host`)
	return trimmed
}

/**
 * The passwords inside proxy URLs (raw and decoded), searched for and redacted in any text. User
 * names are not searched for: they are often plain words (`user`, `proxy`) that would mangle
 * ordinary text and data (`username` → `[redacted]name`); they are hidden wherever a URL carries
 * them, by redactSecrets' rule for a URL's `user:password@` part.
 */
export function proxySecrets(urls: readonly string[]): string[] {
	const secrets = new Set<string>()
	for (const text of urls) {
		if (!URL.canParse(text)) continue
		const password = new URL(text).password
		if (!password) continue
		secrets.add(password)
		try {
			secrets.add(decodeURIComponent(password))
		} catch {
			// An undecodable password is redacted as written.
		}
	}
	return [...secrets]
}

/** Whether `NO_PROXY` sends requests for `target` directly. */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
	if (!noProxy) return false
	const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '')
	const port = target.port || (target.protocol === 'https:' ? '443' : '80')
	for (const rawEntry of noProxy.split(/[\s,]+/)) {
		const entry = rawEntry.trim().toLowerCase()
		if (!entry) continue
		if (entry === '*') return true
		const [, entryHost = entry, entryPort] = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry) ?? []
		if (entryPort && entryPort !== port) continue
		const bare = entryHost.replace(/^\*?\./, '')
		if (host === bare || host.endsWith(`.${bare}`)) return true
	}
	return false
}

/** A list of proxies with rotation, stickiness and time-outs for failing ones. */
export class ProxyPool {
	readonly mode: ProxyMode
	readonly #entries: ProxyEntry[]
	readonly #noProxy: string | undefined
	readonly #failureLimit: number
	readonly #cooldownMs: number
	#next = 0
	#sticky: ProxyEntry | undefined

	constructor(options: ProxyPoolOptions) {
		if (options.urls.length === 0) throw new ProxyConfigError('No proxy given')
		this.mode = options.mode ?? 'rotate'
		this.#entries = options.urls.map((text) => {
			const url = validateProxyUrl(text)
			return {
				url,
				label: redactProxyUrl(url),
				requests: 0,
				failures: 0,
				consecutiveFailures: 0,
				outUntil: 0
			}
		})
		this.#noProxy = options.noProxy
		this.#failureLimit = options.failureLimit ?? 2
		this.#cooldownMs = options.cooldownMs ?? 300_000
	}

	/** Number of proxies in the pool. */
	get size(): number {
		return this.#entries.length
	}

	/** Every credential in the pool's URLs (for redaction). */
	secrets(): string[] {
		return proxySecrets(this.#entries.map((entry) => entry.url))
	}

	/**
	 * The proxy for a request to `target`, or undefined when NO_PROXY sends it directly. `tried`
	 * holds proxies this request already failed through; when every proxy is out or tried, the one
	 * that comes back first is used (requests never silently go out without a proxy).
	 */
	pick(target: URL, tried: ReadonlySet<ProxyEntry> = new Set(), now = Date.now()): ProxyEntry | undefined {
		if (bypassesProxy(target, this.#noProxy)) return undefined
		const usable = (entry: ProxyEntry) => entry.outUntil <= now && !tried.has(entry)
		if (this.mode === 'sticky' && this.#sticky && usable(this.#sticky)) return this.#sticky
		let chosen: ProxyEntry | undefined
		for (let step = 0; step < this.#entries.length; step++) {
			const entry = this.#entries[(this.#next + step) % this.#entries.length] as ProxyEntry
			if (usable(entry)) {
				chosen = entry
				this.#next = (this.#entries.indexOf(entry) + 1) % this.#entries.length
				break
			}
		}
		chosen ??= [...this.#entries]
			.filter((entry) => !tried.has(entry))
			.sort((left, right) => left.outUntil - right.outUntil)[0]
		chosen ??= this.#entries[0] as ProxyEntry
		if (this.mode === 'sticky') this.#sticky = chosen
		return chosen
	}

	/** Whether a proxy other than those in `tried` could still carry the request. */
	hasAlternative(tried: ReadonlySet<ProxyEntry>): boolean {
		return this.#entries.some((entry) => !tried.has(entry))
	}

	/** The proxy carried a request to an answer (any HTTP status). */
	recordSuccess(entry: ProxyEntry): void {
		entry.requests++
		entry.consecutiveFailures = 0
	}

	/** The proxy could not carry a request; past `failureLimit` failures in a row it is taken out. */
	recordFailure(entry: ProxyEntry, now = Date.now()): void {
		entry.requests++
		entry.failures++
		entry.consecutiveFailures++
		if (entry.consecutiveFailures >= this.#failureLimit) {
			entry.outUntil = now + this.#cooldownMs
			entry.consecutiveFailures = 0
			if (this.#sticky === entry) this.#sticky = undefined
		}
	}

	/** Per-proxy figures, credentials redacted. */
	figures(now = Date.now()): ProxyFigures[] {
		return this.#entries.map((entry) => ({
			url: entry.label,
			requests: entry.requests,
			failures: entry.failures,
			available: entry.outUntil <= now
		}))
	}
}

/**
 * `fetch` for requests outside the client's transport (media file downloads): each goes through
 * the proxy the pool picks for its URL, the same rotation and NO_PROXY rules as API calls. Without
 * a pool, the global fetch.
 */
export function fetchThroughProxies(pool: ProxyPool | undefined): typeof fetch {
	const proxied = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		const proxy = pool?.pick(new URL(input instanceof Request ? input.url : String(input)))
		return fetch(input, { ...init, ...(proxy ? { proxy: proxy.url } : DIRECT) })
	}
	return Object.assign(proxied, { preconnect: fetch.preconnect })
}

/**
 * The fetch option of a request that goes without a proxy. smkit decides which requests go through
 * one (its proxies, NO_PROXY, none for the demo's loopback simulator); without this, Bun's fetch
 * would apply the process's HTTP_PROXY / HTTPS_PROXY by itself. Bun reads `proxy: false` as "none"
 * (checked by test/client/proxy.test.ts against the pinned Bun).
 */
export const DIRECT = { proxy: false } as unknown as { proxy?: string }
