/**
 * What `smkit watch` prints for people (`--json` prints the records instead): the watch list as a
 * table, and a diff of two snapshots as count changes plus the followers gained and lost, or the top
 * posts that entered and left.
 */
import { clip, idArgument, jsonText, terminalText } from '../cli-error'
import { formatTable, when } from '../server/table'
import { type PendingList, pendingListStatus } from './cli-show'
import { label } from './scheduler'
import type { Snapshot, SnapshotDiff, Watch } from './types'

export { when }

/** A watch as `watch list` and `watch show` give it: whether another process runs it, and its list waiting for a run. */
export type ShownWatch = Watch & { running?: boolean; pending_list?: PendingList | null }

/**
 * The watch list. Status: `running` (another process runs it now), else the failure of its last run,
 * else its follower list waiting for a run (`list paused 400/5,400`), else the last run's status.
 */
export function watchTable(watches: readonly ShownWatch[]): string {
	return formatTable(
		['id', 'watch', 'every', 'followers', 'snapshots', 'last run', 'status', 'next run'],
		watches.map((watch) => [
			String(watch.id),
			watch.demo ? `${label(watch)} (demo)` : label(watch),
			watch.every,
			watch.kind === 'account' ? (watch.followers ? 'list' : 'count') : '-',
			watch.snapshots,
			when(watch.last_run_at),
			watch.running
				? 'running'
				: watch.last_status === 'failed'
					? clip(`failed: ${watch.last_error ?? ''}`, 60)
					: (pendingListStatus(watch.pending_list ?? null) ?? watch.last_status),
			when(watch.next_run_at)
		])
	)
}

/** A change from the snapshot before, signed (`+12`, `-3`), or null for the first or an unknown count. */
const change = (now: number | null, before: number | null | undefined) =>
	now === null || before === null || before === undefined
		? null
		: `${now - before >= 0 ? '+' : ''}${now - before}`

/**
 * A watch and its snapshots, oldest first: the counts over time and each run's change; `notes` (what
 * its follower list waiting for a run is at) follow its heading.
 */
export function historyText(
	watch: ShownWatch,
	snapshots: readonly Snapshot[],
	notes: readonly string[] = [],
	run = `smkit watch run ${watch.id}${watch.demo ? ' --demo' : ''}`
): string {
	const next = watch.running ? 'running now' : `next run ${when(watch.next_run_at)}`
	const head = `Watch ${watch.id}: ${label(watch)}${watch.demo ? ' (demo)' : ''} every ${watch.every}${watch.followers ? ' with its follower list' : ''}; ${snapshots.length} snapshot${snapshots.length === 1 ? '' : 's'}; ${next}`
	const said = [
		...(watch.last_status === 'failed' ? [`Last run failed: ${watch.last_error ?? ''}`] : []),
		...notes
	]
	if (snapshots.length === 0) return [head, ...said, `No snapshot yet: ${run}`].join('\n')
	const table =
		watch.kind === 'account'
			? formatTable(
					[
						'snapshot',
						'taken',
						'followers',
						'change',
						'following',
						'posts',
						...(watch.followers ? ['list'] : [])
					],
					snapshots.map((snapshot, index) => [
						String(snapshot.id),
						when(snapshot.taken_at),
						snapshot.followers,
						change(snapshot.followers, snapshots[index - 1]?.followers),
						snapshot.following,
						snapshot.posts,
						...(watch.followers ? [snapshot.follower_list_size] : [])
					]),
					[3]
				)
			: formatTable(
					['snapshot', 'taken', 'media', 'change', 'top posts'],
					snapshots.map((snapshot, index) => [
						String(snapshot.id),
						when(snapshot.taken_at),
						snapshot.media_count,
						change(snapshot.media_count, snapshots[index - 1]?.media_count),
						snapshot.top_posts?.length ?? null
					]),
					[3]
				)
	return [head, ...said, '', table].join('\n')
}

/** A diff of two snapshots. */
export function diffText(diff: SnapshotDiff): string {
	const lines = [
		`Snapshot ${diff.from.id} (${when(diff.from.taken_at)}) -> ${diff.to.id} (${when(diff.to.taken_at)})`,
		'',
		formatTable(
			['count', 'from', 'to', 'change'],
			Object.entries(diff.counts).map(([name, counts]) => [name, counts.from, counts.to, counts.change])
		)
	]
	if (diff.top_posts) {
		const posts = diff.top_posts
		lines.push(
			'',
			`Top posts: ${posts.entered.length} entered, ${posts.left.length} left, ${posts.stayed} stayed`
		)
		for (const [title, list] of [
			['Entered', posts.entered],
			['Left', posts.left]
		] as const)
			if (list.length > 0)
				lines.push(
					'',
					`${title}:`,
					formatTable(
						['post', 'likes', 'comments', 'caption'],
						list.map((post) => [post.url, post.like_count, post.comment_count, clip(post.caption_text, 40)])
					)
				)
	} else if (diff.gained && diff.lost) {
		for (const [title, users] of [
			['Gained', diff.gained],
			['Lost', diff.lost]
		] as const) {
			lines.push('', `${title}: ${users.length}`)
			if (users.length > 0)
				lines.push(
					formatTable(
						['username', 'full name', 'pk'],
						(users as { username?: string; full_name?: string; pk?: string }[]).map((user) => [
							user.username ?? '',
							user.full_name ?? '',
							user.pk ?? ''
						])
					)
				)
		}
	} else lines.push('', 'No follower lists in these snapshots (add the watch with --followers).')
	return lines.join('\n')
}

// Names and error messages come from Instagram: no control character reaches the terminal.
export const print = (text: string) => process.stdout.write(`${terminalText(text)}\n`)
/** `--json` output: valid JSON whatever the names hold (`terminalText` would make `\x9b` of a C1 control). */
export const printJson = (value: unknown) => process.stdout.write(`${jsonText(value)}\n`)
export const warn = (text: string) => process.stderr.write(`${terminalText(text)}\n`)

/** A watch id argument. */
export const idOf = (value: unknown) => idArgument(value, 'watch')
