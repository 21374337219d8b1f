/**
 * The agent's code sandbox (DESIGN.md section 5): runs model-written JavaScript, an async function
 * body, in QuickJS compiled to WebAssembly. Each run gets a fresh runtime and context on a pooled
 * engine, a memory cap, a stack limit, an interrupt at the deadline and a wall-clock timeout that
 * also covers awaited host calls. The guest sees only `ig.<group>.<method>(...)` for the allowed
 * methods, `console.*` (captured) and `saveFile` (when provided); everything crossing is JSON text.
 * There are no timers: a body that waits on a promise nothing can settle is stopped at once.
 */
import { invalidMethodPaths } from './sandbox/bridge'
import { acquireEngine, type Engine, releaseEngine } from './sandbox/engine'
import { OutputBuffer, type RunOutcome, type RunSettings } from './sandbox/outcome'
import { SandboxSession } from './sandbox/session'
import { type SandboxOptions, type SandboxResult, sandboxDefaults } from './sandbox/types'

export { warmUpSandbox } from './sandbox/engine'
export { type SandboxOptions, type SandboxResult, sandboxDefaults } from './sandbox/types'

/** setTimeout's largest delay; a larger timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

function positive(value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, max) : fallback
}

function resolveSettings(options: SandboxOptions): RunSettings {
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

/**
 * Runs `code` (the body of an async function) in a fresh sandbox. Never rejects: every failure,
 * including bad options, is a result with `ok: false` and an `error` text.
 */
export async function runInSandbox(code: string, options: SandboxOptions): Promise<SandboxResult> {
	const started = performance.now()
	const settings = resolveSettings(options)
	const output = new OutputBuffer(settings.maxOutputChars)
	const finish = (outcome: RunOutcome): SandboxResult => ({
		...outcome,
		output: output.text,
		outputTruncated: output.truncated,
		durationMs: performance.now() - started
	})

	const invalid = invalidMethodPaths(options.methods)
	if (invalid.length > 0) {
		return finish({ ok: false, error: `Invalid sandbox method paths: ${invalid.map(String).join(', ')}` })
	}
	if (typeof code !== 'string') return finish({ ok: false, error: 'The code must be a string' })
	if (options.signal?.aborted) return finish({ ok: false, error: 'The run was aborted' })

	let engine: Engine
	try {
		engine = await acquireEngine(settings.memoryLimitBytes)
	} catch (error) {
		return finish({ ok: false, error: `The sandbox could not start: ${String(error)}` })
	}
	const session = new SandboxSession(engine, settings, options, output)
	try {
		return finish(await session.run(code))
	} finally {
		session.dispose()
		releaseEngine(engine)
	}
}
