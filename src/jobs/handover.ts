/**
 * A job resumed by one process of an owner while another (two playgrounds on one store) still holds
 * it: the other was running it when it was paused here a moment ago, or has it queued. Each process
 * holds the jobs it runs or has queued (`runner_pid`, `JobStore.claim`), so the one resuming cannot
 * claim it, and waits instead of dropping the resume:
 *
 * - a holder still running it finds it `queued` at its next check and takes it back as `running`
 *   (run.ts): the job goes on there, and the status leaves `queued`;
 * - a holder that had it queued runs it when its turn comes: the status leaves `queued` too;
 * - a holder that stopped on the pause (or died) lets it go: the resuming process claims and runs it.
 *
 * The waiting process parks the job (`ParkedJobs`): it waits without a run slot. A slot spent
 * waiting could deadlock two processes, each waiting in its slots for a job the other holds queued
 * and will run only once it has a free slot.
 *
 *   const parked = new ParkedJobs(jobs, stopping, { letGo: (id) => queue(id), left: (id) => tell(id) })
 *   parked.park(id)   // on JobBusyError; `letGo` or `left` follows
 */
import type { JobStore } from './store'

/** How often a process waiting for a job looks whether its holder let it go. */
export const HANDOVER_POLL_MS = 100

/**
 * Resolves once queued job `id` has no other live holder (it let the job go, or died), or is no
 * longer this process's to take: deleted, no longer queued (its holder runs it, or someone paused or
 * cancelled it), or `signal` aborted. The caller reads which.
 */
export async function untilLetGo(
	jobs: JobStore,
	id: number,
	signal: AbortSignal,
	pollMs = HANDOVER_POLL_MS
): Promise<void> {
	while (!signal.aborted && jobs.get(id)?.status === 'queued' && jobs.liveRunner(id) !== null)
		await new Promise<void>((resolve) => {
			const done = () => {
				clearTimeout(timer)
				signal.removeEventListener('abort', done)
				resolve()
			}
			const timer = setTimeout(done, pollMs)
			signal.addEventListener('abort', done, { once: true })
		})
}

/** What becomes of a parked job once its watch ends. */
export interface ParkedOutcomes {
	/** Still queued and its holder let it go: it is this process's to run (queue it again). */
	letGo: (id: number) => void
	/** No longer queued (its holder runs it; paused, cancelled or deleted): it is not run here. */
	left: (id: number) => void
	/** The watch failed (the store): the job is no longer parked. */
	failed: (id: number, error: unknown) => void
}

/**
 * Jobs this process has queued that another live process holds, each with a watch that takes no run
 * slot. A parked job is neither run nor held here: exactly one of its outcomes follows, unless it is
 * unparked first (queued, paused, cancelled or deleted here) or `stopping` aborts.
 */
export class ParkedJobs {
	readonly #jobs: JobStore
	readonly #stopping: AbortSignal
	readonly #outcomes: ParkedOutcomes
	readonly #watches = new Map<number, AbortController>()

	constructor(jobs: JobStore, stopping: AbortSignal, outcomes: ParkedOutcomes) {
		this.#jobs = jobs
		this.#stopping = stopping
		this.#outcomes = outcomes
	}

	/** True while job `id` is parked. */
	has(id: number): boolean {
		return this.#watches.has(id)
	}

	/** Parks job `id` until its holder lets it go or it leaves `queued`. */
	park(id: number): void {
		if (this.#watches.has(id) || this.#stopping.aborted) return
		const watch = new AbortController()
		this.#watches.set(id, watch)
		const signal = AbortSignal.any([watch.signal, this.#stopping])
		untilLetGo(this.#jobs, id, signal)
			.then(() => {
				if (signal.aborted) return
				this.#watches.delete(id)
				const letGo = this.#jobs.get(id)?.status === 'queued' && this.#jobs.liveRunner(id) === null
				if (letGo) this.#outcomes.letGo(id)
				else this.#outcomes.left(id)
			})
			.catch((error) => {
				if (this.#watches.get(id) === watch) this.#watches.delete(id)
				this.#outcomes.failed(id, error)
			})
	}

	/** Ends job `id`'s watch, without an outcome. */
	unpark(id: number): void {
		this.#watches.get(id)?.abort()
		this.#watches.delete(id)
	}

	/** Ends every watch, without outcomes (the process stops: it holds none of these jobs). */
	clear(): void {
		for (const id of [...this.#watches.keys()]) this.unpark(id)
	}
}
