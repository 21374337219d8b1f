/**
 * Watches and their snapshots in the store (migration `watches-1`). Follower lists are not copied
 * here: a snapshot points at the finished jobs-engine collection that holds its list, and diffs
 * compare those stored lists by user pk in SQL, so they are exact whatever order the pages came in.
 */
import type { Store } from '../store/db'
import { otherWorld, sameWorld, worldValue } from '../store/world'
import { deleteLooseLists, lastFollowerJob, listsOfWatch, recordsOnlyIn } from './follower-lists'
import { RunLeases } from './run-lease'
import { type SnapshotRow, toSnapshot, toWatch, type WatchRow } from './store-rows'
import {
	type AccountCounts,
	type CountChange,
	diffOrderProblem,
	type Snapshot,
	type SnapshotDiff,
	topPostsChange,
	type Watch,
	type WatchKind,
	type WatchSpec
} from './types'

/** What a finished run stores. */
export interface SnapshotInput {
	takenAt: string
	counts?: AccountCounts
	mediaCount?: number
	followerJobId?: number
	followerListSize?: number
	topPosts?: unknown[]
}

const WATCH_SELECT = `SELECT w.*, (SELECT count(*) FROM watch_snapshots s WHERE s.watch_id = w.id) AS snapshots
	FROM watches w`

const change = (from: number | null, to: number | null): CountChange => ({
	from,
	to,
	change: from === null || to === null ? null : to - from
})

/** A watch that already exists (same kind and target). */
export class WatchExistsError extends Error {
	override name = 'WatchExistsError'
	constructor(readonly existing: Watch) {
		super(
			`Already watched: ${existing.kind} ${existing.target} (watch ${existing.id}${existing.demo ? ', in demo mode' : ''})`
		)
	}

	/** The message for a process of world `demo`: a watch of the other Instagram says what to do. */
	messageFor(demo: boolean | undefined): string {
		const { existing } = this
		if (demo === undefined || existing.demo === null || existing.demo === demo) return this.message
		const data = existing.demo ? "demo mode's simulated Instagram" : 'Instagram'
		return `Already watched, from ${data}: ${existing.kind} ${existing.target} (watch ${existing.id}); a store watches a target once: remove watch ${existing.id} first, or keep ${demo ? 'demo' : 'real'} watches in another --db`
	}
}

/**
 * Watches and snapshots of a store, as one process sees them. `demo` is the Instagram this process
 * reads (true: demo mode's simulator, false: Instagram): the watches it creates carry it, and it runs
 * only watches of the same one (or not yet known, which a run then stamps), so no watch's history
 * mixes simulated counts and lists with real ones. Without `demo` (list, show, diff, remove) every
 * watch is seen and none is run.
 */
export class WatchStore {
	/** Which process runs each watch now (two processes on one store never run one at once). */
	readonly leases: RunLeases
	readonly demo: boolean | undefined

	constructor(
		readonly store: Store,
		options: { demo?: boolean } = {}
	) {
		this.leases = new RunLeases(store)
		this.demo = options.demo
	}

	/** Why this process may not run the watch (see `otherWorld`); undefined when it may. */
	otherWorld(watch: Pick<Watch, 'id' | 'demo'>): string | undefined {
		return otherWorld({ noun: 'Watch', id: watch.id, demo: watch.demo }, this.demo)
	}

	/** Marks a watch not yet known to be demo or real as what this process reads (at its first run). */
	stampWorld(id: number): void {
		if (this.demo === undefined) return
		this.store.db
			.query('UPDATE watches SET demo = COALESCE(demo, ?) WHERE id = ?')
			.run(worldValue(this.demo), id)
	}

	/** Throws WatchExistsError when the kind and target are watched already. */
	ensureNew(spec: Pick<WatchSpec, 'kind' | 'target'>): void {
		const existing = this.find(spec.kind, spec.target)
		if (existing) throw new WatchExistsError(existing)
	}

	/** Creates a watch, due at once. Throws WatchExistsError when the kind and target are watched already. */
	create(spec: WatchSpec, now = new Date()): Watch {
		this.ensureNew(spec)
		const time = now.toISOString()
		const { id } = this.store.db
			.query<{ id: number }, Record<string, string | number | null>>(
				`INSERT INTO watches (kind, target, every_seconds, followers, next_run_at, demo, created_at)
				 VALUES (:kind, :target, :every, :followers, :time, :demo, :time) RETURNING id`
			)
			.get({
				kind: spec.kind,
				target: spec.target,
				every: spec.every_seconds,
				followers: spec.kind === 'account' && spec.followers ? 1 : 0,
				demo: worldValue(this.demo),
				time
			}) as { id: number }
		return this.get(id) as Watch
	}

	get(id: number): Watch | undefined {
		const row = this.store.db.query<WatchRow, [number]>(`${WATCH_SELECT} WHERE w.id = ?`).get(id)
		return row ? toWatch(row) : undefined
	}

	find(kind: WatchKind, target: string): Watch | undefined {
		const row = this.store.db
			.query<WatchRow, [string, string]>(`${WATCH_SELECT} WHERE w.kind = ? AND w.target = ?`)
			.get(kind, target)
		return row ? toWatch(row) : undefined
	}

	/** Every watch, oldest first. */
	list(): Watch[] {
		return this.store.db.query<WatchRow, []>(`${WATCH_SELECT} ORDER BY w.id`).all().map(toWatch)
	}

	/** Watches of this process's Instagram due at `now`, the longest overdue first. */
	due(now = new Date()): Watch[] {
		return this.store.db
			.query<WatchRow, [string, number | null]>(
				`${WATCH_SELECT} WHERE w.next_run_at <= ? AND ${sameWorld('w.demo')} ORDER BY w.next_run_at, w.id`
			)
			.all(now.toISOString(), worldValue(this.demo))
			.map(toWatch)
	}

	/** The follower list of the watch's run not yet stored as a snapshot (unfinished or not), if any. */
	pendingJob(id: number): number | null {
		return (
			this.store.db
				.query<{ pending_job_id: number | null }, [number]>('SELECT pending_job_id FROM watches WHERE id = ?')
				.get(id)?.pending_job_id ?? null
		)
	}

	setPendingJob(id: number, jobId: number | null): void {
		this.store.db.query('UPDATE watches SET pending_job_id = ? WHERE id = ?').run(jobId, id)
	}

	/**
	 * Makes the job `create` returns the pending list of account watch `watch`, in one transaction
	 * that deletes the list it replaces (and any other of the account nothing holds): a snapshot's
	 * list stays. Returns the new job's id.
	 */
	replacePendingJob(watch: Pick<Watch, 'id' | 'target'>, create: () => number): number {
		return this.store.transaction(() => {
			const jobId = create()
			this.setPendingJob(watch.id, jobId)
			deleteLooseLists(this.store, watch.target)
			return jobId
		})
	}

	/**
	 * Stores a finished run's snapshot and schedules the next run `every` after the run's start, in
	 * one transaction. Returns the snapshot.
	 */
	addSnapshot(id: number, input: SnapshotInput, startedAt: Date): Snapshot {
		return this.store.transaction(() => {
			const row = this.store.db
				.query<SnapshotRow, Record<string, string | number | null>>(
					`INSERT INTO watch_snapshots (watch_id, taken_at, followers, following, posts, media_count,
					 follower_job_id, follower_list_size, top_posts)
					 VALUES (:id, :taken, :followers, :following, :posts, :media, :job, :size, :top) RETURNING *`
				)
				.get({
					id,
					taken: input.takenAt,
					followers: input.counts?.followers ?? null,
					following: input.counts?.following ?? null,
					posts: input.counts?.posts ?? null,
					media: input.mediaCount ?? null,
					job: input.followerJobId ?? null,
					size: input.followerListSize ?? null,
					top: input.topPosts ? JSON.stringify(input.topPosts) : null
				}) as SnapshotRow
			this.#finishRun(id, startedAt, 'ok', null)
			return toSnapshot(row)
		})
	}

	/** Records a failed run; it is tried again after `retrySeconds` (at most the watch's interval). */
	recordFailure(id: number, message: string, startedAt: Date, retrySeconds: number): void {
		this.#finishRun(id, startedAt, 'failed', message, retrySeconds)
	}

	/** Snapshots of a watch, oldest first. */
	snapshots(id: number): Snapshot[] {
		return this.store.db
			.query<SnapshotRow, [number]>('SELECT * FROM watch_snapshots WHERE watch_id = ? ORDER BY id')
			.all(id)
			.map(toSnapshot)
	}

	/** One snapshot of a watch, or undefined. */
	snapshot(watchId: number, snapshotId: number): Snapshot | undefined {
		const row = this.#snapshotRow(watchId, snapshotId)
		return row ? toSnapshot(row) : undefined
	}

	/**
	 * The diff of a pair the CLI, the API or the MCP tool was asked for, or why there is none: a
	 * snapshot the watch does not have (`not_found`, named first), else a pair that does not go
	 * from an earlier snapshot to a later one (`bad_request`, its options called as `names` says).
	 */
	checkedDiff(
		watchId: number,
		fromId: number,
		toId: number,
		names?: { from: string; to: string }
	): { diff: SnapshotDiff } | { code: 'not_found' | 'bad_request'; message: string } {
		const missing = [...new Set([fromId, toId])].filter((id) => !this.#snapshotRow(watchId, id))
		if (missing.length > 0)
			return {
				code: 'not_found',
				message:
					missing.length === 1
						? `Watch ${watchId} has no snapshot ${missing[0]}`
						: `Watch ${watchId} has no snapshots ${missing.join(' and ')}`
			}
		const order = diffOrderProblem(fromId, toId, names)
		if (order) return { code: 'bad_request', message: order }
		return { diff: this.diff(watchId, fromId, toId) as SnapshotDiff }
	}

	/**
	 * The difference from snapshot `fromId` to `toId` of the watch: followers gained and lost (when
	 * both hold a list), every count's change, and for hashtags the top posts that entered and left.
	 * Undefined when either snapshot is not the watch's.
	 */
	diff(watchId: number, fromId: number, toId: number): SnapshotDiff | undefined {
		const from = this.#snapshotRow(watchId, fromId)
		const to = this.#snapshotRow(watchId, toId)
		if (!from || !to) return undefined
		const lists = from.follower_job_id !== null && to.follower_job_id !== null
		const [fromJob, toJob] = [from.follower_job_id as number, to.follower_job_id as number]
		const gained = lists ? recordsOnlyIn(this.store, toJob, fromJob) : null
		const lost = lists ? recordsOnlyIn(this.store, fromJob, toJob) : null
		const counts: Record<string, CountChange> = {}
		const fields = ['followers', 'following', 'posts', 'media_count', 'follower_list_size'] as const
		for (const field of fields)
			if (from[field] !== null || to[field] !== null) counts[field] = change(from[field], to[field])
		const [older, newer] = [toSnapshot(from), toSnapshot(to)]
		const topPosts =
			older.top_posts && newer.top_posts ? topPostsChange(older.top_posts, newer.top_posts) : null
		return { watch_id: watchId, from: older, to: newer, gained, lost, counts, top_posts: topPosts }
	}

	/** The follower list (its job) of the watch's newest snapshot that has one, or null. */
	lastFollowerJob(watchId: number): number | null {
		return lastFollowerJob(this.store, watchId)
	}

	/**
	 * Deletes the watch, its snapshots, their follower lists and its pending run's, and any list of
	 * the account nothing holds (follower-lists.ts). False when there was none.
	 */
	delete(id: number): boolean {
		return this.store.transaction(() => {
			const watch = this.get(id)
			const jobIds = listsOfWatch(this.store, id)
			const deleted = this.store.db.query('DELETE FROM watches WHERE id = ?').run(id).changes > 0
			for (const job of jobIds) this.store.db.query('DELETE FROM jobs WHERE id = ?').run(job)
			if (watch?.kind === 'account') deleteLooseLists(this.store, watch.target)
			return deleted
		})
	}

	#finishRun(
		id: number,
		startedAt: Date,
		status: 'ok' | 'failed',
		error: string | null,
		retrySeconds?: number
	): void {
		const watch = this.get(id)
		if (!watch) return
		const wait = Math.min(retrySeconds ?? watch.every_seconds, watch.every_seconds)
		const next = new Date(startedAt.getTime() + wait * 1000)
		this.store.db
			.query(
				`UPDATE watches SET last_run_at = ?, last_status = ?, last_error = ?, next_run_at = ?,
				 pending_job_id = CASE WHEN ? = 'ok' THEN NULL ELSE pending_job_id END WHERE id = ?`
			)
			.run(startedAt.toISOString(), status, error, next.toISOString(), status, id)
	}

	#snapshotRow(watchId: number, snapshotId: number): SnapshotRow | undefined {
		return (
			this.store.db
				.query<SnapshotRow, [number, number]>('SELECT * FROM watch_snapshots WHERE watch_id = ? AND id = ?')
				.get(watchId, snapshotId) ?? undefined
		)
	}
}
