/**
 * Errors the Instagram client throws. `request.ts` turns every failed upstream exchange into
 * exactly one of these (via `IgApiError.from` or the transport errors below).
 *
 * Naming hazard (docs/architecture.md, "Errors"): the upstream HTTP code is `upstreamStatus`, never
 * `status`, because
 * Elysia answers with any thrown error's `.status`. The playground maps `kind` to its own status.
 * Messages name the method and endpoint and never carry cookies, tokens or query secrets.
 */

/** What went wrong, in the playground's vocabulary (the `code` values of docs/api-contract.md, "Errors"). */
export type IgErrorKind =
	| 'bad_request'
	| 'login_required'
	| 'challenge_required'
	| 'private_account'
	| 'not_found'
	| 'rate_limited'
	| 'upstream_error'
	| 'upstream_timeout'

/** Base class of every client error. */
export class IgError extends Error {
	override name = 'IgError'
	/** The error's kind; the playground turns it into the envelope `code` and HTTP status. */
	readonly kind: IgErrorKind
	/** Upstream endpoint, e.g. `GET /api/v1/users/web_profile_info/` (no query string). */
	readonly endpoint?: string

	constructor(kind: IgErrorKind, message: string, options?: { endpoint?: string; cause?: unknown }) {
		super(message, options?.cause === undefined ? undefined : { cause: options.cause })
		this.kind = kind
		this.endpoint = options?.endpoint
	}
}

/** Instagram answered, and the answer is an error (non-2xx, `status: "fail"`, or not JSON). */
export class IgApiError extends IgError {
	override name = 'IgApiError'
	/** HTTP status Instagram answered with. Deliberately not called `status` (see file header). */
	readonly upstreamStatus: number
	/** Parsed upstream body, for diagnostics. Never includes request cookies. */
	readonly body: unknown
	/** Seconds to wait before retrying, from `Retry-After`, on rate limits. */
	readonly retryAfter?: number
	/** Challenge or checkpoint URL Instagram asked the user to visit. */
	readonly challengeUrl?: string
	/**
	 * Answered to an anonymous request (no cookie sent; set by the transport): a `login_required`
	 * then turns a logged-out visitor away and says nothing about the session.
	 */
	anonymous = false

	constructor(
		kind: IgErrorKind,
		message: string,
		details: {
			upstreamStatus: number
			body?: unknown
			endpoint?: string
			retryAfter?: number
			challengeUrl?: string
		}
	) {
		super(kind, message, { endpoint: details.endpoint })
		this.upstreamStatus = details.upstreamStatus
		this.body = details.body
		this.retryAfter = details.retryAfter
		this.challengeUrl = details.challengeUrl
	}
}

/** The connection failed (refused, reset, DNS). `cause` holds the underlying error. */
export class IgNetworkError extends IgError {
	override name = 'IgNetworkError'
	constructor(message: string, options: { endpoint?: string; cause?: unknown }) {
		super('upstream_error', message, options)
	}
}

/** Instagram did not answer within the per-request timeout. */
export class IgTimeoutError extends IgError {
	override name = 'IgTimeoutError'
	constructor(message: string, options: { endpoint?: string; cause?: unknown }) {
		super('upstream_timeout', message, options)
	}
}

/** A caller passed an argument the client cannot use (empty username, bad URL, bad count). */
export class IgArgumentError extends IgError {
	override name = 'IgArgumentError'
	constructor(message: string) {
		super('bad_request', message)
	}
}
