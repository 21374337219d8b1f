/** The vocabulary of the jobs engine: kinds, statuses, the job record and progress events. */

/** What a job collects. */
export const JOB_KINDS = ['followers', 'following', 'posts', 'tag', 'comments', 'likers', 'media'] as const
export type JobKind = (typeof JOB_KINDS)[number]

/** Where a job stands. `waiting`: backing off after 429/5xx or waiting for a budget slot. */
export const JOB_STATUSES = ['queued', 'running', 'waiting', 'paused', 'done', 'failed', 'cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/** Statuses in which a job still changes by itself (its runner has it, or it waits for one). */
export const isActiveJob = (job: Pick<Job, 'status'>): boolean =>
	job.status === 'queued' || job.status === 'running' || job.status === 'waiting'

/** A job as the API and `smkit jobs --json` show it: `owner` is called `source` there. */
export const publicJob = ({ owner, id, ...job }: Job) => ({ id, source: owner, ...job })

/** Statuses a job does not leave by itself. */
export const FINISHED_STATUSES: readonly JobStatus[] = ['done', 'failed', 'cancelled']

/** What to collect. */
export interface JobSpec {
	kind: JobKind
	/** A username (followers, following, posts, media), a hashtag (tag), a media pk or URL (comments, likers). */
	target: string
	/** Stop after this many records (default: the whole list). */
	limit?: number | null
}

/** A job as stored and as the API shows it. */
export interface Job {
	id: number
	kind: JobKind
	target: string
	limit: number | null
	/** Who runs it: `playground`, `cli`, or another feature's name. */
	owner: string
	/**
	 * True when it collects from demo mode's simulated Instagram, false from Instagram; null for a job
	 * from an older store not run since (its first run decides). See `JobStore`'s `demo`.
	 */
	demo: boolean | null
	status: JobStatus
	/** Records stored so far. */
	collected: number
	/** The list's size when the upstream says (a profile's follower count, a post's comment count). */
	total: number | null
	/** Pages stored so far. */
	pages: number
	/** What went wrong or why the job waits or paused, with what to do. */
	error: string | null
	/** The error's code (`login_required`, `rate_limited`, ...). */
	error_code: string | null
	created_at: string
	updated_at: string
}

/** A progress event: sent when a job's state changes and after every stored page. */
export interface JobEvent {
	type: 'status' | 'page' | 'wait'
	job: Job
	/** `page`: records the page added (duplicates not counted); `wait`: milliseconds to wait. */
	added?: number
	wait_ms?: number
	/** Records per second since this run of the job started. */
	rate?: number
}
