/**
 * Retry policy (docs/instagram.md, "Errors"): retry rate limits, 5xx answers, success answers cut
 * off before their JSON ends, and network errors with exponential backoff and jitter, honouring
 * `Retry-After`; never retry not_found, private_account, login or challenge errors, nor a 4xx
 * that is no rate limit (Instagram refusing the request would refuse it again).
 */
import { IgApiError, IgError, IgNetworkError, IgTimeoutError } from './errors'

/** Upper bound of one backoff step, whatever the attempt number. */
const MAX_STEP_MS = 60_000

/**
 * Whether `error` deserves another attempt. Non-idempotent writes are only repeated after a 429,
 * when Instagram has certainly not applied them (a repeated comment would be visible).
 */
export function isRetryable(error: unknown, idempotent: boolean): boolean {
	if (error instanceof IgApiError) {
		// Status 0 marks decisions the client made locally (no credentials, own budget exhausted).
		if (error.upstreamStatus === 0) return false
		if (error.kind === 'rate_limited') {
			const spam = Boolean((error.body as { spam?: unknown } | undefined)?.spam)
			return !spam && (idempotent || error.upstreamStatus === 429)
		}
		// Instagram refusing the request (an unexplained 4xx) would refuse it again: never repeated.
		return error.kind === 'upstream_error' && (error.upstreamStatus >= 500 || cutOff(error)) && idempotent
	}
	// A timeout already cost a full request timeout; repeating it would keep the caller waiting
	// minutes for an Instagram that does not answer. Connection failures are quick to retry.
	if (error instanceof IgTimeoutError) return false
	if (error instanceof IgNetworkError) return idempotent
	return false
}

/**
 * A success status whose body is not JSON (the classification keeps such a body as text): most
 * often an answer cut off on its way, which the same read asked again gets whole. A page of a list
 * lost to it would end a walk of the whole list (`for await`) that cannot be resumed.
 */
function cutOff(error: IgApiError): boolean {
	return error.upstreamStatus >= 200 && error.upstreamStatus < 300 && typeof error.body === 'string'
}

/**
 * Milliseconds to wait before attempt `attempt + 1`: `base * 2^attempt` (capped at 60 s) times a
 * jitter in [0.7, 1.3], and never less than the upstream `Retry-After` (seconds).
 */
export function backoffDelay(
	attempt: number,
	baseDelayMs: number,
	retryAfterSeconds?: number,
	random = Math.random
): number {
	const step = Math.min(baseDelayMs * 2 ** attempt, MAX_STEP_MS) * (0.7 + 0.6 * random())
	const floor = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000
	return Math.round(Math.max(step, floor))
}

/** The upstream `Retry-After` (seconds) an error carries, if any. */
export function retryAfterOf(error: unknown): number | undefined {
	return error instanceof IgApiError ? error.retryAfter : undefined
}

/** True for errors of this client (as opposed to a caller's abort or a bug). */
export function isClientError(error: unknown): error is IgError {
	return error instanceof IgError
}
