/**
 * Runs one job to its end: resolves the target, then fetches page after page from the stored
 * cursor, storing each page's records with the cursor after it in one transaction (`storePage`),
 * so a job killed at any moment resumes from its last stored page with nothing lost or repeated.
 * Without a limit the next page is requested before the current one is written (read-ahead), so the
 * upstream works while SQLite writes; pages are still stored strictly in order.
 *
 * Upstream trouble never ends a job early: 429s, 5xx, malformed answers, time-outs and connection
 * failures make it wait (status `waiting`, growing back-off, Instagram's Retry-After honoured) and
 * try the same page again (the client never retries for it: `withoutClientRetries`, so each wait
 * shows); a full client budget makes it wait for the next slot. `login_required` and
 * `challenge_required` pause it with what to do; a target that does not exist or cannot be seen
 * fails it, and so does a list that stops leading anywhere new (a cursor given again, still after
 * `STALL_RETRIES` asks; `STALE_PAGES` pages in a row without a new record), its records and cursor
 * kept for a run again (`ListStopped`). Aborting the signal stops it between two writes and leaves
 * the status to the caller (pause, cancel, shutdown). Another process pausing, cancelling or deleting
 * the job stops it the same way at its next checkpoint (each page, and each second of a back-off or of
 * a request on its way: checkpoints.ts); one resuming it meanwhile (queued) has it go on.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { InstagramClient } from '../client/client'
import { IgError } from '../client/errors'
import { ListStalledError, STALE_PAGES } from '../client/pagination'
import { fetchThroughProxies } from '../client/proxy'
import { withoutClientRetries } from '../client/retry-scope'
import type { Media } from '../client/types'
import { checkpoints } from './checkpoints'
import { downloadFolder, sweepTemporaryFiles, withFiles } from './downloads'
import { KIND_SOURCES } from './kinds'
import {
	ACTIVE,
	backoffWait,
	describe,
	endingOf,
	isTransient,
	JobBusyError,
	JobWorldError,
	ListStopped,
	lostStore,
	ProxyRefusals,
	STALL_RETRIES,
	StoppedElsewhere
} from './run-errors'
import { JobStore, type KeyedRecord } from './store'
import type { Job, JobEvent, JobStatus } from './types'

/** What a run needs besides the store. */
export interface RunOptions {
	ig: InstagramClient
	/** Aborting stops the run (the status stays as it was: the caller decides what it becomes). */
	signal?: AbortSignal
	/** Progress: status changes, one event per stored page, waits. */
	onEvent?: (event: JobEvent) => void
	/** Folder holding `downloads/` for the `media` kind (default `demo`). */
	dataDir?: string
	/** First back-off step in ms (doubling per failure, up to `maxBackoffMs`). Default 2000. */
	backoffMs?: number
	/** Longest back-off step in ms. Default 300000 (5 minutes). */
	maxBackoffMs?: number
	/** Consecutive failed attempts of one step before the job fails. Default 40. */
	maxAttempts?: number
	/**
	 * Consecutive attempts that could not connect to the proxy before the job pauses, saying which
	 * proxy: a proxy that refuses connections will not start accepting them by itself. Default 5.
	 */
	maxProxyRefusals?: number
	/** Fetches media files (tests). Default: the global fetch through the client's proxies. */
	fetch?: typeof fetch
	/**
	 * Awaited before each page is fetched. Background work (watches) waits here while the client's
	 * budgets are busy, so it never takes the slots interactive requests need.
	 */
	beforePage?: (signal: AbortSignal) => Promise<void>
	/**
	 * Awaited once the walk is complete, before the job is marked done: where the output is written
	 * after the walk (`smkit collect`'s CSV or JSON file), the job is finished only once it is, so a
	 * process killed while writing leaves the job unfinished and the next run only writes the file.
	 * To stop there without finishing, abort the signal (the status stays the caller's to set).
	 */
	beforeDone?: (job: Job) => Promise<void>
}

/** A fetched page: its records (keyed) and the cursor after it. */
interface Page {
	records: KeyedRecord[]
	next: string | null
}

/**
 * The job whose run a request belongs to: the client's rate limiter is shared by every caller (the
 * playground, other jobs, watches), and a job reports only the budget waits of its own requests.
 */
const runningJob = new AsyncLocalStorage<number>()

/** Runs job `id` until it is done, paused, failed, or the signal aborts. Resolves to the job. */
export async function runJob(jobs: JobStore, id: number, options: RunOptions): Promise<Job> {
	const job = jobs.get(id)
	const refusal = job && jobs.otherWorld(job)
	if (refusal) throw new JobWorldError(refusal)
	if (!jobs.claim(id)) throw new JobBusyError(`job ${id} is being run by another process`)
	return runningJob.run(id, () => withoutClientRetries(() => runClaimed(jobs, id, options)))
}

/** Runs job `id`, claimed by this process, and releases it at the end. */
async function runClaimed(jobs: JobStore, id: number, options: RunOptions): Promise<Job> {
	const signal = options.signal ?? new AbortController().signal
	const emit = (event: JobEvent) => options.onEvent?.(event)
	const started = performance.now()
	let collectedAtStart = 0
	const rate = (job: Job) => {
		const seconds = (performance.now() - started) / 1000
		return seconds > 0 ? Math.round(((job.collected - collectedAtStart) / seconds) * 10) / 10 : 0
	}
	/** The job as last read: what a run deleted by another process returns. */
	let last = jobs.get(id) as Job
	const setStatus = (status: JobStatus, message: string | null = null, code: string | null = null) => {
		const job = jobs.setStatus(id, status, message, code)
		if (!job) return last
		last = job
		emit({ type: 'status', job })
		return job
	}
	const { checkpoint, backOff, watched } = checkpoints(jobs, id, emit)
	const backoffMs = options.backoffMs ?? 2000
	const maxBackoffMs = options.maxBackoffMs ?? 300_000
	const maxAttempts = options.maxAttempts ?? 40
	/**
	 * While the page read ahead is on its way and the one before it is being stored, its waits are
	 * held and reported after that page: reported before it, the page's event would end them at once
	 * for every listener (progress line, Jobs panel, a stream opened during the wait).
	 */
	let holdWaits = false
	let heldWait: { event: JobEvent; until: number } | null = null
	const emitWait = (event: JobEvent & { wait_ms: number }) => {
		if (holdWaits) heldWait = { event, until: Date.now() + event.wait_ms }
		else emit(event)
	}
	const releaseWait = () => {
		holdWaits = false
		const left = heldWait ? heldWait.until - Date.now() : 0
		if (heldWait && left > 0) emit({ ...heldWait.event, job: jobs.get(id) as Job, wait_ms: left })
		heldWait = null
	}

	const refusals = new ProxyRefusals(options.maxProxyRefusals ?? 5)
	/** Its file deleted or replaced meanwhile, the store keeps nothing: the job fails (a stat, after each page). */
	const storeStillThere = () => {
		const lost = lostStore(jobs.store, last.owner)
		if (lost) throw lost
	}

	/**
	 * Runs `step` (a request, watched: checkpoints.ts) until it succeeds, waiting between transient
	 * failures (until `stop` aborts).
	 */
	async function patiently<Result>(
		step: (stop: AbortSignal) => Promise<Result>,
		stop: AbortSignal = signal
	): Promise<Result> {
		let stalls = 0
		for (let attempt = 0; ; attempt++) {
			try {
				// Taken back from queued meanwhile, it is what the run has it as: waiting after a failure.
				const result = await watched(step, stop, attempt === 0 ? 'running' : 'waiting')
				refusals.succeeded()
				const running = jobs.setStatusFrom(id, 'running', ['waiting'])
				if (running) emit({ type: 'status', job: running })
				return result
			} catch (error) {
				if (error instanceof StoppedElsewhere) throw error
				refusals.failed(error, stop.aborted)
				if (error instanceof ListStalledError && ++stalls > STALL_RETRIES) throw new ListStopped(error.reason)
				if (stop.aborted || !isTransient(error) || attempt + 1 >= maxAttempts) throw error
				const wait = backoffWait(error, attempt, backoffMs, maxBackoffMs)
				const code = error instanceof IgError ? error.kind : 'upstream_error'
				const message = `${describe(error)}; trying again in ${Math.ceil(wait / 1000)} s`
				// Unless another process paused, cancelled or deleted the job meanwhile: its word stands
				// (resumed there, queued, it is this run's again).
				const job = jobs.setStatusFrom(id, 'waiting', [...ACTIVE, 'queued'], message, code)
				if (!job) throw new StoppedElsewhere()
				emit({ type: 'status', job })
				emitWait({ type: 'wait', job, wait_ms: wait })
				await backOff(wait, stop)
			}
		}
	}

	const limiter = options.ig.stats.limiter
	const stopListening = limiter?.onWait((_category, waitMs) => {
		if (runningJob.getStore() !== id) return
		const job = jobs.get(id)
		if (job) emitWait({ type: 'wait', job, wait_ms: waitMs, rate: rate(job) })
	})
	try {
		let job = setStatus('running')
		collectedAtStart = job.collected
		const source = KIND_SOURCES[job.kind]
		let { targetId, cursor } = jobs.position(id)
		if (targetId === null) {
			const target = await patiently((stop) => source.resolve(options.ig, job.target, stop))
			jobs.setTarget(id, target.id, target.total)
			targetId = target.id
		}
		let folder: string | undefined
		if (job.kind === 'media') {
			folder = downloadFolder(options.dataDir ?? 'demo', job.target)
			sweepTemporaryFiles(folder)
		}
		// Media files go through the same proxies as the API calls.
		const download = options.fetch ?? fetchThroughProxies(options.ig.proxies)
		/**
		 * A page's items the job has not stored yet, each once. The room a limit leaves is for these:
		 * a record repeated at a page start (the list moved down under the walk) counted against it
		 * would cut the page short, and the next page would go on past the records cut.
		 */
		const newItems = (items: readonly unknown[]): unknown[] => {
			const stored = jobs.storedKeys(id, items.map(source.key))
			return items.filter((item) => {
				const key = source.key(item)
				if (stored.has(key)) return false
				stored.add(key)
				return true
			})
		}
		/** The cursors this run has asked for pages with. */
		const asked = new Set<string | null>()
		/** The page at `from`, retried through transient failures, with its files for `media`. */
		const fetchPage = async (from: string | null, room: number | null, stop: AbortSignal): Promise<Page> => {
			asked.add(from)
			const { beforePage } = options
			if (beforePage) await watched(beforePage, stop, 'running')
			return patiently(async (request) => {
				const fetched = await source.page(options.ig, targetId as string, from, request)
				// A cursor this run has asked with already (this page's, or A, B, A...) is not the end: the
				// page is asked again (a passing fault), and the job fails if it keeps coming (`patiently`).
				const next = fetched.next_cursor
				if (next !== null && asked.has(next)) throw new ListStalledError('repeated_cursor')
				const items = room === null ? fetched.items : newItems(fetched.items).slice(0, Math.max(0, room))
				const records: KeyedRecord[] = []
				for (const item of items) {
					const data = folder ? await withFiles(item as Media, folder, request, download) : item
					records.push({ key: source.key(item), data })
				}
				return { records, next }
			}, stop)
		}
		// Without a limit, the next page is asked for before this one is stored, so Instagram answers
		// while SQLite writes. It is stored only after this one: the checkpoint order stays the same.
		const readAhead = new AbortController()
		const aheadSignal = AbortSignal.any([signal, readAhead.signal])
		let ahead: { from: string; page: Promise<Page> } | null = null
		/** Stored pages in a row that added no record: a page served again under new cursors. */
		let nothingNew = 0
		try {
			for (;;) {
				const current = checkpoint()
				if (!current) return jobs.get(id) ?? job
				job = current
				if (jobs.walkComplete(id)) break
				if (nothingNew >= STALE_PAGES) throw new ListStopped('no_new_records')
				const page: Page =
					ahead !== null && ahead.from === cursor
						? await ahead.page
						: await fetchPage(cursor, job.limit === null ? null : job.limit - job.collected, signal)
				ahead = null
				if (job.limit === null && page.next !== null) {
					holdWaits = true
					const pending = fetchPage(page.next, null, aheadSignal)
					pending.catch(() => {})
					ahead = { from: page.next, page: pending }
					// Let the request go out before the synchronous write below.
					await new Promise((resolve) => setImmediate(resolve))
				}
				// Stopped elsewhere while the page was on its way: it is not stored (the next run asks again).
				if (!checkpoint()) return jobs.get(id) ?? job
				const added = jobs.storePage(id, page.records, page.next)
				storeStillThere()
				nothingNew = added === 0 ? nothingNew + 1 : 0
				cursor = page.next
				const stored = jobs.get(id)
				// Deleted by another process while this page was on its way: nothing more to do.
				if (!stored) return job
				job = stored
				emit({ type: 'page', job, added, rate: rate(job) })
				releaseWait()
			}
		} finally {
			readAhead.abort()
		}
		if (signal.aborted) return jobs.get(id) as Job
		await options.beforeDone?.(jobs.get(id) as Job)
		if (signal.aborted) return jobs.get(id) as Job
		storeStillThere()
		return setStatus('done')
	} catch (error) {
		if (signal.aborted || error instanceof StoppedElsewhere) return jobs.get(id) ?? last
		// Whatever a store deleted under the run made SQLite throw, the lost file is what to say.
		const ending = endingOf(lostStore(jobs.store, last.owner) ?? error, () => jobs.get(id)?.collected ?? 0)
		return setStatus(ending.status, ending.message, ending.code)
	} finally {
		stopListening?.()
		jobs.release(id)
	}
}

export { JobBusyError, JobStore, JobWorldError }
