/**
 * The watches of the store as read-only MCP tools: what is watched, every snapshot of a watch (the
 * counts over time), and what changed between two snapshots (who followed, who left). Watches are
 * added and run by `smkit watch` and the playground's Watch panel; an assistant reads them.
 *
 *   watches_list {}                                 -> { watches }
 *   watch_history { id, offset? }                   -> { watch, snapshots, next_offset }
 *   watch_diff { id, from?, to?, limit?, offset? }  -> counts, gained/lost (at most `limit` each),
 *                                                      their totals and next_offset
 *
 * Snapshots and followers come within the result budget (result-budget.ts): fewer than asked when
 * they would not fit, with `next_offset` to read on.
 */
import { Type } from '@sinclair/typebox'
import type { WatchStore } from '../watch/store'
import type { SnapshotDiff, Watch } from '../watch/types'
import { MAX_WHOLE_NUMBER, wholeNumber } from './param-schemas'
import { itemsThatFit, jsonLength, MAX_RESULT_CHARS, RESULT_LIMIT_TEXT } from './result-budget'
import { failureResult, type ServerTool, successResult } from './tool'

/** The most followers gained or lost one diff returns of each. */
export const MAX_DIFF_USERS = 1000

const watchId = wholeNumber({ minimum: 1, description: 'The watch id watches_list gives' })
const snapshotId = (which: string) =>
	Type.Optional(
		wholeNumber({ minimum: 1, description: `The ${which} snapshot id (watch_history lists them)` })
	)
const offsetSchema = (what: string) =>
	Type.Optional(
		wholeNumber({ minimum: 0, description: `${what} to skip (default 0): the previous result's next_offset` })
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
			description: `The snapshots of one watch, oldest first: an account's followers, following and posts (and the stored follower list's size), or a hashtag's media count and top posts, each with the time it was taken. Use it for growth over time. As many as fit in ${RESULT_LIMIT_TEXT} of JSON: pass the result's next_offset as offset for the rest (null after the last).`,
			inputSchema: Type.Object(
				{ id: watchId, offset: offsetSchema('Snapshots') },
				{ additionalProperties: false }
			),
			annotations: readOnly,
			async run(input) {
				const store = watches()
				const watch = store.get(input.id as number)
				if (!watch) return missing(input.id as number)
				const skip = (input.offset as number | undefined) ?? 0
				const all = store.snapshots(watch.id)
				const rest = all.slice(skip)
				const frame = jsonLength({ watch, snapshots: [], next_offset: MAX_WHOLE_NUMBER })
				const snapshots = rest.slice(0, itemsThatFit(rest, MAX_RESULT_CHARS - frame))
				const end = skip + snapshots.length
				return successResult({ watch, snapshots, next_offset: end < all.length ? end : null }, false)
			}
		},
		{
			name: 'watch_diff',
			title: 'What changed between two snapshots',
			description: `What changed between two snapshots of a watch (default: the last two): each count's change, and for accounts watched with their follower list who followed and who left (at most \`limit\` of each from \`offset\` on, ${MAX_DIFF_USERS} at most, fewer when they would not fit in ${RESULT_LIMIT_TEXT} of JSON, with the totals and next_offset to read on); for hashtags the top posts that entered and left.`,
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
					),
					offset: offsetSchema('Followers gained and lost')
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
				const limit = (input.limit as number | undefined) ?? 100
				const skip = (input.offset as number | undefined) ?? 0
				return successResult(listedDiff(checked.diff, skip, limit), false)
			}
		}
	]
}

/**
 * A diff as watch_diff returns it: from `offset` on, at most `limit` followers gained and as many
 * lost, fewer when they would not fit in the result budget; their totals, and `next_offset` while
 * either list has more (null without lists or with `limit` 0).
 */
function listedDiff(diff: SnapshotDiff, offset: number, limit: number) {
	const { gained, lost, ...rest } = diff
	const gainedPage = gained?.slice(offset, offset + limit) ?? []
	const lostPage = lost?.slice(offset, offset + limit) ?? []
	const frame = jsonLength({
		...rest,
		gained: [],
		gained_total: MAX_WHOLE_NUMBER,
		lost: [],
		lost_total: MAX_WHOLE_NUMBER,
		next_offset: MAX_WHOLE_NUMBER
	})
	const shown = pairsThatFit(gainedPage, lostPage, MAX_RESULT_CHARS - frame)
	const end = offset + shown
	const longest = Math.max(gained?.length ?? 0, lost?.length ?? 0)
	return {
		...rest,
		gained: gained ? gainedPage.slice(0, shown) : null,
		gained_total: gained?.length ?? null,
		lost: lost ? lostPage.slice(0, shown) : null,
		lost_total: lost?.length ?? null,
		next_offset: shown > 0 && end < longest ? end : null
	}
}

/**
 * How many of each list, from the first, fit in `room` characters as two JSON arrays; at least
 * one when either has one (a walk always moves on).
 */
function pairsThatFit(first: readonly unknown[], second: readonly unknown[], room: number): number {
	const pairs = Math.max(first.length, second.length)
	let used = 0
	for (let index = 0; index < pairs; index++) {
		for (const list of [first, second])
			if (index < list.length) used += jsonLength(list[index]) + (index > 0 ? 1 : 0)
		if (used > room) return Math.max(1, index)
	}
	return pairs
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
