/**
 * A watch and its snapshots as the Watch panel reads them (`GET /api/watches` and
 * `GET /api/watches/{id}/snapshots`), and how the panel names them.
 */

import type { TopPost } from './analytics'

export interface Watch {
	id: number
	kind: 'account' | 'hashtag'
	target: string
	every: string
	followers: boolean
	/** True: watches demo mode's simulated Instagram; false: Instagram; null: not run since an older store. */
	demo?: boolean | null
	next_run_at: string
	last_run_at: string | null
	last_status: 'ok' | 'failed' | null
	last_error: string | null
	snapshots: number
	running: boolean
	/** Waiting for its turn behind another watch's run (the server runs one at a time). */
	queued: boolean
}

export interface Snapshot {
	id: number
	taken_at: string
	followers: number | null
	media_count: number | null
	top_posts: TopPost[] | null
	follower_list_size: number | null
}

/** `@user` or `#tag`. */
export const watchLabel = (watch: Watch): string =>
	watch.kind === 'hashtag' ? `#${watch.target}` : `@${watch.target}`

/** "1 snapshot", "3 snapshots". */
export const snapshotCount = (count: number): string => `${count} snapshot${count === 1 ? '' : 's'}`
