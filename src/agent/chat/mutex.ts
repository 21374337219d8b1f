/**
 * A first-in, first-out lock: the agent web server and the playground serve one ask (or parallel
 * run, or reset) at a time per conversation (docs/architecture.md, "Chat on the servers"); a second
 * waits its turn. Only askers wait: GET requests never take the lock, so a running ask never stalls
 * the other clients.
 */

/** Thrown to a waiter whose signal aborted before its turn came. */
export class LockWaitAbortedError extends Error {
	override name = 'LockWaitAbortedError'
	constructor() {
		super('Cancelled while waiting for the previous question to finish')
	}
}

interface Waiter {
	grant: (release: () => void) => void
}

/** The lock. `acquire` resolves to a release function that must be called exactly once. */
export class FifoMutex {
	private held = false
	private readonly waiters: Waiter[] = []

	/** Whether someone holds the lock now. */
	get locked(): boolean {
		return this.held
	}

	/** How many are waiting behind the holder. */
	get waiting(): number {
		return this.waiters.length
	}

	/**
	 * Waits for the lock in arrival order. With `signal`, aborting while waiting leaves the queue
	 * (rejects with LockWaitAbortedError) without disturbing the others' order.
	 */
	acquire(signal?: AbortSignal): Promise<() => void> {
		if (signal?.aborted) return Promise.reject(new LockWaitAbortedError())
		if (!this.held) {
			this.held = true
			return Promise.resolve(this.releaser())
		}
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				grant: (release) => {
					signal?.removeEventListener('abort', onAbort)
					resolve(release)
				}
			}
			const onAbort = () => {
				const index = this.waiters.indexOf(waiter)
				if (index >= 0) this.waiters.splice(index, 1)
				reject(new LockWaitAbortedError())
			}
			signal?.addEventListener('abort', onAbort, { once: true })
			this.waiters.push(waiter)
		})
	}

	/** Runs `task` while holding the lock. */
	async run<Result>(task: () => Promise<Result>, signal?: AbortSignal): Promise<Result> {
		const release = await this.acquire(signal)
		try {
			return await task()
		} finally {
			release()
		}
	}

	private releaser(): () => void {
		let released = false
		return () => {
			if (released) return
			released = true
			const next = this.waiters.shift()
			if (next) next.grant(this.releaser())
			else this.held = false
		}
	}
}
