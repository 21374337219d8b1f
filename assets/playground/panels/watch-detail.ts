/**
 * The selected watch in the Watch panel: a growth chart from its snapshots (followers, or posts
 * with the tag), two snapshot pickers with the diff between them (the last two at first; only
 * pairs from an earlier to a later snapshot are offered), and a hashtag's latest top posts.
 */

import { h, replaceChildren } from '../../common/dom'
import { barChart } from '../components/charts'
import { errorBox } from '../components/error-box'
import { apiGet } from '../lib/api'
import { formatCount, formatTime } from '../lib/format'
import { topPost } from './analytics'
import { field } from './insights-common'
import { showDiff } from './watch-diff'
import { type Snapshot, type Watch, watchLabel } from './watch-model'

/**
 * Fills `detail` with the growth and the latest diff of `watch`; `announce` tells the panel's status
 * line when a diff the user asked for is shown (the area is not a live region: it is drawn again
 * on every refresh).
 */
export async function showWatchDetail(
	watch: Watch,
	detail: HTMLElement,
	announce: (text: string) => void = () => {}
): Promise<void> {
	const answer = await apiGet<Snapshot[]>(`/api/watches/${watch.id}/snapshots`)
	if (!answer.ok || !answer.envelope) {
		replaceChildren(detail, errorBox(answer.code, answer.error))
		return
	}
	const snapshots = answer.envelope.data
	const label = watchLabel(watch)
	const value = (snapshot: Snapshot) =>
		(watch.kind === 'hashtag' ? snapshot.media_count : snapshot.followers) ?? 0
	const chart = barChart(
		snapshots.map((snapshot) => ({
			label: `#${snapshot.id}`,
			value: value(snapshot),
			title: formatTime(snapshot.taken_at)
		})),
		{
			title: watch.kind === 'hashtag' ? `Posts with ${label}` : `Followers of ${label}`,
			emptyText: 'No snapshots yet'
		}
	)
	const option = (snapshot: Snapshot) =>
		h('option', {
			text: `#${snapshot.id} · ${formatTime(snapshot.taken_at)} · ${formatCount(value(snapshot))}`,
			attrs: { value: String(snapshot.id) }
		})
	const from = h(
		'select',
		{ className: 'input', attrs: { name: 'from', id: 'watch-diff-from' } },
		...snapshots.map(option)
	)
	const to = h(
		'select',
		{ className: 'input', attrs: { name: 'to', id: 'watch-diff-to' } },
		...snapshots.map(option)
	)
	if (snapshots.length >= 2) {
		from.value = String((snapshots[snapshots.length - 2] as Snapshot).id)
		to.value = String((snapshots[snapshots.length - 1] as Snapshot).id)
	}
	keepPairValid(from, to)
	const diffArea = h('div', { className: 'watch-diff' })
	const compareButton = h('button', {
		className: 'button button-primary',
		text: watch.kind === 'hashtag' ? 'Show changes' : 'Show gained and lost',
		attrs: { type: 'button' },
		on: {
			click: async () => {
				const [first, last] = [Number(from.value), Number(to.value)]
				if (await showDiff(watch.id, watch.target, first, last, diffArea))
					announce(`Changes of ${label} from snapshot #${first} to #${last} shown.`)
			}
		}
	})
	replaceChildren(
		detail,
		h('h2', { className: 'section-title', text: `${label}: growth` }),
		h('div', { className: 'watch-chart' }, chart),
		snapshots.length >= 2
			? h(
					'div',
					{ className: 'fields watch-diff-form' },
					field('From', from),
					field('To', to),
					h('div', { className: 'form-actions' }, compareButton)
				)
			: h('p', {
					className: 'field-hint',
					text: 'Two snapshots are needed for a diff: run the watch again later.'
				}),
		diffArea,
		latestTopPosts(snapshots.at(-1))
	)
	if (snapshots.length >= 2)
		await showDiff(watch.id, watch.target, Number(from.value), Number(to.value), diffArea)
}

/**
 * The pickers offer only pairs the server diffs: from an earlier snapshot to a later one (a smaller
 * id; the same snapshot twice, or the other way round, is refused). "From" offers every snapshot but
 * the last, "To" only those after "From"; a "From" chosen at or after "To" moves "To" to the
 * snapshot right after it. The options are the snapshots oldest first.
 */
function keepPairValid(from: HTMLSelectElement, to: HTMLSelectElement): void {
	const sync = () => {
		const first = Number(from.value)
		const later = [...to.options].filter((option) => Number(option.value) > first)
		if (Number(to.value) <= first && later[0]) to.value = later[0].value
		for (const option of to.options) option.disabled = Number(option.value) <= first
		const last = to.options[to.options.length - 1]
		for (const option of from.options) option.disabled = option.value === last?.value
	}
	from.addEventListener('change', sync)
	sync()
}

/** A hashtag snapshot's top posts. */
function latestTopPosts(snapshot: Snapshot | undefined): HTMLElement | null {
	if (!snapshot?.top_posts || snapshot.top_posts.length === 0) return null
	return h(
		'section',
		{ className: 'watch-top-posts' },
		h('h3', { className: 'section-title', text: `Top posts at snapshot #${snapshot.id}` }),
		h('div', { className: 'top-posts' }, ...snapshot.top_posts.map(topPost))
	)
}
