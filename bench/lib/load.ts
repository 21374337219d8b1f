/**
 * Closed-loop load: `concurrency` workers each send one request, wait for the whole answer, record
 * its latency and send the next. A driver runs the load in slices (see load-worker.ts): during a
 * slice it keeps every worker busy until the slice's deadline, then lets the requests in flight
 * finish, so the next slice (often another target) starts on an idle machine.
 */
import { percentile } from './stats'

/** What one load run measured. */
export interface LoadResult {
	/** Requests completed (successful or not) inside the measured slices. */
	requests: number
	/** Requests that failed (non-2xx status, network error, or a check that did not hold). */
	failures: number
	/** Completed requests per second of measured time. */
	rps: number
	p50Ms: number
	p99Ms: number
	/** Measured time: the sum of the slices. */
	durationMs: number
	/** The first failure seen, to explain a non-zero `failures`. */
	firstFailure?: string
	/** CPU milliseconds the load process spent per request (it shares the cores with the servers). */
	loadCpuMs?: number
}

/** What one slice measured: requests completed by the deadline, and the latency of every request. */
export interface SliceResult {
	completed: number
	latencies: number[]
	failures: number
	firstFailure?: string
}

/** Runs load in slices against one target. */
export interface LoadDriver {
	/** Keeps every worker busy for `durationMs`, then waits for the requests in flight. */
	slice(durationMs: number): Promise<SliceResult>
	close(): void
}

/** One request: resolves true when it succeeded; throwing counts as a failure. */
export type LoadTask = () => Promise<boolean>

/** A driver calling `task` from `concurrency` workers (reference (a): the client itself). */
export function taskDriver(task: LoadTask, concurrency: number): LoadDriver {
	return {
		async slice(durationMs) {
			const result: SliceResult = { completed: 0, latencies: [], failures: 0 }
			const deadline = performance.now() + durationMs
			const worker = async () => {
				while (performance.now() < deadline) {
					const sent = performance.now()
					let succeeded = false
					try {
						succeeded = await task()
						if (!succeeded) result.firstFailure ??= 'the request did not succeed'
					} catch (error) {
						result.firstFailure ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error)
					}
					const done = performance.now()
					result.latencies.push(done - sent)
					if (done <= deadline) result.completed++
					if (!succeeded) result.failures++
				}
			}
			await Promise.all(Array.from({ length: concurrency }, worker))
			return result
		},
		close() {}
	}
}

/** Sums the slices of one target into a LoadResult; `sliceMs` is each slice's measured length. */
export function summariseSlices(slices: SliceResult[], sliceMs: number, cpuMs: number): LoadResult {
	const latencies = slices.flatMap((slice) => slice.latencies)
	const requests = slices.reduce((sum, slice) => sum + slice.completed, 0)
	const durationMs = slices.length * sliceMs
	return {
		requests,
		failures: slices.reduce((sum, slice) => sum + slice.failures, 0),
		rps: (requests / durationMs) * 1000,
		p50Ms: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		durationMs,
		firstFailure: slices.find((slice) => slice.firstFailure)?.firstFailure,
		loadCpuMs: cpuMs / Math.max(1, latencies.length)
	}
}
