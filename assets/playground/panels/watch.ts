/**
 * Watch: watched accounts and hashtags (`/api/watches`). Add one (watch-form.ts), run it now,
 * delete it; each row says whether its watch runs or waits its turn (watch-row.ts); for the
 * selected watch its growth and the diff between two snapshots (watch-detail.ts). In demo mode a
 * button moves the simulated world a day forward, so the next run has something to show.
 */

import { h, replaceChildren } from '../../common/dom'
import { confirmAction } from '../components/dialogs'
import { errorBox } from '../components/error-box'
import { showToast } from '../components/toast'
import { type ApiResult, apiGet, apiRequest } from '../lib/api'
import { focusFirst, keysOf, neighbourKey, panelHeading } from '../lib/focus'
import { formatTime } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { getStatus, onStatus } from '../lib/state'
import { simpleTable } from './insights-common'
import { showWatchDetail } from './watch-detail'
import { createWatchForm } from './watch-form'
import { type Snapshot, snapshotCount, type Watch, watchLabel } from './watch-model'
import { type RunState, type WatchRowContext, watchRow } from './watch-row'

/** How often the open panel looks at the watches again while one runs, to show its state and its end. */
const LOOK_WHILE_RUNNING_MS = 2000
/** How often it looks otherwise, to show runs it did not start (a due one, another tab's). */
const LOOK_EVERY_MS = 10_000

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

	/**
	 * Runs the panel asked for that are still on their way, in the order asked: the server runs
	 * watches one at a time, so the first runs and the others wait their turn. "Run now" waits for
	 * the watch's run, so a double click takes one snapshot.
	 */
	const runsInFlight = new Set<number>()
	/** Watches this panel is deleting: a run of one that ends for that is no failure (the delete says it). */
	const removing = new Set<number>()
	/** The watches as last listed, by id. */
	let known = new Map<number, Watch>()
	let visible = false

	/**
	 * Where a watch's run stands, as the API last said (`queued`: waiting behind another watch's run),
	 * and running from the moment this panel asks for a run until the list says otherwise.
	 */
	function runState(watch: Watch): RunState {
		if (watch.running && watch.queued) return 'queued'
		return runsInFlight.has(watch.id) || watch.running ? 'running' : null
	}

	/** A watch's name button in the table (its first control: it selects the watch). */
	const nameButton = (id: number | string | null) =>
		list.querySelector<HTMLElement>(`[data-watch="${id}"][data-act="select"]`)

	// An added watch is selected and its name takes the focus (lib/focus.ts), kept through its first
	// run's redraws. The form is free again once the watch is stored: the first run goes on in the
	// background, its state in the table.
	const form = createWatchForm(async (id) => {
		selected = id
		await refresh(() => focusFirst(nameButton(id)))
		void run(id)
	})

	async function run(id: number): Promise<void> {
		if (runsInFlight.has(id)) return
		runsInFlight.add(id)
		let answer: ApiResult<Snapshot>
		let watch: Watch | undefined
		try {
			const asked = apiRequest<Snapshot>('POST', `/api/watches/${id}/run`)
			// Drawn at once as running (or queued): the table is looked at again until the run ends.
			await refresh()
			watch = known.get(id)
			answer = await asked
		} finally {
			runsInFlight.delete(id)
		}
		await refresh()
		const removed = removing.delete(id)
		if (answer.ok && answer.envelope) showToast(answer.envelope.message ?? 'Done', 'success')
		// Deleted during its run: this panel's delete says so itself; a delete from elsewhere is told here.
		else if (removed) return
		else if (!known.has(id) && watch)
			showToast(`${watchLabel(watch)} was deleted during its run: no snapshot was stored.`, 'info')
		else showToast(`Run failed: ${answer.error} (${answer.code})`, 'error')
	}

	async function remove(watch: Watch): Promise<void> {
		const label = watchLabel(watch)
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
			title: `Delete the watch of ${label}?`,
			message: `${what ? `Its ${what} deleted too.` : 'It has no snapshots yet.'} This cannot be undone.`,
			confirmLabel: 'Delete',
			danger: true
		})
		if (!confirmed) return
		// Deleted, its focus goes to the watch that takes its place, or to the heading (lib/focus.ts).
		const next = neighbourKey(keysOf(list, '[data-act="select"]', 'watch'), String(watch.id))
		const running = runState(known.get(watch.id) ?? watch) !== null
		removing.add(watch.id)
		const answer = await apiRequest('DELETE', `/api/watches/${watch.id}`)
		// Kept while the panel's own run of it is on its way: that run's end is the delete's doing.
		if (!answer.ok || !runsInFlight.has(watch.id)) removing.delete(watch.id)
		if (answer.ok)
			showToast(
				`Deleted the watch of ${label}${running ? ' during its run, which stores no snapshot' : ''}.`,
				'success'
			)
		else showToast(`Could not delete: ${answer.error}`, 'error')
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

	const rowContext = (): WatchRowContext => ({
		selected,
		runState,
		asked: (id) => runsInFlight.has(id),
		select(watch) {
			selected = watch.id
			void refresh().then((shown) => {
				if (shown?.id === watch.id)
					announce(`${watchLabel(watch)} selected: ${snapshotCount(shown.snapshots)}.`)
			})
		},
		run: (watch) => void run(watch.id),
		remove: (watch) => void remove(watch)
	})

	/** Refreshes started so far: a quiet look answered after a later refresh started is stale. */
	let started = 0
	/** What the table and the detail show now (a quiet look leaves them as they are when unchanged). */
	let drawn = ''
	let detailShows = ''
	/** While the panel is open the list is looked at again now and then, every few seconds while a watch runs. */
	let looking: ReturnType<typeof setTimeout> | undefined

	function lookAgain(watches: Watch[]): void {
		clearTimeout(looking)
		looking = undefined
		if (!visible) return
		const running = runsInFlight.size > 0 || watches.some((watch) => watch.running)
		looking = setTimeout(() => void refresh(undefined, true), running ? LOOK_WHILE_RUNNING_MS : LOOK_EVERY_MS)
	}

	/**
	 * Lists the watches again; `placeFocus` runs once the table is drawn, before the detail loads.
	 * Resolves to the selected watch whose detail is shown (undefined when none is). `quiet` (the
	 * periodic look) is a poll (lib/api.ts), keeps the list when it fails, and redraws only what
	 * changed.
	 */
	async function refresh(placeFocus?: () => void, quiet = false): Promise<Watch | undefined> {
		const number = ++started
		showDemo()
		const answer = await apiGet<Watch[]>('/api/watches', { poll: quiet })
		if (quiet && number !== started) return undefined
		if (!answer.ok || !answer.envelope) {
			if (quiet) {
				lookAgain([...known.values()])
				return undefined
			}
			replaceChildren(list, errorBox(answer.code, answer.error))
			drawn = ''
			return undefined
		}
		const watches = answer.envelope.data
		known = new Map(watches.map((watch) => [watch.id, watch]))
		lookAgain(watches)
		const state = JSON.stringify([watches, [...runsInFlight], selected])
		if (quiet && state === drawn) return undefined
		drawn = state
		if (watches.length === 0) {
			replaceChildren(
				list,
				h('p', { className: 'result-empty', text: 'No watches yet: add an account or a #hashtag above.' })
			)
			replaceChildren(detail)
			detailShows = ''
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
		const context = rowContext()
		replaceChildren(
			list,
			simpleTable(
				// On a phone each watch becomes a small card (as History rows do), its buttons in view.
				'watch-table stacked-table',
				['Watch', 'Interval', 'Snapshots', 'Last run', 'Next run', 'Actions'],
				watches.map((watch) => watchRow(watch, context))
			)
		)
		if (refocus) list.querySelector<HTMLElement>(refocus)?.focus()
		placeFocus?.()
		const shown = watches.find((watch) => watch.id === selected) as Watch
		// A quiet look loads the detail again only when the selected watch has a new snapshot or run.
		const shows = `${shown.id} ${shown.snapshots} ${shown.last_run_at}`
		if (quiet && shows === detailShows) return shown
		detailShows = shows
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
	return {
		id: 'watch',
		title: 'Watch',
		element,
		show() {
			visible = true
			void refresh()
		},
		hide() {
			visible = false
			clearTimeout(looking)
		}
	}
}
