/**
 * Closed-loop load generator: `concurrency` workers each send one request, wait for the whole
 * answer, record its latency and send the next, until the duration is over. Runs in the bench
 * process; the server under test runs in its own process (see `processes.ts`).
 */
import { percentile } from './stats'

/** What one load run measured. */
export interface LoadResult {
	/** Requests completed (successful or not) inside the window. */
	requests: number
	/** Requests that failed (non-2xx status, network error, or a check that did not hold). */
	failures: number
	/** Completed requests per second over the window. */
	rps: number
	p50Ms: number
	p99Ms: number
	durationMs: number
	/** The first failure seen, to explain a non-zero `failures`. */
	firstFailure?: string
	/** CPU milliseconds the load process spent per request (set by load-worker.ts). */
	loadCpuMs?: number
}

/** One request: resolves true when it succeeded; throwing counts as a failure. */
export type LoadTask = () => Promise<boolean>

/** Runs `task` from `concurrency` workers for `durationMs` and summarises the latencies. */
export async function runLoad(task: LoadTask, concurrency: number, durationMs: number): Promise<LoadResult> {
	const latencies: number[] = []
	let failures = 0
	let firstFailure: string | undefined
	const started = performance.now()
	const deadline = started + durationMs
	const worker = async () => {
		while (performance.now() < deadline) {
			const sent = performance.now()
			let succeeded = false
			try {
				succeeded = await task()
				if (!succeeded) firstFailure ??= 'the request did not succeed'
			} catch (error) {
				firstFailure ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error)
			}
			latencies.push(performance.now() - sent)
			if (!succeeded) failures++
		}
	}
	await Promise.all(Array.from({ length: concurrency }, worker))
	const elapsed = performance.now() - started
	return {
		requests: latencies.length,
		failures,
		rps: (latencies.length / elapsed) * 1000,
		p50Ms: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		durationMs: elapsed,
		firstFailure
	}
}
