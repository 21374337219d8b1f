/**
 * Watch: watched accounts and hashtags (`/api/watches`). Add one, run it now, delete it; for the
 * selected watch a growth chart from its snapshots (followers, or posts with the tag), and the
 * followers gained and lost between any two snapshots, each list exportable to CSV. In demo mode a
 * button moves the simulated world a day forward, so the next run has something to show.
 */

import { h, replaceChildren } from '../../common/dom'
import { barChart } from '../components/charts'
import { confirmAction } from '../components/dialogs'
import { errorBox } from '../components/error-box'
import { showToast } from '../components/toast'
import { apiGet, apiRequest } from '../lib/api'
import { formatCount, formatTime } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { getStatus, onStatus } from '../lib/state'
import { type TopPost, topPost } from './analytics'
import { field, requireName, simpleTable, textInput } from './insights-common'
import { showDiff } from './watch-diff'

interface Watch {
	id: number
	kind: 'account' | 'hashtag'
	target: string
	every: string
	followers: boolean
	next_run_at: string
	last_run_at: string | null
	last_status: 'ok' | 'failed' | null
	last_error: string | null
	snapshots: number
	running: boolean
}

interface Snapshot {
	id: number
	taken_at: string
	followers: number | null
	media_count: number | null
	top_posts: TopPost[] | null
	follower_list_size: number | null
}

const label = (watch: Watch) => (watch.kind === 'hashtag' ? `#${watch.target}` : `@${watch.target}`)

/** Builds the Watch panel. */
export function createWatchPanel(): Panel {
	let selected: number | null = null
	const target = requireName(textInput('target', '', 'luna.explorer or #sunset'))
	const every = h(
		'select',
		{ className: 'input', attrs: { name: 'every' } },
		...['1h', '6h', '12h', '1d', '7d'].map((value) => h('option', { text: value, attrs: { value } }))
	)
	every.value = '1d'
	const followers = h('input', { attrs: { type: 'checkbox', name: 'followers', id: 'watch-followers' } })
	followers.checked = true
	const list = h('div', { className: 'watch-list', attrs: { 'aria-live': 'polite' } })
	const detail = h('div', { className: 'watch-detail', attrs: { 'aria-live': 'polite' } })
	const advance = h('button', {
		className: 'button',
		text: 'Advance demo time by a day',
		attrs: { type: 'button', hidden: true },
		on: { click: () => void advanceDemo() }
	})
	const showDemo = () => {
		advance.hidden = getStatus()?.demo !== true
	}
	onStatus(showDemo)

	const addButton = h('button', {
		className: 'button button-primary',
		text: 'Add watch',
		attrs: { type: 'submit' }
	})
	/** Watches with a run on its way: "Run now" waits for it, so a double click takes one snapshot. */
	const runsInFlight = new Set<number>()

	const form = h(
		'form',
		{ className: 'action-form', attrs: { 'aria-label': 'Add a watch' } },
		h(
			'div',
			{ className: 'fields' },
			field('Account or #hashtag', target),
			field('Every', every),
			h(
				'label',
				{ className: 'field checkbox-field', attrs: { for: 'watch-followers' } },
				followers,
				' Store the complete follower list (accounts; needed for gained/lost)'
			)
		),
		h('div', { className: 'form-actions' }, addButton)
	)
	form.addEventListener('submit', (event) => {
		event.preventDefault()
		// One watch per press: a double click does not add it twice (the second would be refused).
		if (addButton.disabled) return
		addButton.disabled = true
		void add().finally(() => {
			addButton.disabled = false
		})
	})

	async function add(): Promise<void> {
		const text = target.value.trim()
		const body = text.startsWith('#')
			? { hashtag: text.slice(1), every: every.value }
			: { username: text.replace(/^@/, ''), every: every.value, followers: followers.checked }
		const answer = await apiRequest<Watch>('POST', '/api/watches', body)
		if (!answer.ok || !answer.envelope) {
			showToast(`Could not add the watch: ${answer.error} (${answer.code})`, 'error')
			return
		}
		target.value = ''
		selected = answer.envelope.data.id
		showToast(answer.envelope.message ?? 'Done', 'success')
		await refresh()
		await run(answer.envelope.data.id)
	}

	async function run(id: number): Promise<void> {
		if (runsInFlight.has(id)) return
		runsInFlight.add(id)
		try {
			await refresh()
			const answer = await apiRequest<Snapshot>('POST', `/api/watches/${id}/run`)
			if (answer.ok && answer.envelope) showToast(answer.envelope.message ?? 'Done', 'success')
			else showToast(`Run failed: ${answer.error} (${answer.code})`, 'error')
		} finally {
			runsInFlight.delete(id)
		}
		await refresh()
	}

	async function remove(watch: Watch): Promise<void> {
		const snapshots = `${watch.snapshots} snapshot${watch.snapshots === 1 ? '' : 's'}`
		// Only an account watch with "follower list" stores lists.
		const lists = watch.kind === 'account' && watch.followers
		const what = lists
			? `${snapshots} and their follower lists are`
			: `${snapshots} ${watch.snapshots === 1 ? 'is' : 'are'}`
		const confirmed = await confirmAction({
			title: `Delete the watch of ${label(watch)}?`,
			message: `Its ${what} deleted too. This cannot be undone.`,
			confirmLabel: 'Delete',
			danger: true
		})
		if (!confirmed) return
		const answer = await apiRequest('DELETE', `/api/watches/${watch.id}`)
		if (!answer.ok) showToast(`Could not delete: ${answer.error}`, 'error')
		if (selected === watch.id) selected = null
		await refresh()
	}

	async function advanceDemo(): Promise<void> {
		const answer = await apiRequest<{ iso: string }>('POST', '/api/demo/clock', { advance_hours: 24 })
		if (answer.ok && answer.envelope)
			showToast(
				`Demo time is now ${formatTime(answer.envelope.data.iso)}; run a watch to see what changed.`,
				'success'
			)
		else showToast(`Could not move demo time: ${answer.error}`, 'error')
	}

	function watchRow(watch: Watch): HTMLElement[] {
		const status = watch.running
			? 'running…'
			: watch.last_status === 'failed'
				? `failed: ${watch.last_error ?? ''}`
				: (watch.last_status ?? 'not run yet')
		return [
			h('button', {
				className: 'link-button',
				text: label(watch),
				attrs: { type: 'button', 'aria-pressed': String(selected === watch.id) },
				on: {
					click: () => {
						selected = watch.id
						void refresh()
					}
				}
			}),
			h('span', { text: `every ${watch.every}${watch.followers ? ', follower list' : ''}` }),
			h('span', { text: `${watch.snapshots} snapshot${watch.snapshots === 1 ? '' : 's'}` }),
			h('span', { className: watch.last_status === 'failed' ? 'tag tag-error' : '', text: status }),
			h('span', { text: `next ${formatTime(watch.next_run_at)}` }),
			h(
				'span',
				{ className: 'row-actions' },
				h('button', {
					className: 'button button-small',
					text: 'Run now',
					attrs: {
						type: 'button',
						'aria-label': `Run ${label(watch)} now`,
						disabled: runsInFlight.has(watch.id)
					},
					on: { click: () => void run(watch.id) }
				}),
				h('button', {
					className: 'button button-small button-danger',
					text: 'Delete',
					attrs: { type: 'button', 'aria-label': `Delete ${label(watch)}` },
					on: { click: () => void remove(watch) }
				})
			)
		]
	}

	async function refresh(): Promise<void> {
		showDemo()
		const answer = await apiGet<Watch[]>('/api/watches')
		if (!answer.ok || !answer.envelope) {
			replaceChildren(list, errorBox(answer.code, answer.error))
			return
		}
		const watches = answer.envelope.data
		if (watches.length === 0) {
			replaceChildren(
				list,
				h('p', { className: 'result-empty', text: 'No watches yet: add an account or a #hashtag above.' })
			)
			replaceChildren(detail)
			return
		}
		if (selected === null || !watches.some((watch) => watch.id === selected))
			selected = (watches[0] as Watch).id
		replaceChildren(
			list,
			simpleTable(
				'watch-table',
				['Watch', 'Interval', 'Snapshots', 'Last run', 'Next run', 'Actions'],
				watches.map(watchRow)
			)
		)
		await showDetail(watches.find((watch) => watch.id === selected) as Watch)
	}

	async function showDetail(watch: Watch): Promise<void> {
		const answer = await apiGet<Snapshot[]>(`/api/watches/${watch.id}/snapshots`)
		if (!answer.ok || !answer.envelope) {
			replaceChildren(detail, errorBox(answer.code, answer.error))
			return
		}
		const snapshots = answer.envelope.data
		const value = (snapshot: Snapshot) =>
			(watch.kind === 'hashtag' ? snapshot.media_count : snapshot.followers) ?? 0
		const chart = barChart(
			snapshots.map((snapshot) => ({
				label: `#${snapshot.id}`,
				value: value(snapshot),
				title: formatTime(snapshot.taken_at)
			})),
			{
				title: watch.kind === 'hashtag' ? `Posts with ${label(watch)}` : `Followers of ${label(watch)}`,
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
		const diffArea = h('div', { className: 'watch-diff', attrs: { 'aria-live': 'polite' } })
		const compareButton = h('button', {
			className: 'button button-primary',
			text: watch.kind === 'hashtag' ? 'Show changes' : 'Show gained and lost',
			attrs: { type: 'button' },
			on: { click: () => void showDiff(watch.id, Number(from.value), Number(to.value), diffArea) }
		})
		replaceChildren(
			detail,
			h('h2', { className: 'section-title', text: `${label(watch)}: growth` }),
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
		if (snapshots.length >= 2) await showDiff(watch.id, Number(from.value), Number(to.value), diffArea)
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

	const element = panelFrame(
		'watch',
		'Watch',
		'Accounts and hashtags followed over time: a snapshot per run, growth, and who followed or left between two snapshots.',
		form,
		h(
			'div',
			{ className: 'panel-toolbar' },
			h('button', {
				className: 'button',
				text: 'Refresh',
				attrs: { type: 'button' },
				on: { click: () => void refresh() }
			}),
			advance
		),
		list,
		detail
	)
	return { id: 'watch', title: 'Watch', element, show: () => void refresh() }
}
