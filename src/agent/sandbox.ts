/**
 * The agent's code sandbox (docs/architecture.md, "The agent"): runs model-written JavaScript, an async
 * function
 * body, in QuickJS compiled to WebAssembly, on a worker thread so that a CPU-bound guest never
 * blocks the host's event loop (the web servers keep answering). Each run gets a fresh runtime and
 * context on a pooled worker, a memory cap, a stack limit, an interrupt at the deadline and a
 * wall-clock timeout that also covers awaited host calls. The guest sees only
 * `ig.<group>.<method>(...)` for the allowed methods, `console.*` (captured) and `saveFile` (when
 * provided); everything crossing is JSON text, and the host side of the bridge runs here, on the
 * main thread. There are no timers: a body that waits on a promise nothing can settle is stopped at once.
 */
import { sandboxWorkerPool } from './sandbox/default-pool'
import { runOnPool } from './sandbox/run'
import type { SandboxOptions, SandboxResult } from './sandbox/types'

export { type SandboxOptions, type SandboxResult, sandboxDefaults } from './sandbox/types'

/**
 * Runs `code` (the body of an async function) in a fresh sandbox. Never rejects: every failure,
 * including bad options, is a result with `ok: false` and an `error` text.
 */
export function runInSandbox(code: string, options: SandboxOptions): Promise<SandboxResult> {
	return runOnPool(sandboxWorkerPool, code, options)
}

/** Starts a sandbox worker and loads an engine for this memory limit, so the first run starts warm. */
export function warmUpSandbox(memoryLimitBytes: number): Promise<void> {
	return sandboxWorkerPool.warmUp(memoryLimitBytes)
}
