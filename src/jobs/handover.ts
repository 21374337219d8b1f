/**
 * A job resumed by one process of an owner while another (two playgrounds on one store) still holds
 * it: the other was running it when it was paused here a moment ago, or has it queued. Each process
 * holds the jobs it runs or has queued (`runner_pid`, `JobStore.claim`), so the one resuming cannot
 * claim it, and waits instead of dropping the resume:
 *
 * - a holder still running it finds it `queued` at its next page and takes it back as `running`
 *   (run.ts): the job goes on there, and the status leaves `queued`;
 * - a holder that had it queued runs it when its turn comes: the status leaves `queued` too;
 * - a holder that stopped on the pause (or died) lets it go: the resuming process claims and runs it.
 *
 *   await untilLetGo(jobs, id, signal)   // then claim it again, unless it is no longer queued
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
