/**
 * The unified response envelope (docs/api-contract.md, "Envelope") shared by both servers: TypeBox schemas that
 * also feed OpenAPI, builders for success and failure bodies, and the error codes with their HTTP
 * statuses. Nothing here knows about Instagram; the playground maps client errors onto these codes.
 */
import { type Static, type TSchema, t } from 'elysia'

/** Every failure `code` (docs/api-contract.md, "Errors") with the HTTP status it is answered with. */
export const httpStatusOf = {
	bad_request: 400,
	login_required: 401,
	forbidden: 403,
	challenge_required: 403,
	private_account: 403,
	not_found: 404,
	method_not_allowed: 405,
	payload_too_large: 413,
	rate_limited: 429,
	internal_error: 500,
	upstream_error: 502,
	ai_unavailable: 503,
	upstream_timeout: 504
} as const satisfies Record<string, number>

/** A failure `code` of the envelope (docs/api-contract.md, "Errors"). */
export type ErrorCode = keyof typeof httpStatusOf

/** Schema of the failure `code` values. */
export const ErrorCodeSchema = t.Union(
	(Object.keys(httpStatusOf) as ErrorCode[]).map((code) => t.Literal(code)),
	{ description: 'Machine-readable failure kind' }
)

/** Success envelope with a `data` payload of the given schema (any JSON when omitted). */
export const SuccessEnvelopeOf = <Data extends TSchema>(data: Data) =>
	t.Object({
		success: t.Literal(true),
		message: t.String({ description: 'Status text, e.g. "Profile: @luna.explorer"' }),
		data,
		timestamp: t.Number({ description: 'Seconds since the epoch, fractional' }),
		next_cursor: t.Optional(
			t.Union([t.String(), t.Null()], { description: 'Paginated lists: pass as ?cursor= to resume' })
		)
	})

/** Success envelope of any payload. */
export const SuccessEnvelope = SuccessEnvelopeOf(t.Unknown())

/** Failure envelope: `{ success: false, error, code, timestamp }`. */
export const FailureEnvelope = t.Object({
	success: t.Literal(false),
	error: t.String({ description: 'What went wrong, for people' }),
	code: ErrorCodeSchema,
	timestamp: t.Number({ description: 'Seconds since the epoch, fractional' })
})

/** Either envelope; every JSON response under `/api/` matches it. */
export const Envelope = t.Union([SuccessEnvelope, FailureEnvelope])

/** A success envelope as sent. */
export type SuccessBody<Data = unknown> = {
	success: true
	message: string
	data: Data
	timestamp: number
	next_cursor?: string | null
}
/** A failure envelope as sent. */
export type FailureBody = Static<typeof FailureEnvelope>

/** Current time as the envelope's `timestamp` (seconds, fractional). */
export const nowSeconds = (): number => Date.now() / 1000

/** Builds a success envelope; `extra` adds fields beside `data` (only `next_cursor` is defined). */
export function ok<Data>(
	data: Data,
	message: string,
	extra?: { next_cursor?: string | null }
): SuccessBody<Data> {
	return { success: true, message, data, timestamp: nowSeconds(), ...extra }
}

/** Builds a failure envelope. `error` is shown to people: never put secrets or stack traces in it. */
export function fail(error: string, code: ErrorCode): FailureBody {
	return { success: false, error, code, timestamp: nowSeconds() }
}

/**
 * An error a server raises on purpose with a known envelope code (bad body, too large, forbidden).
 * The HTTP status is `httpStatus`, deliberately not `status`: Elysia would act on that on its own.
 */
export class HttpError extends Error {
	override name = 'HttpError'
	readonly code: ErrorCode
	readonly httpStatus: number
	constructor(code: ErrorCode, message: string) {
		super(message)
		this.code = code
		this.httpStatus = httpStatusOf[code]
	}
}

/** A ready failure response (for hooks that answer before routing, e.g. the security guard). */
export function failureResponse(error: string, code: ErrorCode, headers?: Record<string, string>): Response {
	return Response.json(fail(error, code), { status: httpStatusOf[code], headers })
}
