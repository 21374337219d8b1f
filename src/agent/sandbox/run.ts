/** One sandbox run from options to result, on a given worker pool (runInSandbox uses the default one). */
import { invalidMethodPaths } from './bridge'
import { HostRun } from './host-run'
import type { RunOutcome, RunSettings } from './outcome'
import type { WorkerPool } from './pool'
import { type SandboxOptions, type SandboxResult, sandboxDefaults } from './types'

/** setTimeout's largest delay; a larger timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

function positive(value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, max) : fallback
}

/** The run's limits: the options where they are sensible numbers, else the defaults. */
export function resolveSettings(options: SandboxOptions): RunSettings {
	return {
		timeoutMs: positive(options.timeoutMs, sandboxDefaults.timeoutMs, MAX_TIMER_MS),
		memoryLimitBytes: Math.ceil(
			positive(options.memoryLimitBytes, sandboxDefaults.memoryLimitBytes, 1024 ** 3)
		),
		maxOutputChars: Math.floor(positive(options.maxOutputChars, sandboxDefaults.maxOutputChars)),
		maxCalls: Math.floor(positive(options.maxCalls, sandboxDefaults.maxCalls)),
		maxConcurrentCalls: Math.floor(positive(options.maxConcurrentCalls, sandboxDefaults.maxConcurrentCalls))
	}
}

/** `runInSandbox` on a given worker pool (tests use pools with their own workers). */
export async function runOnPool(
	pool: WorkerPool,
	code: string,
	options: SandboxOptions
): Promise<SandboxResult> {
	const started = performance.now()
	const finish = (outcome: RunOutcome, output = '', outputTruncated = false): SandboxResult => ({
		...outcome,
		output,
		outputTruncated,
		durationMs: performance.now() - started
	})
	const invalid = invalidMethodPaths(options.methods)
	if (invalid.length > 0) {
		return finish({ ok: false, error: `Invalid sandbox method paths: ${invalid.map(String).join(', ')}` })
	}
	if (typeof code !== 'string') return finish({ ok: false, error: 'The code must be a string' })
	if (options.signal?.aborted) return finish({ ok: false, error: 'The run was aborted' })
	const { outcome, output, outputTruncated } = await new HostRun(pool, resolveSettings(options), options).run(
		code
	)
	return finish(outcome, output, outputTruncated)
}
