/**
 * Where a run reads its job's status, to hear another process on the store (a second playground)
 * that paused, cancelled or deleted the job: before and after each page, each second of a back-off,
 * and each second while a request is on its way (the client's rate limiter may hold it for minutes
 * at --speed safe). Only the run sets the status running or waiting: any other was written there.
 * Paused, cancelled or deleted there, the run stops and leaves the job as that process left it;
 * resumed there while the run still had it (`queued`: paused there a moment ago, and that process
 * waits for this one to let go), it is the run's again.
 *
 *   const { checkpoint, backOff, watched } = checkpoints(jobs, id, emit)
 *   const page = await watched((signal) => fetchPage(signal), runSignal, 'running')
 */
import { sleep } from '../client/rate-limit'
import { ACTIVE, StoppedElsewhere } from './run-errors'
import type { JobStore } from './store'
import type { Job, JobEvent, JobStatus } from './types'

/** How often a run reads its job's status while it waits (a back-off, a request on its way). */
export const STATUS_CHECK_MS = 1000

/** The checkpoints of job `id`'s run; `emit` reports the run taking the job back. */
export function checkpoints(jobs: JobStore, id: number, emit: (event: JobEvent) => void) {
	/**
	 * The job, or null when the run stops here. Taken back from `queued`, it is set to `status`, the
	 * one the run has now (running, or waiting in a back-off).
	 */
	const checkpoint = (status: JobStatus = 'running'): Job | null => {
		const current = jobs.get(id)
		if (current && ACTIVE.includes(current.status)) return current
		const taken = current?.status === 'queued' ? jobs.setStatusFrom(id, status, ['queued']) : undefined
		if (taken) emit({ type: 'status', job: taken })
		return taken ?? null
	}

	/** Waits `ms` (until `stop` aborts), at a checkpoint each second: StoppedElsewhere when it stops. */
	async function backOff(ms: number, stop: AbortSignal): Promise<void> {
		for (let end = Date.now() + ms; Date.now() < end; ) {
			await sleep(Math.min(STATUS_CHECK_MS, end - Date.now()), stop)
			if (!checkpoint('waiting')) throw new StoppedElsewhere()
		}
	}

	/**
	 * `request` with a signal of its own beside `stop`, at a checkpoint each second while it is on its
	 * way (`status` as the run has it meanwhile). Once the run stops there, the request alone is
	 * aborted and StoppedElsewhere thrown: neither the run's own stop nor a failed attempt.
	 */
	async function watched<Result>(
		request: (signal: AbortSignal) => Promise<Result>,
		stop: AbortSignal,
		status: JobStatus
	): Promise<Result> {
		const elsewhere = new AbortController()
		const timer = setInterval(() => {
			if (stop.aborted || elsewhere.signal.aborted) return
			try {
				if (!checkpoint(status)) elsewhere.abort(new StoppedElsewhere())
			} catch {
				// A store that cannot be read is for the run's next checkpoint to report.
			}
		}, STATUS_CHECK_MS)
		try {
			return await request(AbortSignal.any([stop, elsewhere.signal]))
		} catch (error) {
			if (elsewhere.signal.aborted && !stop.aborted) throw new StoppedElsewhere()
			throw error
		} finally {
			clearInterval(timer)
		}
	}

	return { checkpoint, backOff, watched }
}
