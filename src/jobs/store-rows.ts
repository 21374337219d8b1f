/** The rows of the jobs table as SQLite returns them, and the job the store makes of one. */

import { worldOf } from '../store/world'
import type { Job, JobKind, JobStatus } from './types'

/**
 * A jobs row: the job, plus what stays inside the store (the walk's `target_id` and `cursor`, the
 * runner: `runner_pid`, and `runner_started`, its start, null in rows from before it was stored).
 */
export interface JobRow {
	id: number
	kind: string
	target: string
	item_limit: number | null
	owner: string
	status: string
	target_id: string | null
	cursor: string | null
	collected: number
	total: number | null
	pages: number
	error: string | null
	error_code: string | null
	runner_pid: number | null
	runner_started?: string | null
	demo: number | null
	created_at: string
	updated_at: string
}

export const toJob = (row: JobRow): Job => ({
	id: row.id,
	kind: row.kind as JobKind,
	target: row.target,
	limit: row.item_limit,
	owner: row.owner,
	demo: worldOf(row.demo),
	status: row.status as JobStatus,
	collected: row.collected,
	total: row.total,
	pages: row.pages,
	error: row.error,
	error_code: row.error_code,
	created_at: row.created_at,
	updated_at: row.updated_at
})
