/**
 * The one error type for a failed model call. Whatever the SDK throws (HTTP status, timeout,
 * connection failure, a reply that is not a chat completion) becomes an AgentProviderError whose
 * message names the provider and never carries the key. A provider failure is a failed ask, never
 * an answer (docs/architecture.md, "The agent").
 */
import {
	APIConnectionError,
	APIConnectionTimeoutError,
	APIError,
	APIUserAbortError,
	AuthenticationError,
	PermissionDeniedError,
	RateLimitError
} from 'openai/core/error'
import { redactSecrets } from '../server/redact'
import { describeBytes, ReplyTooLargeError } from './reply-limit'

/** What kind of provider failure this was. */
export type ProviderErrorKind =
	| 'auth'
	| 'rate_limited'
	| 'server_error'
	| 'bad_request'
	| 'not_found'
	| 'timeout'
	| 'network'
	| 'malformed'
	| 'too_large'
	| 'aborted'

/** A model call that failed; `message` starts with the provider's label, e.g. `Gemini: ...`. */
export class AgentProviderError extends Error {
	override name = 'AgentProviderError'
	readonly provider: string
	readonly kind: ProviderErrorKind
	/** HTTP status the provider answered with, when it answered. */
	readonly status?: number

	constructor(provider: string, kind: ProviderErrorKind, message: string, status?: number) {
		super(`${provider}: ${message}`)
		this.provider = provider
		this.kind = kind
		this.status = status
	}
}

/**
 * A model call that took longer than its limit. Names the endpoint's host only: a base URL's path
 * or query may carry an account id or a key.
 */
export function modelTimeoutError(provider: { label: string; baseURL: string }, timeoutMs: number) {
	const seconds = Math.round(timeoutMs / 100) / 10
	return new AgentProviderError(
		provider.label,
		'timeout',
		`no answer from the model endpoint ${new URL(provider.baseURL).host} within ${seconds} s`
	)
}

/** The ask was cancelled by its caller (Ctrl-C, a closed stream). */
export class AgentAbortError extends Error {
	override name = 'AgentAbortError'
	constructor() {
		super('Cancelled')
	}
}

function upstreamDetail(error: APIError, secrets: readonly (string | null | undefined)[]): string {
	const body = error.error as { message?: unknown } | undefined
	const raw = typeof body?.message === 'string' ? body.message : ''
	const clean = redactSecrets(raw, secrets).replace(/\s+/g, ' ').trim()
	if (!clean) return ''
	return ` (${clean.length > 200 ? `${clean.slice(0, 200)}...` : clean})`
}

/**
 * Turns whatever a model call threw into an AgentProviderError (or AgentAbortError when the
 * caller's signal fired). `secrets` are scrubbed from any provider text quoted in the message.
 */
export function toProviderError(
	error: unknown,
	provider: { label: string; keyVariable?: string; baseURL: string },
	secrets: readonly (string | null | undefined)[],
	signal?: AbortSignal
): Error {
	if (error instanceof AgentProviderError || error instanceof AgentAbortError) return error
	const label = provider.label
	if (signal?.aborted || error instanceof APIUserAbortError) return new AgentAbortError()
	if (error instanceof ReplyTooLargeError) {
		return new AgentProviderError(
			label,
			'too_large',
			`the reply from the model endpoint ${new URL(provider.baseURL).host} was larger than ${describeBytes(error.limit)} and was not read to the end`
		)
	}
	if (error instanceof APIConnectionTimeoutError) {
		return new AgentProviderError(
			label,
			'timeout',
			`no answer from the model endpoint ${new URL(provider.baseURL).host} in time`
		)
	}
	if (error instanceof APIConnectionError) {
		return new AgentProviderError(label, 'network', `could not reach ${new URL(provider.baseURL).host}`)
	}
	if (error instanceof APIError && typeof error.status === 'number') {
		const status = error.status
		const detail = upstreamDetail(error, secrets)
		if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
			const variable = provider.keyVariable ? ` (check ${provider.keyVariable} or --api-key)` : ''
			return new AgentProviderError(
				label,
				'auth',
				`the API key was rejected (HTTP ${status})${variable}`,
				status
			)
		}
		if (error instanceof RateLimitError) {
			return new AgentProviderError(
				label,
				'rate_limited',
				`rate limit or quota exceeded (HTTP 429)${detail}`,
				status
			)
		}
		if (status >= 500) {
			return new AgentProviderError(
				label,
				'server_error',
				`the provider failed (HTTP ${status})${detail}`,
				status
			)
		}
		if (status === 404) {
			return new AgentProviderError(
				label,
				'not_found',
				`model or endpoint not found (HTTP 404)${detail}`,
				status
			)
		}
		return new AgentProviderError(
			label,
			'bad_request',
			`the request was rejected (HTTP ${status})${detail}`,
			status
		)
	}
	// A 200 whose body is not JSON, or JSON that is not a chat completion, lands here.
	return new AgentProviderError(label, 'malformed', 'the reply was not a valid chat completion')
}
