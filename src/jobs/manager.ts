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
import { untilLetGo } from './handover'
import { JobEvents, type Listener } from './job-events'
import { busyRefusal, controlRefusal, followStored, outsideView } from './outside'
import { JobBusyError, type RunOptions, runJob } from './run'
import { JobStore } from './store'
import { isActiveJob, type Job, type JobEvent, type JobSpec } from './types'

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
	/** Aborted by `stop()`: ends the following of jobs another process took over (`#endedElsewhere`). */
	readonly #stopping = new AbortController()
	#stopped = false

	constructor(options: JobManagerOptions) {
		this.#options = options
		this.jobs = options.jobs
		this.owner = options.owner ?? 'playground'
		this.#maxRunning = options.maxRunning ?? 2
		this.#events = new JobEvents((id) => this.jobs.get(id))
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

	/** Whether this process runs the job or has it queued (its events come from here, not the store). */
	runsHere(id: number): boolean {
		return this.#running.has(id) || this.#queue.includes(id)
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
	 * once that process lets it go (`#run`, handover.ts).
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
			const runner = this.jobs.liveRunner(id)
			if (runner !== null) throw new JobStateError(busyRefusal(job, runner))
			this.jobs.delete(id)
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
		// Queued ones are no longer held: the next process of this owner, or another running now, takes them.
		for (const id of this.#queue.splice(0)) this.jobs.release(id)
		await Promise.all([...this.#running.keys()].map((id) => this.#abort(id, 'shutdown')))
	}

	/**
	 * A job this manager runs, in a status `action` applies to. The status is said first, of any
	 * job: a finished collect's job was told to be run again in its terminal. Another process's
	 * job is refused, saying where it is controlled.
	 */
	#require(id: number, action: 'pause' | 'resume' | 'cancel', from: readonly string[]): Job {
		const job = this.get(id)
		if (!job) throw new JobStateError(`No job ${id}`)
		if (!from.includes(job.status))
			throw new JobStateError(
				action === 'resume'
					? `Job ${id} is ${job.status}; only a paused, failed or cancelled job can be resumed`
					: `Job ${id} is ${job.status}; it cannot be ${action === 'pause' ? 'paused' : 'cancelled'}`
			)
		if (!this.owns(job)) throw new JobStateError(controlRefusal(job, action))
		const otherWorld = action === 'resume' ? this.jobs.otherWorld(job) : undefined
		if (otherWorld) throw new JobStateError(otherWorld)
		return job
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

	#enqueue(id: number): void {
		// Held from now on, so another process does not take it for abandoned (outside.ts). When
		// another live process holds it still, it is taken over from that one in #run.
		this.jobs.claim(id)
		if (!this.#queue.includes(id) && !this.#running.has(id)) this.#queue.push(id)
		this.#pump()
	}

	#dequeue(id: number): void {
		const index = this.#queue.indexOf(id)
		if (index >= 0) this.#queue.splice(index, 1)
	}

	#pump(): void {
		while (!this.#stopped && this.#running.size < this.#maxRunning && this.#queue.length > 0) {
			const id = this.#queue.shift() as number
			const controller = new AbortController()
			const done = this.#run(id, controller).finally(() => {
				this.#running.delete(id)
				if (!controller.signal.aborted) this.#endedElsewhere(id)
				const job = this.jobs.get(id)
				if (!job || !isActiveJob(job)) this.#events.notifySettled(id)
				this.#pump()
			})
			this.#running.set(id, { controller, done })
		}
	}

	async #run(id: number, controller: AbortController): Promise<void> {
		try {
			// Every way into the queue leaves the job queued: any other status (paused, cancelled or
			// deleted by another process on the store while it waited, or run by the process that held
			// it) means it is no longer to run here.
			while (!controller.signal.aborted && this.jobs.get(id)?.status === 'queued') {
				try {
					await runJob(this.jobs, id, {
						...this.#options,
						signal: controller.signal,
						onEvent: (event) => this.#events.emit(event)
					})
					return
				} catch (error) {
					if (!(error instanceof JobBusyError)) throw error
				}
				// Another live process holds it (resumed here while it still ran it there, or had it
				// queued): that one goes on with it, or lets it go and it runs here (handover.ts).
				await untilLetGo(this.jobs, id, controller.signal)
			}
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error)
			;(this.#options.log ?? console.error)(terminalLine(`job ${id}: ${message}`))
			if (this.jobs.get(id) && !controller.signal.aborted)
				this.#events.emit({
					type: 'status',
					job: this.jobs.setStatus(id, 'failed', message, 'internal_error')
				})
		} finally {
			this.jobs.release(id)
		}
	}

	/**
	 * A job whose run here ended with a status another process wrote (it paused, cancelled or runs the
	 * job): this manager's subscribers learn it and, while that process runs the job, follow its
	 * progress through the store until it settles.
	 */
	#endedElsewhere(id: number): void {
		const job = this.jobs.get(id)
		if (!job || job.status === this.#events.lastStatus(id)) return
		this.#events.emit({ type: 'status', job })
		if (!isActiveJob(job) || !this.#events.followed(id)) return
		const relay = (event: JobEvent) => {
			if (!this.runsHere(id)) this.#events.emit(event)
		}
		void followStored(this.jobs, id, relay, this.#stopping.signal).then(() => {
			if (!this.runsHere(id)) this.#events.notifySettled(id)
		})
	}
}

export { JobStore }
