/**
 * Requests made for a caller that retries by itself: a job, whose back-off honours Retry-After and
 * shows as a wait in its progress, where the client's own retries would wait up to half a minute
 * unseen. Inside `withoutClientRetries` the transport gives every failed attempt straight back, as
 * a client made with `maxRetries: 0` does (`smkit collect`'s), whichever client the caller shares.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** Set inside `withoutClientRetries`. */
const ownRetries = new AsyncLocalStorage<true>()

/** Runs `run` so that no request it makes is retried inside the client. */
export function withoutClientRetries<Result>(run: () => Promise<Result>): Promise<Result> {
	return ownRetries.run(true, run)
}

/** How many times the transport may retry a failed attempt here: `maxRetries`, or none in a job. */
export function retriesAllowed(maxRetries: number): number {
	return ownRetries.getStore() ? 0 : maxRetries
}
