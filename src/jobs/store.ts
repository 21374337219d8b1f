/**
 * The jobs tables (migrations `jobs-1`, `jobs-2`) behind plain methods: the jobs here, their records
 * in `store-records.ts`, where the one rule that makes jobs exact lives (`storePage`: a page's records
 * and the cursor after it are written in one transaction).
 */
import type { Store } from '../store/db'
import { otherWorld, sameWorld, worldValue } from '../store/world'
import { processStart, runnerAlive } from './process-alive'
import { JobRecords, type KeyedRecord } from './store-records'
import { type JobRow, toJob } from './store-rows'
import { FINISHED_STATUSES, type Job, type JobSpec, type JobStatus } from './types'

/** Where a job resumes: the upstream id of its target and the cursor of its next page. */
export interface JobPosition {
	targetId: string | null
	cursor: string | null
}

const now = () => new Date().toISOString()

/**
 * Jobs and their records in a store, as one process sees them. `demo` is the Instagram this process
 * collects from (true: demo mode's simulator, false: Instagram): the jobs it creates carry it, and
 * it continues and resumes only jobs of the same one (or not yet known, which it then stamps), so a
 * collection never mixes simulated records with real ones. Without `demo` (a process that only
 * reads, lists or deletes) every job is seen and none is stamped.
 */
export class JobStore extends JobRecords {
	readonly demo: boolean | undefined
	/** The process this store acts for, as `runner_pid`: this one's (a test stands another's pid in). */
	readonly pid: number
	/** When that process started, as `runner_started` (see process-alive.ts); null where unknown. */
	readonly started: string | null

	constructor(store: Store, options: { demo?: boolean; pid?: number } = {}) {
		super(store)
		this.demo = options.demo
		this.pid = options.pid ?? process.pid
		this.started = processStart(this.pid)
	}

	/** Creates a queued job. */
	create(spec: JobSpec, owner = 'playground'): Job {
		const time = now()
		const row = this.store.db
			.query<JobRow, Record<string, string | number | null>>(
				`INSERT INTO jobs (kind, target, item_limit, owner, status, demo, created_at, updated_at)
				 VALUES (:kind, :target, :limit, :owner, 'queued', :demo, :time, :time) RETURNING *`
			)
			.get({
				kind: spec.kind,
				target: spec.target,
				limit: spec.limit ?? null,
				owner,
				demo: worldValue(this.demo),
				time
			})
		return toJob(row as JobRow)
	}

	/** Why this process may not run the job (see `otherWorld`); undefined when it may. */
	otherWorld(job: Pick<Job, 'id' | 'demo'>): string | undefined {
		return otherWorld({ noun: 'Job', id: job.id, demo: job.demo }, this.demo)
	}

	get(id: number): Job | undefined {
		const row = this.#row(id)
		return row ? toJob(row) : undefined
	}

	/** Jobs, newest first; only those of `owners` when given. */
	list(owners?: readonly string[]): Job[] {
		const rows =
			owners === undefined
				? this.store.db.query<JobRow, []>('SELECT * FROM jobs ORDER BY id DESC').all()
				: this.store.db
						.query<JobRow, string[]>(
							`SELECT * FROM jobs WHERE owner IN (${owners.map(() => '?').join(', ')}) ORDER BY id DESC`
						)
						.all(...owners)
		return rows.map(toJob)
	}

	/**
	 * What a rerun continues: the newest job of `owner` with this kind, target and limit, unless it
	 * ended done or cancelled. A failed one continues too: its attempts ran out in a long outage, or
	 * a bug stopped it, and its stored pages are as good as a paused job's. Only the newest counts, so
	 * an old failure is never taken up after a later run of the same list has finished.
	 */
	findUnfinished(spec: JobSpec, owner: string): Job | undefined {
		const row = this.store.db
			.query<JobRow, [string, string, string, number | null, number | null]>(
				`SELECT * FROM jobs WHERE owner = ? AND kind = ? AND target = ? AND item_limit IS ?
				 AND ${sameWorld('demo')} ORDER BY id DESC LIMIT 1`
			)
			.get(owner, spec.kind, spec.target, spec.limit ?? null, worldValue(this.demo))
		return row && row.status !== 'done' && row.status !== 'cancelled' ? toJob(row) : undefined
	}

	/** Jobs of `owner` that were queued or running when their process stopped (to resume at start-up). */
	interrupted(owner: string): Job[] {
		return this.store.db
			.query<JobRow, [string, number | null]>(
				`SELECT * FROM jobs WHERE owner = ? AND status IN ('queued', 'running', 'waiting')
				 AND ${sameWorld('demo')} ORDER BY id`
			)
			.all(owner, worldValue(this.demo))
			.filter((row) => this.#otherLiveRunner(row) === null)
			.map(toJob)
	}

	/**
	 * Marks this process as the job's runner: the process that runs it, or has it queued to run
	 * (`JobManager` holds every job it queues). False when another live process holds it (two runners
	 * would fetch the same pages; the records stay exact either way, the work would not).
	 */
	claim(id: number): boolean {
		const row = this.#row(id)
		if (!row) return false
		if (this.#otherLiveRunner(row) !== null) return false
		// A job not yet known to be demo or real becomes what its first runner collects from; with
		// nothing stored, it also forgets the upstream id it resolved (the other one's pk names
		// another account) and looks its target up again.
		if (this.demo !== undefined)
			this.store.db
				.query(
					'UPDATE jobs SET target_id = NULL, total = NULL, cursor = NULL, pages = 0 WHERE id = ? AND demo IS NULL AND collected = 0'
				)
				.run(id)
		this.store.db
			.query(
				'UPDATE jobs SET runner_pid = ?, runner_started = ?, demo = COALESCE(demo, ?) WHERE id = ? AND runner_pid IS ?'
			)
			.run(this.pid, this.started, worldValue(this.demo), id, row.runner_pid)
		return this.#row(id)?.runner_pid === this.pid
	}

	/**
	 * The unfinished job of `owner` with this spec (what a rerun continues), or a new one, claimed by
	 * this process, in one transaction: two processes starting the same collection at once get the
	 * same job, and the second is told the first runs it (`runner` is that process) instead of
	 * collecting a second copy. Continuing a job makes `continued` true.
	 */
	claimUnfinishedOrCreate(
		spec: JobSpec,
		owner: string
	): { job: Job; continued: boolean; runner: number | null } {
		return this.store.transaction(() => {
			const found = this.findUnfinished(spec, owner)
			const job = found ?? this.create(spec, owner)
			const claimed = this.claim(job.id)
			return {
				job,
				continued: found !== undefined,
				runner: claimed ? null : (this.#row(job.id)?.runner_pid ?? null)
			}
		})
	}

	/** The live process running the job or holding it queued, other than this one; null when none does. */
	liveRunner(id: number): number | null {
		const row = this.#row(id)
		return row ? this.#otherLiveRunner(row) : null
	}

	/** Gives the job up (this process no longer runs it or has it queued). */
	release(id: number): void {
		this.store.db
			.query('UPDATE jobs SET runner_pid = NULL, runner_started = NULL WHERE id = ? AND runner_pid = ?')
			.run(id, this.pid)
	}

	/** Sets the status and its message (null clears it); returns the job. */
	setStatus(
		id: number,
		status: JobStatus,
		error: string | null = null,
		errorCode: string | null = null
	): Job {
		this.store.db
			.query('UPDATE jobs SET status = ?, error = ?, error_code = ?, updated_at = ? WHERE id = ?')
			.run(status, error, errorCode, now(), id)
		return this.get(id) as Job
	}

	/**
	 * Sets the status only while the job's status is one of `from`, in one statement: a pause,
	 * cancel or delete written meanwhile by another process is kept. The job, or undefined when it
	 * was not changed.
	 */
	setStatusFrom(
		id: number,
		status: JobStatus,
		from: readonly JobStatus[],
		error: string | null = null,
		errorCode: string | null = null
	): Job | undefined {
		const changed = this.store.db
			.query(
				`UPDATE jobs SET status = ?, error = ?, error_code = ?, updated_at = ? WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`
			)
			.run(status, error, errorCode, now(), id, ...from).changes
		return changed > 0 ? this.get(id) : undefined
	}

	/** Where the job resumes. */
	position(id: number): JobPosition {
		const row = this.#row(id)
		return { targetId: row?.target_id ?? null, cursor: row?.cursor ?? null }
	}

	/** Records the target's upstream id and the list's size, once resolved. */
	setTarget(id: number, targetId: string, total: number | null): void {
		this.store.db
			.query('UPDATE jobs SET target_id = ?, total = COALESCE(?, total), updated_at = ? WHERE id = ?')
			.run(targetId, total, now(), id)
	}

	/** Forgets every record and the position (a fresh start of the same job). */
	reset(id: number): void {
		this.store.transaction(() => {
			this.store.db.query('DELETE FROM job_records WHERE job_id = ?').run(id)
			this.store.db
				.query(
					`UPDATE jobs SET cursor = NULL, target_id = NULL, total = NULL, collected = 0, pages = 0,
					 error = NULL, error_code = NULL, status = 'queued', updated_at = ? WHERE id = ?`
				)
				.run(now(), id)
		})
	}

	/**
	 * True when the walk has nothing left to fetch: the list ended (a page was stored with no cursor
	 * after it) or the limit is reached. A job like this that is not done still has its output to
	 * write (`smkit collect`'s CSV or JSON file): continuing it asks Instagram nothing.
	 */
	walkComplete(id: number): boolean {
		const row = this.#row(id)
		if (!row) return false
		return (
			(row.pages > 0 && row.cursor === null) || (row.item_limit !== null && row.collected >= row.item_limit)
		)
	}

	/** Deletes the job and its records. False when there was none. */
	delete(id: number): boolean {
		return this.store.db.query('DELETE FROM jobs WHERE id = ?').run(id).changes > 0
	}

	/** True for done, failed and cancelled. */
	static finished(job: Job): boolean {
		return FINISHED_STATUSES.includes(job.status)
	}

	/**
	 * The pid of the row's runner when that is another process that still runs: not a dead one's, nor
	 * one a live process was given since it died (its start differs: `runnerAlive`).
	 */
	#otherLiveRunner(row: JobRow): number | null {
		const pid = row.runner_pid
		return pid !== null && pid !== this.pid && runnerAlive(pid, row.runner_started) ? pid : null
	}

	#row(id: number): JobRow | undefined {
		return this.store.db.query<JobRow, [number]>('SELECT * FROM jobs WHERE id = ?').get(id) ?? undefined
	}
}

export type { KeyedRecord }
