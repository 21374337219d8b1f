/** The rows of the watches tables as SQLite returns them, and the records the store makes of them. */

import { worldOf } from '../store/world'
import { formatEvery, type Snapshot, type Watch, type WatchKind } from './types'

/** A watch row, with its snapshot count. */
export interface WatchRow {
	id: number
	kind: string
	target: string
	every_seconds: number
	followers: number
	next_run_at: string
	last_run_at: string | null
	last_status: string | null
	last_error: string | null
	pending_job_id: number | null
	demo: number | null
	created_at: string
	snapshots: number
}

export interface SnapshotRow {
	id: number
	watch_id: number
	taken_at: string
	followers: number | null
	following: number | null
	posts: number | null
	media_count: number | null
	follower_job_id: number | null
	follower_list_size: number | null
	top_posts: string | null
}

export const toWatch = (row: WatchRow): Watch => ({
	id: row.id,
	kind: row.kind as WatchKind,
	target: row.target,
	every_seconds: row.every_seconds,
	every: formatEvery(row.every_seconds),
	followers: row.followers === 1,
	next_run_at: row.next_run_at,
	last_run_at: row.last_run_at,
	last_status: row.last_status as Watch['last_status'],
	last_error: row.last_error,
	snapshots: row.snapshots,
	demo: worldOf(row.demo),
	created_at: row.created_at
})

export const toSnapshot = (row: SnapshotRow): Snapshot => ({
	id: row.id,
	watch_id: row.watch_id,
	taken_at: row.taken_at,
	followers: row.followers,
	following: row.following,
	posts: row.posts,
	media_count: row.media_count,
	follower_list_size: row.follower_list_size,
	top_posts: row.top_posts === null ? null : JSON.parse(row.top_posts)
})
