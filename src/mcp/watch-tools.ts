/**
 * The watches of the store as read-only MCP tools: what is watched, every snapshot of a watch (the
 * counts over time), and what changed between two snapshots (who followed, who left). Watches are
 * added and run by `smkit watch` and the playground's Watch panel; an assistant reads them.
 *
 *   watches_list {}                        -> { watches }
 *   watch_history { id }                   -> { watch, snapshots }
 *   watch_diff { id, from?, to?, limit? }  -> counts, gained/lost (at most `limit` each) and their totals
 */
import { Type } from '@sinclair/typebox'
import type { WatchStore } from '../watch/store'
import type { Watch } from '../watch/types'
import { failureResult, type ServerTool, successResult } from './tool'

/** The most followers gained or lost one diff returns of each. */
export const MAX_DIFF_USERS = 1000

const watchId = Type.Integer({ minimum: 1, description: 'The watch id watches_list gives' })
const snapshotId = (which: string) =>
	Type.Optional(
		Type.Integer({ minimum: 1, description: `The ${which} snapshot id (watch_history lists them)` })
	)
const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false }

/** The three watch tools over the store, opened on first use (`watches()` may throw: no store). */
export function watchTools(watches: () => WatchStore): ServerTool[] {
	const missing = (id: number) =>
		failureResult('not_found', `No watch ${id} (watches_list lists the watches)`)
	return [
		{
			name: 'watches_list',
			title: 'Watched accounts and hashtags',
			description:
				'The accounts and hashtags watched over time on this store (added with smkit watch or the playground): target, interval, whether each snapshot keeps the follower list, how many snapshots, the last run and its status, the next run.',
			inputSchema: Type.Object({}, { additionalProperties: false }),
			annotations: readOnly,
			async run() {
				return successResult({ watches: watches().list() }, false)
			}
		},
		{
			name: 'watch_history',
			title: "A watch's snapshots over time",
			description:
				"Every snapshot of one watch, oldest first: an account's followers, following and posts (and the stored follower list's size), or a hashtag's media count and top posts, each with the time it was taken. Use it for growth over time.",
			inputSchema: Type.Object({ id: watchId }, { additionalProperties: false }),
			annotations: readOnly,
			async run(input) {
				const store = watches()
				const watch = store.get(input.id as number)
				if (!watch) return missing(input.id as number)
				return successResult({ watch, snapshots: store.snapshots(watch.id) }, false)
			}
		},
		{
			name: 'watch_diff',
			title: 'What changed between two snapshots',
			description: `What changed between two snapshots of a watch (default: the last two): each count's change, and for accounts watched with their follower list who followed and who left (at most \`limit\` of each, ${MAX_DIFF_USERS} at most, with the totals); for hashtags the top posts that entered and left.`,
			inputSchema: Type.Object(
				{
					id: watchId,
					from: snapshotId('older'),
					to: snapshotId('newer'),
					limit: Type.Optional(
						Type.Integer({
							minimum: 0,
							maximum: MAX_DIFF_USERS,
							description: `Followers gained and lost to list, each (default 100, at most ${MAX_DIFF_USERS})`
						})
					)
				},
				{ additionalProperties: false }
			),
			annotations: readOnly,
			async run(input) {
				const store = watches()
				const watch = store.get(input.id as number)
				if (!watch) return missing(input.id as number)
				const pair = snapshotPair(
					store,
					watch,
					input.from as number | undefined,
					input.to as number | undefined
				)
				if (typeof pair === 'string') return failureResult('bad_request', pair)
				const checked = store.checkedDiff(watch.id, pair.from, pair.to)
				if (!('diff' in checked)) return failureResult(checked.code, checked.message)
				const { diff } = checked
				const limit = (input.limit as number | undefined) ?? 100
				const { gained, lost, ...rest } = diff
				return successResult(
					{
						...rest,
						gained: gained?.slice(0, limit) ?? null,
						gained_total: gained?.length ?? null,
						lost: lost?.slice(0, limit) ?? null,
						lost_total: lost?.length ?? null
					},
					false
				)
			}
		}
	]
}

/** The snapshots to compare: the ones given, or the last two (the newer one and the one before it). */
function snapshotPair(
	store: WatchStore,
	watch: Watch,
	from: number | undefined,
	to: number | undefined
): { from: number; to: number } | string {
	const ids = store.snapshots(watch.id).map((snapshot) => snapshot.id)
	const newer = to ?? ids.at(-1)
	const older = from ?? ids.filter((id) => newer === undefined || id < newer).at(-1)
	if (ids.length < 2 || newer === undefined)
		return `Watch ${watch.id} has ${ids.length} snapshot${ids.length === 1 ? '' : 's'}; a diff needs two (it takes one per run)`
	if (older === undefined)
		return `Watch ${watch.id} has no snapshot before ${newer} to compare it with: give from`
	return { from: older, to: newer }
}
