/**
 * Jobs another process started on the same store: `smkit collect` (owner `cli`), the MCP server
 * (`mcp`), the playground (`playground`) or a watch run (`watch`). The playground lists the first
 * two beside its own, follows their progress and downloads their records, but leaves running them
 * to their process: pausing, resuming and cancelling happen there, and a job is deleted only while
 * no live process runs it. `smkit jobs` and the MCP server's job tools show them the same way.
 *
 *   const view = outsideView(jobs, job)          // a job whose process died shows as paused
 *   await followStored(jobs, id, onEvent, signal) // progress read from the store once a second
 */
import type { JobStore } from './store'
import { isActiveJob, type Job, type JobEvent } from './types'

/** Who runs the jobs of each owner, as a reader knows them. */
export const RUNNER_NAMES: Readonly<Record<string, string>> = {
	playground: 'the playground',
	cli: 'smkit collect',
	mcp: 'the MCP server',
	watch: 'a watch run'
}

/** The owners whose jobs the playground shows beside its own. */
export const OUTSIDE_OWNERS: readonly string[] = ['cli', 'mcp']

/**
 * A username, hashtag, URL or path as one shell word: as it is when made only of characters no
 * shell treats specially (`&`, `?`, `#` at the start, `~` would), else single-quoted.
 */
export const shellWord = (text: string) =>
	/^[\w.@:/%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`

/** How the job's own process continues it. */
export function continueHint(job: Job): string {
	if (job.owner === 'cli')
		return `run \`smkit collect ${job.kind} ${shellWord(job.target)}${job.limit === null ? '' : ` --limit ${job.limit}`}${job.demo ? ' --demo' : ''}\` again (same --db) to continue it`
	// Only a process of the job's own Instagram continues it (src/store/world.ts).
	const which = job.demo === null ? '' : job.demo ? ' (with --demo)' : ' (without --demo)'
	if (job.owner === 'mcp' && (job.status === 'paused' || job.status === 'failed'))
		return `the MCP tool jobs_start with the same kind, target and limit continues it${which ? `, in smkit mcp${which}` : ''}`
	return `it continues when ${RUNNER_NAMES[job.owner] ?? job.owner}${which} starts again on this store`
}

/** What a manager is asked to do with a job. */
export type ControlAction = 'pause' | 'resume' | 'cancel'

/**
 * Why a manager of `owner` does not take `action` on the job, or undefined when it does: its status
 * is not one of `from` (said first, of any job: a finished collect's job was told to be run again in
 * its terminal), another process's job (refused saying where it is controlled), or a resume of a job
 * of the other Instagram.
 */
export function actionRefusal(
	jobs: JobStore,
	job: Job,
	owner: string,
	action: ControlAction,
	from: readonly string[]
): string | undefined {
	if (!from.includes(job.status))
		return action === 'resume'
			? `Job ${job.id} is ${job.status}; only a paused, failed or cancelled job can be resumed`
			: `Job ${job.id} is ${job.status}; it cannot be ${action === 'pause' ? 'paused' : 'cancelled'}`
	if (job.owner !== owner) return controlRefusal(job, action)
	return action === 'resume' ? jobs.otherWorld(job) : undefined
}

/** Why the playground does not pause, resume or cancel a job of another process, and what does. */
export function controlRefusal(job: Job, action: ControlAction): string {
	const where = RUNNER_NAMES[job.owner] ?? job.owner
	const stop = job.owner === 'cli' ? ' (Ctrl-C in its terminal stops it)' : ''
	return `Job ${job.id} was started by ${where}, which runs it: it cannot be ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'cancelled'} here${stop}; ${continueHint(job)}`
}

/** Why a job is not deleted while live process `runner` collects it, and what to do first. */
export function busyRefusal(job: Job, runner: number): string {
	return `Job ${job.id} is being collected by ${RUNNER_NAMES[job.owner] ?? job.owner} (process ${runner}): stop it there first, then delete it`
}

/** Deletes another process's job once no live process runs it; else says why not (`busyRefusal`). */
export function deleteOutside(jobs: JobStore, job: Job): string | undefined {
	const runner = jobs.liveRunner(job.id)
	if (runner !== null) return busyRefusal(job, runner)
	jobs.delete(job.id)
}

/**
 * The job as another process shows it. A job left queued, running or waiting by a process that has
 * ended (`kill -9`, a crash) is paused in effect: it shows as paused, saying how to continue it.
 * Queued counts too: a process holds every job it has queued (`runner_pid`, see `JobManager`), so a
 * queued job no live process holds has nobody to run it. Shown to a process of its own `owner` (a
 * second playground or MCP server, `viewer`) that collects from the same Instagram, it says how
 * that one continues it (`resumeHint`).
 */
export function outsideView(jobs: JobStore, job: Job, viewer?: string): Job {
	if (!isActiveJob(job) || jobs.liveRunner(job.id) !== null) return job
	const where = RUNNER_NAMES[job.owner] ?? job.owner
	const hint =
		(viewer === job.owner && !jobs.otherWorld(job) ? resumeHint(job) : undefined) ??
		(job.owner === 'watch' ? watchListHint(jobs, job) : continueHint(job))
	return { ...job, status: 'paused', error: `Stopped when ${where} ended: ${hint}` }
}

/**
 * How a process of the job's own owner and Instagram (the viewer) continues a job whose process
 * ended: each owner has its own way (the MCP server has no resume tool: jobs_start continues it).
 */
function resumeHint(job: Job): string | undefined {
	if (job.owner === 'mcp')
		return `call jobs_start with the same kind, target and limit (kind ${job.kind}, target ${JSON.stringify(job.target)}, ${job.limit === null ? 'no limit' : `limit ${job.limit}`}) to continue it from its last stored page`
	if (job.owner === 'playground')
		return `resume it (Resume in the Jobs panel, or POST /api/jobs/${job.id}/resume) to continue from its last stored page`
	// Others (smkit collect, a watch run) are continued as any reader is told.
	return undefined
}

/**
 * How a watch's follower list stopped with its run continues: when that watch runs again, by id
 * (`smkit watch run` alone runs only due watches, and a watch not due would leave it).
 */
function watchListHint(jobs: JobStore, job: Job): string {
	const watch = watchOfList(jobs, job.id)
	const command = `smkit watch run ${watch ?? 'ID'}${job.demo ? ' --demo' : ''}`
	return watch === undefined
		? `it continues when its watch runs again (${command}, same --db; smkit watch list shows the ids)`
		: `it continues when watch ${watch} runs again (${command}, same --db)`
}

/** The id of the watch whose run not yet stored, or else whose snapshot, holds list `id`. */
function watchOfList(jobs: JobStore, id: number): number | undefined {
	const row = jobs.store.db
		.query<{ watch: number }, [number, number]>(
			`SELECT id AS watch FROM watches WHERE pending_job_id = ?
			 UNION ALL SELECT watch_id FROM watch_snapshots WHERE follower_job_id = ? LIMIT 1`
		)
		.get(id, id)
	return row?.watch
}

/**
 * Follows a job of another process through the store, every `intervalMs`: a `status` event when its
 * status changes, a `page` event (with the records per second since following began) when pages
 * are stored. Resolves when it is no longer active, is deleted, or `signal` aborts.
 */
export async function followStored(
	jobs: JobStore,
	id: number,
	onEvent: (event: JobEvent) => void,
	signal: AbortSignal,
	intervalMs = 1000
): Promise<void> {
	const read = () => {
		const job = jobs.get(id)
		return job && outsideView(jobs, job)
	}
	let last = read()
	const start = { at: performance.now(), collected: last?.collected ?? 0 }
	while (last && isActiveJob(last) && !signal.aborted) {
		await new Promise<void>((resolve) => {
			const timer = setTimeout(done, intervalMs)
			function done() {
				clearTimeout(timer)
				signal.removeEventListener('abort', done)
				resolve()
			}
			signal.addEventListener('abort', done, { once: true })
		})
		if (signal.aborted) return
		const now = read()
		if (!now) return
		if (now.pages !== last.pages) {
			const seconds = (performance.now() - start.at) / 1000
			onEvent({
				type: 'page',
				job: now,
				added: now.collected - last.collected,
				rate: (now.collected - start.collected) / seconds
			})
		}
		if (now.status !== last.status) onEvent({ type: 'status', job: now })
		last = now
	}
}
