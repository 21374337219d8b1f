/**
 * The vocabulary of watches: what is watched, how often, and what a run stores. A watch follows one
 * account or one hashtag; each run stores a snapshot (see `store.ts` for the tables).
 */
import type { TopPost } from '../client/types'

/** What a watch follows. */
export const WATCH_KINDS = ['account', 'hashtag'] as const
export type WatchKind = (typeof WATCH_KINDS)[number]

/** Shortest and longest time between two runs, in seconds (1 hour to 7 days). */
export const MIN_EVERY_SECONDS = 3600
export const MAX_EVERY_SECONDS = 7 * 24 * 3600

/** What creates a watch. */
export interface WatchSpec {
	kind: WatchKind
	/** A username (account) or a hashtag without # (hashtag), normalised. */
	target: string
	/** Seconds between runs. */
	every_seconds: number
	/** Accounts only: store the complete follower list with each snapshot. */
	followers: boolean
}

/** A watch as stored and as the API shows it. */
export interface Watch extends WatchSpec {
	id: number
	/** The interval as typed back: `1h`, `12h`, `1d`, `7d`. */
	every: string
	/** When the next run is due (ISO 8601 UTC). */
	next_run_at: string
	last_run_at: string | null
	/** `ok` or `failed` for the last run; null before the first. */
	last_status: 'ok' | 'failed' | null
	/** Why the last run failed. */
	last_error: string | null
	/** Snapshots stored so far. */
	snapshots: number
	/**
	 * True when it watches demo mode's simulated Instagram, false Instagram; null for a watch from an
	 * older store not run since (its first run decides). Only a process of the same one runs it.
	 */
	demo: boolean | null
	created_at: string
}

/** Profile counts of an account at one time. */
export interface AccountCounts {
	followers: number
	following: number
	posts: number
}

/** What one run saw. */
export interface Snapshot {
	id: number
	watch_id: number
	taken_at: string
	/** Accounts: the profile's counts; hashtags: null. */
	followers: number | null
	following: number | null
	posts: number | null
	/** Hashtags: the media count; accounts: null. */
	media_count: number | null
	/** Watches with followers: how many followers the stored list holds; otherwise null. */
	follower_list_size: number | null
	/** Hashtags: the best of the tag's most recent posts (HASHTAG_CANDIDATE_POSTS), most likes plus comments first. */
	top_posts: TopPost[] | null
}

/** One count's change between two snapshots. */
export interface CountChange {
	from: number | null
	to: number | null
	change: number | null
}

/** Hashtags: how the top posts changed between two snapshots (posts matched by pk). */
export interface TopPostsChange {
	/** In the newer snapshot's top posts only, in its order (with its figures). */
	entered: TopPost[]
	/** In the older snapshot's top posts only, in its order (with the figures it had then). */
	left: TopPost[]
	/** How many are in both. */
	stayed: number
}

/** The top posts that entered and left from `from` to `to`. */
export function topPostsChange(from: readonly TopPost[], to: readonly TopPost[]): TopPostsChange {
	const before = new Set(from.map((post) => post.pk))
	const after = new Set(to.map((post) => post.pk))
	return {
		entered: to.filter((post) => !before.has(post.pk)),
		left: from.filter((post) => !after.has(post.pk)),
		stayed: to.filter((post) => before.has(post.pk)).length
	}
}

/** The difference between two snapshots of a watch. */
export interface SnapshotDiff {
	watch_id: number
	from: Snapshot
	to: Snapshot
	/** Followers in `to`'s list but not in `from`'s (full user records, in `to`'s list order); null without lists. */
	gained: unknown[] | null
	/** Followers in `from`'s list but not in `to`'s (full user records); null without lists. */
	lost: unknown[] | null
	counts: Record<string, CountChange>
	/** Hashtags: the top posts that entered and left; null for accounts. */
	top_posts: TopPostsChange | null
}

/** `3600` → `1h`, `86400` → `1d`, `5400` → `90m`. */
export function formatEvery(seconds: number): string {
	if (seconds % 86400 === 0) return `${seconds / 86400}d`
	if (seconds % 3600 === 0) return `${seconds / 3600}h`
	return `${Math.round(seconds / 60)}m`
}

/** `1h`, `12h`, `1d`, `7d`, `90m` → seconds; throws a RangeError outside 1 hour to 7 days. */
export function parseEvery(text: string): number {
	const match = /^\s*(\d{1,5})\s*(m|h|d)\s*$/i.exec(text)
	if (!match) throw new RangeError(`every must look like 1h, 12h, 1d or 7d, got '${text}'`)
	const unit = { m: 60, h: 3600, d: 86400 }[(match[2] as string).toLowerCase() as 'm' | 'h' | 'd']
	const seconds = Number(match[1]) * unit
	if (seconds < MIN_EVERY_SECONDS || seconds > MAX_EVERY_SECONDS)
		throw new RangeError(`every must be from 1h to 7d, got '${text}'`)
	return seconds
}

/**
 * Why snapshots `from` and `to` do not make a diff, or undefined when they do: a diff goes forward
 * in time, from an earlier snapshot to a later one (the other way round, gained would read as lost).
 */
export function diffOrderProblem(
	from: number,
	to: number,
	names = { from: 'from', to: 'to' }
): string | undefined {
	if (from === to)
		return `${names.from} and ${names.to} are both snapshot ${from}: a diff compares two snapshots`
	if (from > to)
		return `${names.from} (${from}) must be an earlier snapshot than ${names.to} (${to}): swap them`
	return undefined
}
