/**
 * Runs the jobs of one owner (the playground, or another feature) inside a long-lived process: a
 * queue with at most `maxRunning` jobs at once, pause/resume/cancel/delete, progress events for
 * subscribers (the playground's server-sent events), and recovery: `resumeInterrupted()` picks up
 * the jobs that were queued or running when the previous process stopped, from their checkpoints.
 * It holds every job it queues (`runner_pid`) until it has run it or let it go, so other processes
 * on the store (a second playground) tell a job it will run from one left queued by a dead process.
 *
 *   const manager = new JobManager({ jobs: new JobStore(openStore(path)), ig })
 *   manager.resumeInterrupted()
 *   const job = manager.start({ kind: 'followers', target: 'mega.travel' })
 *   const unsubscribe = manager.subscribe(job.id, (event) => ...)
 *   await manager.settled(job.id)   // resolves when it is done, failed, paused or cancelled
 *   await manager.stop()            // on shutdown: running jobs stay `running` and resume next start
 */
import { terminalLine } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { ParkedJobs } from './handover'
import { JobEvents, type Listener } from './job-events'
import { actionRefusal, type ControlAction, deleteOutside, followStored, outsideView } from './outside'
import { JobBusyError, type RunOptions, runJob } from './run'
import { JobStore } from './store'
import type { Job, JobEvent, JobSpec } from './types'

/** Settings of a manager. */
export interface JobManagerOptions extends Omit<RunOptions, 'ig' | 'signal' | 'onEvent'> {
	jobs: JobStore
	ig: InstagramClient
	/** The `owner` of the jobs it creates and resumes (default `playground`). */
	owner?: string
	/**
	 * Owners of other processes whose jobs it also lists, follows and deletes once no process runs
	 * them, but does not run, pause, resume or cancel (see `outside.ts`).
	 */
	shows?: readonly string[]
	/** Jobs running at once (default 2); the others wait as `queued`. */
	maxRunning?: number
	/** Receives log lines about unexpected failures (default console.error). */
	log?: (line: string) => void
}

type StopReason = 'pause' | 'cancel' | 'delete' | 'shutdown'

/** A job that cannot take the asked action in its current status. */
export class JobStateError extends Error {
	override name = 'JobStateError'
}

/** Queue, runs and events of one owner's jobs. */
export class JobManager {
	readonly jobs: JobStore
	readonly owner: string
	readonly #options: JobManagerOptions
	readonly #maxRunning: number
	readonly #queue: number[] = []
	readonly #running = new Map<number, { controller: AbortController; done: Promise<void> }>()
	readonly #events: JobEvents
	/** Aborted by `stop()`: ends parked jobs' watches and the following of jobs run elsewhere (`#ended`). */
	readonly #stopping = new AbortController()
	/** Queued here while another live process holds them: they wait without a run slot (handover.ts). */
	readonly #parked: ParkedJobs
	#stopped = false

	constructor(options: JobManagerOptions) {
		this.#options = options
		this.jobs = options.jobs
		this.owner = options.owner ?? 'playground'
		this.#maxRunning = options.maxRunning ?? 2
		this.#events = new JobEvents((id) => this.jobs.get(id))
		this.#parked = new ParkedJobs(this.jobs, this.#stopping.signal, {
			letGo: (id) => this.#enqueue(id, true),
			left: (id) => this.#ended(id),
			// Left as the store has it: its holder runs it, or, let go, it shows paused (outside.ts).
			failed: (id, error) => this.#failed(id, error, false)
		})
	}

	/** Creates a job and queues it. */
	start(spec: JobSpec): Job {
		// Held as it is created: no other process sees it queued with nobody to run it.
		const job = this.jobs.store.transaction(() => {
			const created = this.jobs.create(spec, this.owner)
			this.jobs.claim(created.id)
			return created
		})
		this.#enqueue(job.id)
		return this.jobs.get(job.id) as Job
	}

	/**
	 * Continues this owner's unfinished job of the same kind, target and limit (a paused or failed one
	 * is queued again, from its last stored page), as rerunning `smkit collect` does; else starts one.
	 */
	startOrContinue(spec: JobSpec): Job {
		// As shown: one a dead process of this owner left queued or running is paused in effect.
		const found = this.jobs.findUnfinished(spec, this.owner)
		const unfinished = found && this.get(found.id)
		if (!unfinished) return this.start(spec)
		return unfinished.status === 'paused' || unfinished.status === 'failed'
			? this.resume(unfinished.id)
			: unfinished
	}

	/** Queues this owner's jobs that a stopped process left queued, running or waiting. */
	resumeInterrupted(): Job[] {
		const jobs = this.jobs.interrupted(this.owner)
		for (const job of jobs) {
			this.jobs.setStatus(job.id, 'queued')
			this.#enqueue(job.id)
		}
		return jobs
	}

	/** A job of this owner, or of an owner it shows, or undefined. */
	get(id: number): Job | undefined {
		const job = this.jobs.get(id)
		return job && this.#shown(job)
	}

	/** This owner's jobs and those of the owners it shows, newest first. */
	list(): Job[] {
		return this.jobs.list([this.owner, ...(this.#options.shows ?? [])]).map((job) => this.#shown(job) as Job)
	}

	/** True when this manager runs the job (false: another process's, shown only). */
	owns(job: Job): boolean {
		return job.owner === this.owner
	}

	/** Whether this process runs the job or has it queued or parked (its events come from here, not the store). */
	runsHere(id: number): boolean {
		return this.#running.has(id) || this.#queue.includes(id) || this.#parked.has(id)
	}

	#shown(job: Job): Job | undefined {
		// Another process of the same owner (a second playground on the store) may run it, or have
		// died running it: then it shows as that process left it (paused when it is gone).
		if (job.owner === this.owner) return this.runsHere(job.id) ? job : outsideView(this.jobs, job, this.owner)
		return this.#options.shows?.includes(job.owner) ? outsideView(this.jobs, job) : undefined
	}

	/** Pauses a queued, running or waiting job (it resumes from its checkpoint). */
	async pause(id: number): Promise<Job> {
		return this.#halt(id, 'pause', ['queued', 'running', 'waiting'])
	}

	/** Cancels an unfinished job; its records stay for export. */
	async cancel(id: number): Promise<Job> {
		return this.#halt(id, 'cancel', ['queued', 'running', 'waiting', 'paused'])
	}

	/**
	 * Queues a paused, failed or cancelled job again; it continues from its last stored page. One
	 * another live process still holds (paused here while it ran there) goes on there, or runs here
	 * once that process lets it go (parked meanwhile, handover.ts).
	 */
	resume(id: number): Job {
		this.#require(id, 'resume', ['paused', 'failed', 'cancelled'])
		this.jobs.claim(id)
		this.#events.emit({ type: 'status', job: this.jobs.setStatus(id, 'queued') })
		this.#enqueue(id)
		return this.jobs.get(id) as Job
	}

	/** Stops the job if it runs, then deletes it and its records. Another process's job only once it has stopped. */
	async delete(id: number): Promise<void> {
		const job = this.get(id)
		if (!job) throw new JobStateError(`No job ${id}`)
		if (!this.owns(job)) {
			const refusal = deleteOutside(this.jobs, job)
			if (refusal) throw new JobStateError(refusal)
			return
		}
		await this.#abort(id, 'delete')
		this.#dequeue(id)
		this.jobs.delete(id)
		this.#events.notifySettled(id)
	}

	/** Subscribes to one job's events, or every job's with `'all'`. Returns the unsubscribe. */
	subscribe(id: number | 'all', listener: Listener): () => void {
		return this.#events.subscribe(id, listener)
	}

	/** Resolves when the job is no longer queued, running or waiting, is deleted, or `signal` aborts. */
	settled(id: number, signal?: AbortSignal): Promise<Job | undefined> {
		return this.#events.settled(id, signal)
	}

	/** The wait (back-off, rate limiter) a job is in now, as its last `wait` event with the time left. */
	currentWait(id: number): JobEvent | undefined {
		return this.#events.currentWait(id)
	}

	/** Stops every run, leaving their status as it is so the next process resumes them. */
	async stop(): Promise<void> {
		this.#stopped = true
		this.#stopping.abort()
		this.#parked.clear()
		// Queued ones are no longer held: the next process of this owner, or another running now, takes them.
		for (const id of this.#queue.splice(0)) this.jobs.release(id)
		await Promise.all([...this.#running.keys()].map((id) => this.#abort(id, 'shutdown')))
	}

	/** A job this manager runs, in a status `action` applies to (else why not, see `actionRefusal`). */
	#require(id: number, action: ControlAction, from: readonly string[]): Job {
		const job = this.get(id)
		const refusal = job ? actionRefusal(this.jobs, job, this.owner, action, from) : `No job ${id}`
		if (refusal) throw new JobStateError(refusal)
		return job as Job
	}

	async #halt(id: number, reason: 'pause' | 'cancel', from: readonly string[]): Promise<Job> {
		this.#require(id, reason, from)
		await this.#abort(id, reason)
		this.#dequeue(id)
		this.jobs.release(id)
		const status = reason === 'pause' ? 'paused' : 'cancelled'
		const message = reason === 'pause' ? 'Paused: resume it to continue from where it stopped' : null
		const updated = this.jobs.setStatus(id, status, message, null)
		this.#events.emit({ type: 'status', job: updated })
		this.#events.notifySettled(id)
		this.#pump()
		return updated
	}

	async #abort(id: number, reason: StopReason): Promise<void> {
		const running = this.#running.get(id)
		if (!running) return
		running.controller.abort(new Error(`job ${reason}`))
		await running.done
	}

	/** Queues the job, at the head when its turn came already (`first`: a parked job let go). */
	#enqueue(id: number, first = false): void {
		// Held from now on, so another process does not take it for abandoned (outside.ts). When
		// another live process holds it still, it is parked in #run until that one lets it go.
		this.jobs.claim(id)
		this.#parked.unpark(id)
		if (!this.#queue.includes(id) && !this.#running.has(id)) this.#queue[first ? 'unshift' : 'push'](id)
		this.#pump()
	}

	#dequeue(id: number): void {
		this.#parked.unpark(id)
		const index = this.#queue.indexOf(id)
		if (index >= 0) this.#queue.splice(index, 1)
	}

	#pump(): void {
		while (!this.#stopped && this.#running.size < this.#maxRunning && this.#queue.length > 0) {
			const id = this.#queue.shift() as number
			const controller = new AbortController()
			let busy = false
			const done = this.#run(id, controller)
				.then((held) => {
					busy = held
				})
				.finally(() => {
					// Out of the running before it is parked: its holder may have let it go already.
					this.#running.delete(id)
					if (busy && !controller.signal.aborted) this.#parked.park(id)
					else this.#ended(id, controller.signal.aborted)
					this.#pump()
				})
			this.#running.set(id, { controller, done })
		}
	}

	/** Runs the job; true when another live process holds it (it is parked then, see `#pump`). */
	async #run(id: number, controller: AbortController): Promise<boolean> {
		try {
			// Every way into the queue leaves the job queued: any other status (paused, cancelled or
			// deleted by another process on the store while it waited, or run by the process that held
			// it) means it is no longer to run here.
			if (this.jobs.get(id)?.status !== 'queued') return false
			await runJob(this.jobs, id, {
				...this.#options,
				signal: controller.signal,
				onEvent: (event) => this.#events.emit(event)
			})
		} catch (error) {
			// Another live process holds it (resumed here while it still ran it there, or had it queued):
			// that one goes on with it, or lets it go and it runs here. It waits parked, freeing the slot.
			if (error instanceof JobBusyError) return true
			this.#failed(id, error, !controller.signal.aborted)
		} finally {
			this.jobs.release(id)
		}
		return false
	}

	/** A run (or a parked job's watch) that broke: said in the log, and the job failed (`markFailed`). */
	#failed(id: number, error: unknown, markFailed: boolean): void {
		const message = error instanceof Error ? error.message : String(error)
		;(this.#options.log ?? console.error)(terminalLine(`job ${id}: ${message}`))
		if (markFailed && this.jobs.get(id))
			this.#events.emit({ type: 'status', job: this.jobs.setStatus(id, 'failed', message, 'internal_error') })
	}

	/** A job no longer run, queued or parked here (`JobEvents.ended`). */
	#ended(id: number, stoppedHere = false): void {
		const follow = (relay: Listener) => followStored(this.jobs, id, relay, this.#stopping.signal)
		this.#events.ended(id, stoppedHere ? undefined : { follow, runsHere: () => this.runsHere(id) })
	}
}

export { JobStore }
