/**
 * Runs watches: the due ones on a timer inside a long-lived process (the playground), or all due
 * ones once (`smkit watch run`), and single ones on request. Runs go one at a time, so watches add at
 * most one upstream request at a time to whatever else the process does, and before each follower
 * page they wait while a budget of the client is more than half used: interactive requests keep the
 * other half and never queue behind a watch.
 *
 * Missed runs: a watch is due when its `next_run_at` has passed; a run moves it to the run's start
 * plus the interval. A process that was down for five intervals runs each overdue watch once at
 * start, and the next run is one interval later.
 *
 *   const scheduler = new WatchScheduler({ watches, jobs, ig })
 *   scheduler.start()                     // runs what is due now, then checks every minute
 *   await scheduler.run(id)               // a snapshot now (joins the run if one is in progress)
 *   await scheduler.stop()                // on shutdown; an interrupted follower list resumes next run
 */
import { terminalLine } from '../cli-error'
import type { InstagramClient } from '../client/client'
import type { RateLimiter } from '../client/rate-limit'
import { sleep } from '../client/rate-limit'
import type { JobStore } from '../jobs/store'
import type { JobEvent } from '../jobs/types'
import { runWatch } from './run'
import type { WatchStore } from './store'
import type { Snapshot, Watch } from './types'

/** Settings of a scheduler. */
export interface WatchSchedulerOptions {
	watches: WatchStore
	jobs: JobStore
	ig: InstagramClient
	/** Folder of the store. */
	dataDir?: string
	/** How often the timer looks for due watches (default one minute). */
	intervalMs?: number
	/** Receives one line per failed scheduled run (default console.error). */
	log?: (line: string) => void
	/** Each event of a run's follower list collection, with the watch it is for. */
	onEvent?: (watch: Watch, event: JobEvent) => void
	/** Awaited before each run (demo mode: catch up with demo time another process moved). */
	beforeRun?: () => Promise<void>
	/**
	 * Demo mode: the hours the simulated Instagram's clock has moved. A run it moved under takes its
	 * snapshot again, its follower list walked again from the first page (`WatchRunOptions.demoTime`).
	 */
	demoTime?: () => Promise<number>
}

/** The outcome of one watch's run: its snapshot, why it failed, or why it was not run (`skipped`). */
export interface WatchOutcome {
	watch: Watch
	snapshot?: Snapshot
	error?: string
	skipped?: string
}

/** How often a run asked for while another process runs the watch looks whether that run ended. */
const JOIN_POLL_MS = 500

/** Budget categories a watch's requests use. */
const WATCH_CATEGORIES = ['get_profile', 'get_followers', 'get_feed', 'get_default'] as const

/** True when every category still has at least half its budget free. */
export function hasHeadroom(limiter: RateLimiter | undefined, categories: readonly string[]): boolean {
	if (!limiter?.enabled) return true
	const state = limiter.remaining()
	return categories.every((category) => {
		const budget = state[category]
		return !budget || budget.remaining * 2 >= budget.limit
	})
}

/** Waits (checking every `stepMs`) until the budgets have headroom. */
export async function waitForHeadroom(
	limiter: RateLimiter | undefined,
	signal: AbortSignal,
	stepMs = 1000
): Promise<void> {
	while (!hasHeadroom(limiter, WATCH_CATEGORIES)) await sleep(stepMs, signal)
}

/** Runs watches one at a time. */
export class WatchScheduler {
	readonly watches: WatchStore
	readonly #options: WatchSchedulerOptions
	readonly #controller = new AbortController()
	readonly #inFlight = new Map<number, Promise<Snapshot | undefined>>()
	#chain: Promise<unknown> = Promise.resolve()
	/** The watch whose run goes on here now (runs go one at a time), if any. */
	#active: number | undefined
	#timer: ReturnType<typeof setInterval> | undefined
	#checking = false

	constructor(options: WatchSchedulerOptions) {
		this.#options = options
		this.watches = options.watches
	}

	/** Runs the watches due now, then checks again every interval. */
	start(): void {
		if (this.#timer) return
		this.#timer = setInterval(() => this.check(), this.#options.intervalMs ?? 60_000)
		this.check()
	}

	/** One look for due watches (ignored while the previous one still runs them). */
	check(): void {
		if (this.#checking || this.#controller.signal.aborted) return
		this.#checking = true
		this.runDue()
			.then((outcomes) => {
				for (const outcome of outcomes)
					if (outcome.error)
						(this.#options.log ?? console.error)(
							terminalLine(`watch ${outcome.watch.id} (${label(outcome.watch)}): ${outcome.error}`)
						)
			})
			.finally(() => {
				this.#checking = false
			})
	}

	/** Runs every watch due at `now` once, longest overdue first; resolves to each outcome. */
	async runDue(now = new Date()): Promise<WatchOutcome[]> {
		const outcomes: WatchOutcome[] = []
		for (const due of this.watches.due(now)) {
			if (this.#controller.signal.aborted) break
			try {
				const snapshot = await this.runIfDue(due.id, now)
				// Another process on the store runs it, or ran it since: its outcome is that process's.
				if (snapshot) outcomes.push({ watch: this.watches.get(due.id) ?? due, snapshot })
			} catch (error) {
				outcomes.push({ watch: this.watches.get(due.id) ?? due, error: (error as Error).message })
			}
		}
		return outcomes
	}

	/** True while the watch runs or waits for its turn here, or runs in another process on the store. */
	isRunning(id: number): boolean {
		return this.#inFlight.has(id) || this.watches.leases.heldElsewhere(id)
	}

	/** True while the watch waits here for its turn: another watch's run goes on first. */
	isQueued(id: number): boolean {
		return this.#inFlight.has(id) && this.#active !== id && !this.watches.leases.heldElsewhere(id)
	}

	/**
	 * Runs the watch now (after any run in progress); a second call while it runs joins the first.
	 * While another process on the store runs it, waits for that run and answers its snapshot.
	 */
	run(id: number): Promise<Snapshot> {
		const current = this.#inFlight.get(id)
		// A run in progress here that turned out not to be due any more: run it now after all.
		if (current) return current.then((snapshot) => snapshot ?? this.run(id))
		return this.#schedule(id) as Promise<Snapshot>
	}

	/**
	 * Runs the watch if it is still due at `now` and no other process runs it; undefined when it
	 * was skipped (another process on the store runs it, or ran it since it was found due).
	 */
	runIfDue(id: number, now = new Date()): Promise<Snapshot | undefined> {
		return this.#inFlight.get(id) ?? this.#schedule(id, now)
	}

	#schedule(id: number, dueAt?: Date): Promise<Snapshot | undefined> {
		const result = this.#chain.then(() => this.#exclusive(id, this.#controller.signal, dueAt))
		const settled = result.finally(() => this.#inFlight.delete(id))
		this.#inFlight.set(id, settled)
		this.#chain = settled.catch(() => undefined)
		return settled
	}

	/** The watch's turn: it is the active one here (no longer queued) while `#claimed` runs it. */
	async #exclusive(id: number, signal: AbortSignal, dueAt?: Date): Promise<Snapshot | undefined> {
		this.#active = id
		try {
			return await this.#claimed(id, signal, dueAt)
		} finally {
			this.#active = undefined
		}
	}

	/** The run itself, holding the watch's lease (run-lease.ts) so no other process runs it meanwhile. */
	async #claimed(id: number, signal: AbortSignal, dueAt?: Date): Promise<Snapshot | undefined> {
		const { leases } = this.watches
		let lastBefore: number | undefined
		while (!leases.claim(id)) {
			if (!this.watches.get(id)) throw new Error(`No watch ${id}`)
			if (dueAt) return undefined
			lastBefore ??= this.watches.snapshots(id).at(-1)?.id ?? 0
			await sleep(JOIN_POLL_MS, signal)
		}
		try {
			const watch = this.watches.get(id)
			if (!watch) throw new Error(`No watch ${id}`)
			if (dueAt && watch.next_run_at > dueAt.toISOString()) return undefined
			const otherWorld = this.watches.otherWorld(watch)
			if (otherWorld) throw new Error(otherWorld)
			this.watches.stampWorld(id)
			// Waited for another process's run: its snapshot, when it stored one, is this run's answer.
			const latest = lastBefore === undefined ? undefined : this.watches.snapshots(id).at(-1)
			if (latest && latest.id > (lastBefore as number)) return latest
			await this.#options.beforeRun?.()
			const limiter = this.#options.ig.stats.limiter
			await waitForHeadroom(limiter, signal)
			return await runWatch(watch, {
				watches: this.watches,
				jobs: this.#options.jobs,
				ig: this.#options.ig,
				signal,
				dataDir: this.#options.dataDir,
				beforePage: (pageSignal) => waitForHeadroom(limiter, pageSignal),
				onEvent: this.#options.onEvent && ((event) => this.#options.onEvent?.(watch, event)),
				demoTime: this.#options.demoTime
			})
		} finally {
			leases.release(id)
		}
	}

	/** Stops the timer and any run (its follower list resumes on the next run). */
	async stop(): Promise<void> {
		clearInterval(this.#timer)
		this.#timer = undefined
		this.#controller.abort(new Error('watch scheduler stopped'))
		await this.#chain
	}
}

/** `@luna.explorer` or `#sunset`. */
export const label = (watch: Pick<Watch, 'kind' | 'target'>) =>
	watch.kind === 'hashtag' ? `#${watch.target}` : `@${watch.target}`
