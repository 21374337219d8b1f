/**
 * The process's sandbox worker pool, and where its worker script is. From source (`bun test`,
 * `bun src/main.ts`) the worker is ./worker.ts next to this file. In a `bun build --compile`
 * executable every bundled module reports the executable's own URL inside Bun's embedded file
 * system (`file:///$bunfs/root/<name>`, `B:/~BUN/root/` on Windows), and each extra entry point is
 * stored there as JavaScript under its path relative to the entry points' common folder (src/): so
 * package.json's build lists src/agent/sandbox/worker.ts, and the executable finds it at
 * `/$bunfs/root/agent/sandbox/worker.js`, whatever the working directory.
 */
import { WorkerPool } from './pool'
import type { WorkerThread } from './worker-handle'

/** Where the compiled executable keeps the worker entry point, relative to its own URL. */
const COMPILED_WORKER_PATH = './agent/sandbox/worker.js'

/** True when this code runs from a `bun build --compile` executable. */
export function isCompiledExecutable(moduleUrl: string = import.meta.url): boolean {
	return moduleUrl.includes('/$bunfs/') || moduleUrl.includes('/~BUN/')
}

/** The URL the worker thread is started from. */
export function workerScriptUrl(moduleUrl: string = import.meta.url): string {
	return isCompiledExecutable(moduleUrl)
		? new URL(COMPILED_WORKER_PATH, moduleUrl).href
		: new URL('./worker.ts', moduleUrl).href
}

/**
 * Up to four workers (enough for the agent's three parallel tasks plus one), two kept idle. A
 * stopped guest normally answers within milliseconds; two seconds covers a slow native operation.
 */
export const sandboxWorkerPool = new WorkerPool({
	maxWorkers: 4,
	maxIdleWorkers: 2,
	stopGraceMs: 2000,
	createWorker: () => new Worker(workerScriptUrl()) as WorkerThread
})
