/**
 * The failure side of the OpenAPI document: one shared response per HTTP status under
 * `components.responses`, each a failure envelope (`Failure`), and the rule deciding which
 * statuses an operation lists: what every route can meet (a refused request, an unexpected error),
 * what its inputs can meet (validation, bodies), what Instagram can answer, and what the route
 * declares itself.
 */
import { type ErrorCode, httpStatusOf } from '../../server/envelope'
import type { JsonSchema } from './schemas'

/** One shared failure response. */
interface FailureResponse {
	name: string
	description: string
	headers?: Record<string, JsonSchema>
}

/** The shared failure response of each status (their codes come from the envelope's table). */
const failureResponses: Record<number, FailureResponse> = {
	400: { name: 'BadRequest', description: 'Invalid path, query or body; the message names the field' },
	401: {
		name: 'LoginRequired',
		description: 'No Instagram credentials are configured, or Instagram says the session is gone'
	},
	403: {
		name: 'Forbidden',
		description:
			'A foreign Host or Origin, a body not sent as application/json, a missing access token; ' +
			'or Instagram asks for a challenge (challenge_required) or the account is private (private_account)'
	},
	404: {
		name: 'NotFound',
		description: 'The user, media, hashtag, saved file or other record does not exist'
	},
	413: {
		name: 'PayloadTooLarge',
		description: 'The request body is over its limit (1 MiB; 10 MiB for CSV export)'
	},
	429: {
		name: 'RateLimited',
		description: "Instagram's rate limit persists after retries",
		headers: {
			'Retry-After': {
				description: 'Seconds to wait before trying again',
				required: true,
				schema: { type: 'integer', minimum: 1 }
			}
		}
	},
	500: { name: 'InternalError', description: 'An unexpected error; the details are in the server log' },
	502: {
		name: 'UpstreamError',
		description: 'Instagram answered 5xx or malformed data, or could not be reached'
	},
	503: { name: 'AiUnavailable', description: 'No AI provider is configured (set a provider key)' },
	504: { name: 'UpstreamTimeout', description: 'Instagram did not answer in time' }
}

/**
 * Codes every operation can meet: the security guard's refusals, a body over the limit (checked
 * before routing, on a route that takes no body too) and unexpected errors.
 */
const everywhere: ErrorCode[] = ['forbidden', 'payload_too_large', 'internal_error']
/** Codes of an operation that calls Instagram (routes outside the data groups that do declare them). */
export const INSTAGRAM_ERRORS: readonly ErrorCode[] = [
	'login_required',
	'challenge_required',
	'private_account',
	'not_found',
	'rate_limited',
	'upstream_error',
	'upstream_timeout'
]

/** What decides an operation's failures. */
export interface FailureFacts {
	/** It has path, query or body schemas (or a documented body). */
	validates: boolean
	/** It takes a request body. */
	hasBody: boolean
	/** Its method has a body read as JSON when one is sent (POST, PUT, PATCH, DELETE), taken or not. */
	readsBody: boolean
	/** It calls Instagram. */
	upstream: boolean
	/** Codes the route declares. */
	declared: readonly ErrorCode[]
}

/** The failure statuses an operation lists, in ascending order. */
export function failureStatuses(facts: FailureFacts): number[] {
	const codes = new Set<ErrorCode>([...everywhere, ...facts.declared])
	if (facts.validates || facts.hasBody || facts.readsBody) codes.add('bad_request')
	if (facts.upstream) for (const code of INSTAGRAM_ERRORS) codes.add(code)
	return [...new Set([...codes].map((code) => httpStatusOf[code]))].sort((a, b) => a - b)
}

/** The envelope codes answered with `status`. */
export function codesOfStatus(status: number): ErrorCode[] {
	return (Object.keys(httpStatusOf) as ErrorCode[]).filter((code) => httpStatusOf[code] === status)
}

/** `$ref` to the shared response of `status`. */
export function failureReference(status: number): JsonSchema {
	const response = failureResponses[status]
	if (!response) throw new Error(`No shared failure response for HTTP ${status}`)
	return { $ref: `#/components/responses/${response.name}` }
}

/** The shared responses of the given statuses, for `components.responses`. */
export function failureComponents(
	statuses: Iterable<number>,
	failure: JsonSchema
): Record<string, JsonSchema> {
	const components: Record<string, JsonSchema> = {}
	for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
		const { name, description, headers } = failureResponses[status]
		const codes = codesOfStatus(status)
		components[name] = {
			description: `${description}. Codes: ${codes.join(', ')}.`,
			...(headers ? { headers } : {}),
			content: {
				'application/json': {
					schema: failure,
					example: { success: false, error: description, code: codes[0], timestamp: 1767225600.123 }
				}
			}
		}
	}
	return components
}
