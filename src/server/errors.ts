/**
 * The one mapping from anything thrown while serving a request to a failure envelope with its
 * HTTP status, for both servers (docs/api-contract.md, "Errors"): errors raised on purpose keep
 * their code, client errors keep their meaning (their `kind` is the code), validation names the
 * field, and anything unexpected says only "Internal server error" while the details, redacted,
 * go to the server log.
 */
import { terminalLine, terminalText } from '../cli-error'
import { IgApiError, IgError } from '../client/errors'
import { ANONYMOUS_REFUSAL, CHALLENGE_HINT, LOGIN_HINT, RECONNECT_HINT } from '../client/session-health'
import { unwrapParseError } from './body'
import { type ErrorCode, type FailureBody, fail, HttpError, httpStatusOf } from './envelope'
import { redactSecrets } from './redact'

/** Shown when a logged-in endpoint is called without Instagram credentials (docs/architecture.md, "Configuration and credentials"). */
export const NOT_LOGGED_IN_MESSAGE =
	'Not logged in: connect an account (Connect account in the playground, or smkit login --cookies cookies.txt, which store SESSION_ID, CSRF_TOKEN and DS_USER_ID in the environment file), or start with --demo'

/** A failure ready to send: status, envelope and extra headers (Retry-After, Allow). */
export interface Failure {
	status: number
	body: FailureBody
	headers: Record<string, string>
}

/** What `toFailure` needs to know beyond the error. */
export interface FailureContext {
	/** Which server, for log lines: `playground`, `agent-web`. */
	server: string
	/** Whether the client has credentials; turns Instagram's login_required into a how-to message. */
	loggedIn?: boolean
	/** Receives one line per unexpected error (default: console.error). Never given secrets. */
	log?: (line: string) => void
	/** Request line for the log, e.g. `GET /api/users/username/x`. */
	request?: string
}

/** Human name of where a validation failure happened. */
const placeName: Record<string, string> = {
	params: 'path parameter',
	query: 'query parameter',
	body: 'body field',
	headers: 'header',
	cookie: 'cookie'
}

/** The message of an Elysia VALIDATION error, naming the field (schemas may carry their own `error`). */
function validationMessage(error: {
	type?: string
	customError?: unknown
	valueError?: { path?: string; message?: string }
}): string {
	if (typeof error.customError === 'string' && error.customError !== '') return error.customError
	const field = (error.valueError?.path ?? '').replace(/^\//, '').replaceAll('/', '.')
	const detail = error.valueError?.message ?? 'invalid value'
	if (field === '') {
		return error.type === 'body'
			? 'Invalid body: expected a JSON object'
			: `Invalid ${error.type ?? 'request'}: ${detail}`
	}
	return `Invalid ${placeName[error.type ?? ''] ?? 'field'} '${field}': ${detail}`
}

const failure = (code: ErrorCode, message: string, headers: Record<string, string> = {}): Failure => ({
	status: httpStatusOf[code],
	body: fail(message, code),
	headers
})

/**
 * Maps anything thrown while serving a request to a failure. Elysia's own codes arrive in `code`
 * (VALIDATION, PARSE, NOT_FOUND...); route tables (404 vs 405) are the app's business.
 */
export function toFailure(thrown: unknown, elysiaCode: unknown, context: FailureContext): Failure {
	const error = unwrapParseError(thrown)
	if (error instanceof HttpError) return failure(error.code, error.message)
	if (error instanceof IgError) return clientFailure(error, context)
	if (elysiaCode === 'VALIDATION') return failure('bad_request', validationMessage(error as never))
	if (elysiaCode === 'PARSE') return failure('bad_request', 'Request body is not valid JSON')
	if (elysiaCode === 'NOT_FOUND') return failure('not_found', 'Not found')
	if (elysiaCode === 'INVALID_COOKIE_SIGNATURE' || elysiaCode === 'INVALID_FILE_TYPE') {
		return failure('bad_request', 'Invalid request')
	}
	const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)
	;(context.log ?? console.error)(
		terminalText(redactSecrets(`[${context.server}] ${context.request ?? 'request'} failed: ${detail}`))
	)
	return failure('internal_error', 'Internal server error')
}

/** A client error: its `kind` is the envelope code (docs/api-contract.md, "Errors"), with Retry-After on rate limits. */
function clientFailure(error: IgError, context: FailureContext): Failure {
	// No cookie was sent: a logged-out visitor turned away, whatever the session's state.
	if (error.kind === 'login_required' && error instanceof IgApiError && error.anonymous)
		return failure(
			'login_required',
			`${redactSecrets(error.message)}. ${ANONYMOUS_REFUSAL}; the logged-in requests (a profile by username, a user's feed) ${context.loggedIn ? 'ask with the session' : `need an account: ${LOGIN_HINT}`}`
		)
	if (error.kind === 'login_required' && !context.loggedIn)
		return failure('login_required', NOT_LOGGED_IN_MESSAGE)
	if (error.kind === 'login_required')
		return failure(
			'login_required',
			`${redactSecrets(error.message)}. The session has expired: to reconnect, ${RECONNECT_HINT}`
		)
	if (error.kind === 'challenge_required')
		return failure('challenge_required', `${redactSecrets(error.message)}. ${CHALLENGE_HINT}`)
	if (error.kind === 'rate_limited') {
		const seconds = error instanceof IgApiError && error.retryAfter ? Math.ceil(error.retryAfter) : 60
		return failure('rate_limited', error.message, { 'retry-after': String(Math.max(1, seconds)) })
	}
	if (error.kind === 'upstream_error' || error.kind === 'upstream_timeout') {
		;(context.log ?? console.error)(
			terminalLine(redactSecrets(`[${context.server}] ${context.request ?? 'request'}: ${error.message}`))
		)
	}
	return failure(error.kind, redactSecrets(error.message))
}
