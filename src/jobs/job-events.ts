/**
 * The events of a `JobManager`'s jobs: subscribers of one job or of all, the wait each job is in
 * now (for a subscriber arriving during it), and the waiters of `settled()`.
 *
 *   const events = new JobEvents((id) => jobs.get(id))
 *   events.emit({ type: 'page', job, added: 200 })
 *   events.notifySettled(job.id)   // once the job is no longer queued, running or waiting
 */
import { isActiveJob, type Job, type JobEvent, type JobStatus } from './types'

export type Listener = (event: JobEvent) => void

/** Listeners, current waits and settled waiters, by job. */
export class JobEvents {
	readonly #read: (id: number) => Job | undefined
	readonly #listeners = new Map<number | 'all', Set<Listener>>()
	/** The last `wait` event of each job, until its next event (see `currentWait`). */
	readonly #waits = new Map<number, { event: JobEvent; until: number }>()
	readonly #settledWaiters = new Map<number, (() => void)[]>()
	/** The status each job's last `status` event said, until it settles. */
	readonly #said = new Map<number, JobStatus>()

	/** `read` gives a job as it is now (from the store). */
	constructor(read: (id: number) => Job | undefined) {
		this.#read = read
	}

	/** Subscribes to one job's events, or every job's with `'all'`. Returns the unsubscribe. */
	subscribe(id: number | 'all', listener: Listener): () => void {
		const set = this.#listeners.get(id) ?? new Set()
		set.add(listener)
		this.#listeners.set(id, set)
		return () => {
			set.delete(listener)
			if (set.size === 0) this.#listeners.delete(id)
		}
	}

	/** True while someone listens to job `id` itself or waits for it to settle. */
	followed(id: number): boolean {
		return this.#listeners.has(id) || this.#settledWaiters.has(id)
	}

	/**
	 * Resolves when the job is no longer queued, running or waiting (or is deleted), or as it is
	 * when `signal` aborts: a waiter that went away (an event stream closed) is forgotten.
	 */
	settled(id: number, signal?: AbortSignal): Promise<Job | undefined> {
		const job = this.#read(id)
		if (!job || !isActiveJob(job) || signal?.aborted) return Promise.resolve(job)
		return new Promise((resolve) => {
			const waiters = this.#settledWaiters.get(id) ?? []
			const waiter = () => {
				signal?.removeEventListener('abort', leave)
				resolve(this.#read(id))
			}
			const leave = () => {
				const left = (this.#settledWaiters.get(id) ?? []).filter((entry) => entry !== waiter)
				if (left.length > 0) this.#settledWaiters.set(id, left)
				else this.#settledWaiters.delete(id)
				resolve(this.#read(id))
			}
			waiters.push(waiter)
			this.#settledWaiters.set(id, waiters)
			signal?.addEventListener('abort', leave, { once: true })
		})
	}

	/**
	 * The wait a job is in now (backing off, or held by the rate limiter), as its last `wait` event
	 * with the time left: a subscriber arriving during the wait learns of it at once.
	 */
	currentWait(id: number): JobEvent | undefined {
		const wait = this.#waits.get(id)
		const left = wait ? wait.until - Date.now() : 0
		return wait && left > 0 ? { ...wait.event, wait_ms: left } : undefined
	}

	/** The status the job's last `status` event said, since it last settled. */
	lastStatus(id: number): JobStatus | undefined {
		return this.#said.get(id)
	}

	emit(event: JobEvent): void {
		const id = event.job.id
		if (event.type === 'status') this.#said.set(id, event.job.status)
		if (event.type === 'wait') this.#waits.set(id, { event, until: Date.now() + (event.wait_ms ?? 0) })
		else this.#waits.delete(id)
		for (const key of [event.job.id, 'all'] as const)
			for (const listener of this.#listeners.get(key) ?? []) {
				try {
					listener(event)
				} catch {
					// A subscriber's failure (a closed stream) must not stop the job.
				}
			}
	}

	/**
	 * Job `id` is no longer run, queued or parked by the manager: `settled()` waiters learn when it is
	 * over. Not stopped there (`elsewhere` given), its status is another process's word (it paused,
	 * cancelled or runs the job): subscribers learn it and, while that process runs the job, get its
	 * progress (`follow`, read from the store) until it settles, unless the manager runs it again.
	 */
	ended(
		id: number,
		elsewhere?: { follow: (relay: Listener) => Promise<void>; runsHere: () => boolean }
	): void {
		const job = this.#read(id)
		if (elsewhere && job && job.status !== this.lastStatus(id)) {
			this.emit({ type: 'status', job })
			if (isActiveJob(job) && this.followed(id)) {
				const relay = (event: JobEvent) => {
					if (!elsewhere.runsHere()) this.emit(event)
				}
				void elsewhere.follow(relay).then(() => {
					if (!elsewhere.runsHere()) this.notifySettled(id)
				})
			}
		}
		if (!job || !isActiveJob(job)) this.notifySettled(id)
	}

	/** Resolves the `settled()` waiters of job `id`. */
	notifySettled(id: number): void {
		this.#said.delete(id)
		const waiters = this.#settledWaiters.get(id)
		this.#settledWaiters.delete(id)
		for (const resolve of waiters ?? []) resolve()
	}
}
