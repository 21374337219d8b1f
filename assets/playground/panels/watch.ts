/**
 * Watch: watched accounts and hashtags (`/api/watches`). Add one (watch-form.ts), run it now,
 * delete it; for the selected watch its growth and the diff between two snapshots
 * (watch-detail.ts). In demo mode a button moves the simulated world a day forward, so the next
 * run has something to show.
 */

import { h, replaceChildren } from '../../common/dom'
import { confirmAction } from '../components/dialogs'
import { errorBox } from '../components/error-box'
import { showToast } from '../components/toast'
import { apiGet, apiRequest } from '../lib/api'
import { focusFirst, keysOf, neighbourKey, panelHeading } from '../lib/focus'
import { formatTime } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { fromOtherMode, getStatus, onStatus } from '../lib/state'
import { simpleTable } from './insights-common'
import { showWatchDetail } from './watch-detail'
import { createWatchForm } from './watch-form'
import { type Snapshot, snapshotCount, type Watch, watchLabel } from './watch-model'

/** Builds the Watch panel. */
export function createWatchPanel(): Panel {
	let selected: number | null = null
	// Not live regions: both are drawn again whole on every refresh. The status line says what changed
	// (a watch's details shown, a diff shown); runs and deletes say it in their toasts.
	const list = h('div', { className: 'watch-list' })
	const detail = h('div', { className: 'watch-detail' })
	const statusLine = h('p', { className: 'visually-hidden', attrs: { role: 'status' } })
	const announce = (text: string) => {
		statusLine.textContent = text
	}
	const advance = h('button', {
		className: 'button',
		text: 'Advance demo time by a day',
		attrs: { type: 'button', hidden: true },
		on: { click: () => void advanceDemo() }
	})
	const showDemo = () => {
		advance.hidden = getStatus()?.demo !== true
	}
	// Which watches are of the other Instagram is known once the status is: the table follows.
	let knownMode: boolean | undefined
	onStatus((status) => {
		showDemo()
		const mode = status?.demo
		if (typeof mode === 'boolean' && mode !== knownMode) {
			const first = knownMode === undefined
			knownMode = mode
			if (!first || list.childElementCount > 0) void refresh()
		}
	})

	/** Watches with a run on its way: "Run now" waits for it, so a double click takes one snapshot. */
	const runsInFlight = new Set<number>()

	/** A watch's name button in the table (its first control: it selects the watch). */
	const nameButton = (id: number | string | null) =>
		list.querySelector<HTMLElement>(`[data-watch="${id}"][data-act="select"]`)

	// An added watch is selected and its name takes the focus (lib/focus.ts), kept through its first run's redraws.
	const form = createWatchForm(async (id) => {
		selected = id
		await refresh(() => focusFirst(nameButton(id)))
		await run(id)
	})

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
		const snapshots = snapshotCount(watch.snapshots)
		// Only an account watch with "follower list" stores lists.
		const lists = watch.kind === 'account' && watch.followers
		const one = watch.snapshots === 1
		const what =
			watch.snapshots === 0
				? null
				: lists
					? `${snapshots} and ${one ? 'its follower list' : 'their follower lists'} are`
					: `${snapshots} ${one ? 'is' : 'are'}`
		const confirmed = await confirmAction({
			title: `Delete the watch of ${watchLabel(watch)}?`,
			message: `${what ? `Its ${what} deleted too.` : 'It has no snapshots yet.'} This cannot be undone.`,
			confirmLabel: 'Delete',
			danger: true
		})
		if (!confirmed) return
		// Deleted, its focus goes to the watch that takes its place, or to the heading (lib/focus.ts).
		const next = neighbourKey(keysOf(list, '[data-act="select"]', 'watch'), String(watch.id))
		const answer = await apiRequest('DELETE', `/api/watches/${watch.id}`)
		if (!answer.ok) showToast(`Could not delete: ${answer.error}`, 'error')
		if (selected === watch.id && answer.ok) selected = null
		await refresh(() => {
			if (answer.ok) focusFirst(nameButton(next), panelHeading('watch'))
		})
	}

	async function advanceDemo(): Promise<void> {
		const answer = await apiRequest<{ iso: string }>('POST', '/api/demo/clock', { advance_hours: 24 })
		if (answer.ok && answer.envelope)
			showToast(
				`Demo time is now ${formatTime(answer.envelope.data.iso)}; run a watch to see what changed (its snapshot keeps the real time of the run).`,
				'success'
			)
		else showToast(`Could not move demo time: ${answer.error}`, 'error')
	}

	function watchRow(watch: Watch): HTMLElement[] {
		const label = watchLabel(watch)
		// A watch of the other Instagram (demo or real) is shown, never run here.
		const elsewhere = fromOtherMode(watch.demo)
		const status = elsewhere
			? watch.demo
				? 'demo data: runs in smkit playground --demo'
				: 'Instagram data: runs in a playground without --demo'
			: watch.running
				? 'running…'
				: watch.last_status === 'failed'
					? `failed: ${watch.last_error ?? ''}`
					: (watch.last_status ?? 'not run yet')
		return [
			// A long name is cut short with an ellipsis (styles/insights.css); its title holds it whole.
			h('button', {
				className: 'link-button watch-name',
				text: label,
				dataset: { watch: String(watch.id), act: 'select' },
				attrs: { type: 'button', title: label, 'aria-pressed': String(selected === watch.id) },
				on: {
					click: () => {
						selected = watch.id
						void refresh().then((shown) => {
							if (shown?.id === watch.id) announce(`${label} selected: ${snapshotCount(shown.snapshots)}.`)
						})
					}
				}
			}),
			h('span', { text: `every ${watch.every}${watch.followers ? ', follower list' : ''}` }),
			h('span', { text: snapshotCount(watch.snapshots) }),
			h('span', { className: watch.last_status === 'failed' ? 'tag tag-error' : '', text: status }),
			h('span', { text: `next ${formatTime(watch.next_run_at)}` }),
			h(
				'span',
				{ className: 'row-actions' },
				elsewhere
					? null
					: h('button', {
							className: 'button button-small',
							text: 'Run now',
							dataset: { watch: String(watch.id), act: 'run' },
							// Not `disabled`: a disabled button cannot keep the focus across the redraws of a run.
							attrs: {
								type: 'button',
								'aria-label': `Run ${label} now`,
								'aria-disabled': String(runsInFlight.has(watch.id))
							},
							on: { click: () => void run(watch.id) }
						}),
				h('button', {
					className: 'button button-small button-danger',
					text: 'Delete',
					dataset: { watch: String(watch.id), act: 'delete' },
					attrs: { type: 'button', 'aria-label': `Delete ${label}` },
					on: { click: () => void remove(watch) }
				})
			)
		]
	}

	/**
	 * Lists the watches again; `placeFocus` runs once the table is drawn, before the detail loads.
	 * Resolves to the selected watch whose detail is shown (undefined when none is).
	 */
	async function refresh(placeFocus?: () => void): Promise<Watch | undefined> {
		showDemo()
		const answer = await apiGet<Watch[]>('/api/watches')
		if (!answer.ok || !answer.envelope) {
			replaceChildren(list, errorBox(answer.code, answer.error))
			return undefined
		}
		const watches = answer.envelope.data
		if (watches.length === 0) {
			replaceChildren(
				list,
				h('p', { className: 'result-empty', text: 'No watches yet: add an account or a #hashtag above.' })
			)
			replaceChildren(detail)
			placeFocus?.()
			return undefined
		}
		if (selected === null || !watches.some((watch) => watch.id === selected))
			selected = (watches[0] as Watch).id
		// The table is redrawn: a focused button's successor (same watch, same action) takes the focus.
		const focused = document.activeElement
		const refocus =
			focused instanceof HTMLElement && list.contains(focused) && focused.dataset.watch
				? `[data-watch="${focused.dataset.watch}"][data-act="${focused.dataset.act}"]`
				: null
		replaceChildren(
			list,
			simpleTable(
				// On a phone each watch becomes a small card (as History rows do), its buttons in view.
				'watch-table stacked-table',
				['Watch', 'Interval', 'Snapshots', 'Last run', 'Next run', 'Actions'],
				watches.map(watchRow)
			)
		)
		if (refocus) list.querySelector<HTMLElement>(refocus)?.focus()
		placeFocus?.()
		const shown = watches.find((watch) => watch.id === selected) as Watch
		await showWatchDetail(shown, detail, announce)
		return shown
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
		detail,
		statusLine
	)
	return { id: 'watch', title: 'Watch', element, show: () => void refresh() }
}
