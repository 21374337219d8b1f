/**
 * A small pool of sandbox worker threads, created lazily and reused across runs (each run still
 * gets a fresh QuickJS runtime and context inside its worker). Runs beyond `maxWorkers` wait for a
 * free worker; the wait counts against their deadline. A worker that ends or misbehaves is dropped
 * and the next run gets a new one. Idle workers are unref'd and at most `maxIdleWorkers` are kept.
 */
import { SandboxWorker, type WorkerThread } from './worker-handle'

/** How the pool is sized and how it starts a worker thread. */
export interface WorkerPoolOptions {
	/** Worker threads at most, busy and idle together. */
	maxWorkers: number
	/** Idle workers kept for the next runs; more are terminated when they finish. */
	maxIdleWorkers: number
	/** Starts one worker thread running src/agent/sandbox/worker.ts. */
	createWorker(): WorkerThread
	/** How long a run waits for its worker to answer a stop before the worker is terminated. */
	stopGraceMs: number
}

/** Counts for diagnostics and tests. */
export interface WorkerPoolStats {
	/** Workers alive now. */
	workers: number
	idle: number
	busy: number
	/** Runs waiting for a worker. */
	waiting: number
	/** Workers started since the pool was created (replacements included). */
	started: number
}

interface Waiter {
	resolve(worker: SandboxWorker): void
	reject(error: unknown): void
	signal?: AbortSignal
	onAbort(): void
}

/** The workers of one process (see default-pool.ts for the one the sandbox uses). */
export class WorkerPool {
	private readonly idle: SandboxWorker[] = []
	private readonly busy = new Set<SandboxWorker>()
	private readonly waiters: Waiter[] = []
	private compiledModule: WebAssembly.Module | undefined
	private started = 0

	constructor(readonly options: WorkerPoolOptions) {}

	/** A free worker, a new one if there is room, or the next one released. Rejects when `signal` aborts. */
	acquire(signal?: AbortSignal): Promise<SandboxWorker> {
		if (signal?.aborted) return Promise.reject(new Error('aborted while waiting for a sandbox worker'))
		const worker = this.idle.pop()
		if (worker) {
			this.busy.add(worker)
			return Promise.resolve(worker)
		}
		if (this.busy.size < this.options.maxWorkers) {
			try {
				return Promise.resolve(this.spawn())
			} catch (error) {
				return Promise.reject(error)
			}
		}
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				resolve,
				reject,
				signal,
				onAbort: () => {
					const at = this.waiters.indexOf(waiter)
					if (at >= 0) this.waiters.splice(at, 1)
					reject(new Error('aborted while waiting for a sandbox worker'))
				}
			}
			signal?.addEventListener('abort', waiter.onAbort, { once: true })
			this.waiters.push(waiter)
		})
	}

	/** Gives back a worker whose task ended normally. */
	release(worker: SandboxWorker): void {
		this.busy.delete(worker)
		if (!worker.alive) {
			this.serveWaiter()
			return
		}
		const waiter = this.nextWaiter()
		if (waiter) {
			this.busy.add(worker)
			waiter.resolve(worker)
			return
		}
		if (this.idle.length >= this.options.maxIdleWorkers) worker.terminate()
		else this.idle.push(worker)
	}

	/** Drops a worker that cannot be trusted (stuck, crashed) and starts a replacement if a run waits. */
	discard(worker: SandboxWorker): void {
		this.busy.delete(worker)
		const at = this.idle.indexOf(worker)
		if (at >= 0) this.idle.splice(at, 1)
		if (worker.alive) worker.terminate()
		this.serveWaiter()
	}

	/** Terminates every worker; runs in progress end with an error, later runs start new workers. */
	terminateAll(): void {
		for (const worker of [...this.idle, ...this.busy]) this.discard(worker)
	}

	/** Counts for diagnostics and tests. */
	stats(): WorkerPoolStats {
		return {
			workers: this.idle.length + this.busy.size,
			idle: this.idle.length,
			busy: this.busy.size,
			waiting: this.waiters.length,
			started: this.started
		}
	}

	/** Starts a worker and makes it load an engine for this memory limit, so the next run starts warm. */
	async warmUp(memoryLimitBytes: number): Promise<void> {
		const worker = await this.acquire()
		let failed = false
		try {
			await new Promise<void>((resolve, reject) => {
				const taskId = worker.begin({
					onMessage: (message) => {
						if (message.type !== 'warmed') return
						if (message.error) reject(new Error(`The sandbox could not start: ${message.error}`))
						else resolve()
					},
					onExit: (reason) => reject(new Error(`The sandbox could not start: ${reason}`))
				})
				worker.post({ type: 'warm', runId: taskId, memoryLimitBytes })
			})
		} catch (error) {
			failed = true
			throw error
		} finally {
			worker.end()
			if (failed) this.discard(worker)
			else this.release(worker)
		}
	}

	private spawn(): SandboxWorker {
		const worker = new SandboxWorker(this.options.createWorker(), this.compiledModule, {
			onCompiled: (module) => {
				this.compiledModule ??= module
			},
			onExit: (exited) => {
				// An idle worker that ended is simply forgotten; a busy one is discarded by its run.
				const at = this.idle.indexOf(exited)
				if (at >= 0) this.idle.splice(at, 1)
			}
		})
		worker.end()
		this.started++
		this.busy.add(worker)
		return worker
	}

	private nextWaiter(): Waiter | undefined {
		const waiter = this.waiters.shift()
		waiter?.signal?.removeEventListener('abort', waiter.onAbort)
		return waiter
	}

	/** A slot became free: the first waiting run gets a new worker. */
	private serveWaiter(): void {
		if (this.busy.size >= this.options.maxWorkers) return
		const waiter = this.nextWaiter()
		if (!waiter) return
		try {
			waiter.resolve(this.spawn())
		} catch (error) {
			waiter.reject(error)
		}
	}
}
