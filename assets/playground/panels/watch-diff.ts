/**
 * The difference between two snapshots of a watch, in the Watch panel: every count's change, then
 * the followers gained and lost (tables with CSV export) or, for a hashtag, the top posts that
 * entered and left.
 */
import { h, replaceChildren } from '../../common/dom'
import { dataTable, inTableOrder, type TableSort } from '../components/data-table'
import { errorBox } from '../components/error-box'
import { exportCsv } from '../components/result-actions'
import { apiGet } from '../lib/api'
import { formatCount } from '../lib/format'
import { type TopPost, topPost } from './analytics'
import { simpleTable } from './insights-common'

/** `GET /api/watches/{id}/diff` as the panel reads it. */
interface Diff {
	gained: Record<string, unknown>[] | null
	lost: Record<string, unknown>[] | null
	top_posts: { entered: TopPost[]; left: TopPost[]; stayed: number } | null
	counts: Record<string, { from: number | null; to: number | null; change: number | null }>
}

const signed = (value: number | null) =>
	value === null ? '—' : `${value > 0 ? '+' : ''}${formatCount(value)}`

/**
 * Shows in `area` the diff of watch `watchId` (of the account `target`) from snapshot `from` to
 * `to`. Its CSV files are named after what they hold (`followers-gained-luna.explorer-3-4-...csv`):
 * gained and lost downloaded together were both `export-TIME.csv`. Resolves to false when the
 * server refused (the area then shows the error).
 */
export async function showDiff(
	watchId: number,
	target: string,
	from: number,
	to: number,
	area: HTMLElement
): Promise<boolean> {
	const answer = await apiGet<Diff>(`/api/watches/${watchId}/diff?from=${from}&to=${to}`)
	if (!answer.ok || !answer.envelope) {
		replaceChildren(area, errorBox(answer.code, answer.error))
		return false
	}
	const diff = answer.envelope.data
	const counts = simpleTable(
		'watch-counts',
		['Count', 'From', 'To', 'Change'],
		Object.entries(diff.counts).map(([name, count]) => [
			name.replaceAll('_', ' '),
			formatCount(count.from),
			formatCount(count.to),
			signed(count.change)
		])
	)
	const listBlock = (title: string, users: Record<string, unknown>[]) => {
		// Kept by the table as a header is pressed: the export follows the order shown.
		const sort: TableSort = { column: null, direction: 1 }
		return h(
			'section',
			{ className: 'watch-users', dataset: { list: title.toLowerCase() } },
			h('h3', { className: 'section-title', text: `${title}: ${formatCount(users.length)}` }),
			users.length > 0
				? h('button', {
						className: 'button button-small',
						text: `Export ${title.toLowerCase()} to CSV`,
						attrs: { type: 'button' },
						on: {
							click: () =>
								void exportCsv(
									inTableOrder(users, sort),
									`followers-${title.toLowerCase()}-${target}-${from}-${to}`
								)
						}
					})
				: null,
			users.length > 0
				? dataTable(users, undefined, sort)
				: h('p', { className: 'result-empty', text: 'Nobody.' })
		)
	}
	const postsBlock = (title: string, posts: TopPost[]) =>
		h(
			'section',
			{ className: 'watch-top-posts', dataset: { list: title.split(' ')[0]?.toLowerCase() ?? '' } },
			h('h3', { className: 'section-title', text: `${title}: ${formatCount(posts.length)}` }),
			posts.length > 0
				? h('div', { className: 'top-posts' }, ...posts.map(topPost))
				: h('p', { className: 'result-empty', text: 'None.' })
		)
	const posts = diff.top_posts
	replaceChildren(
		area,
		counts,
		posts
			? h(
					'p',
					{ className: 'field-hint' },
					`${formatCount(posts.stayed)} of the top posts stayed; ${formatCount(posts.entered.length)} entered and ${formatCount(posts.left.length)} left.`
				)
			: null,
		posts
			? h(
					'div',
					{ className: 'watch-lists' },
					postsBlock('Entered the top posts', posts.entered),
					postsBlock('Left the top posts', posts.left)
				)
			: diff.gained && diff.lost
				? h(
						'div',
						{ className: 'watch-lists' },
						listBlock('Gained', diff.gained),
						listBlock('Lost', diff.lost)
					)
				: h('p', {
						className: 'field-hint',
						text: 'These snapshots hold no follower lists: add the watch with "Store the complete follower list".'
					})
	)
	return true
}
