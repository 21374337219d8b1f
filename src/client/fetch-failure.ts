/**
 * What a failed `fetch` becomes in the transport (`request.ts`): the error the caller sees (without
 * Bun's advice to debug fetch), and whether the attempt may move on to the next proxy at once.
 */
import { IgNetworkError, IgTimeoutError } from './errors'

/** Bun's sentence after a failed fetch's reason: advice to whoever debugs fetch, not to the user. */
const VERBOSE_ADVICE = /\s*For more information, pass `verbose: true` in the second argument to fetch\(\)\.?/g

/** Error codes of a connection that was never made: a request that failed so reached nobody. */
const NOT_CONNECTED =
	/ECONNREFUSED|ConnectionRefused|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|FailedToOpenSocket/i

/** The circumstances of one failed fetch. */
export interface FetchFailureContext {
	/** `GET /api/v1/...`, as error messages name it. */
	endpoint: string
	/** The per-request timeout, in ms. */
	timeoutMs: number
	/** The transport's own deadline fired. */
	timedOut: boolean
	/** The caller's signal aborted the request. */
	callerAborted: boolean
	/** The proxy the request went through, by its label (never its credentials). */
	proxyLabel?: string
	/** Removes the session's secrets from a text. */
	redact: (text: string) => string
}

/**
 * Wraps a fetch failure as the client's error; undefined when the caller aborted (their reason
 * propagates unchanged).
 */
export function fetchFailure(
	error: unknown,
	context: FetchFailureContext
): IgNetworkError | IgTimeoutError | undefined {
	const { endpoint } = context
	const via = context.proxyLabel ? ` through the proxy ${context.proxyLabel}` : ''
	if (context.timedOut)
		return new IgTimeoutError(`Instagram did not answer within ${context.timeoutMs} ms${via} (${endpoint})`, {
			endpoint,
			cause: error
		})
	if (context.callerAborted) return undefined
	const reason = (error instanceof Error ? error.message : String(error)).replace(VERBOSE_ADVICE, '')
	const message = `Could not reach Instagram${via} (${endpoint}): ${context.redact(reason)}`
	return new IgNetworkError(message, { endpoint, cause: error })
}

/**
 * The proxy a failed request could not even connect to (refused, unknown host, unreachable), as
 * `host:port` without scheme or credentials; undefined for any other failure, or one without proxy.
 */
export function unreachableProxyOf(error: unknown): string | undefined {
	if (!(error instanceof IgNetworkError)) return undefined
	const cause = error.cause as { code?: string } | undefined
	if (!NOT_CONNECTED.test(`${cause?.code} ${String(cause)}`)) return undefined
	const label = / through the proxy (\S+) \(/.exec(error.message)?.[1]
	return label
		?.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
		.replace(/^[^/]*@/, '')
		.replace(/\/.*$/, '')
}

/**
 * Whether a request through a proxy may be sent again through another one at once: it failed on
 * the network (not a timeout) and either a repeat is harmless or it certainly reached nobody.
 */
export function mayFailOver(
	failure: IgNetworkError | IgTimeoutError,
	error: unknown,
	idempotent: boolean
): boolean {
	if (!(failure instanceof IgNetworkError)) return false
	return idempotent || NOT_CONNECTED.test(`${(error as { code?: string })?.code} ${String(error)}`)
}
