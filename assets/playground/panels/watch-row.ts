/**
 * One watch's row in the Watch panel's table: its name (selects it), interval, snapshots, the state
 * of its runs, the next run and its buttons. A run in progress shows as running, or as queued while
 * another of the panel's runs goes first (the server runs watches one at a time, in the order asked);
 * otherwise the row shows the last run's outcome.
 */

import { h } from '../../common/dom'
import { formatTime } from '../lib/format'
import { fromOtherMode } from '../lib/state'
import { snapshotCount, type Watch, watchLabel } from './watch-model'

/** Where a watch's run stands: running, waiting for its turn, or none in progress. */
export type RunState = 'running' | 'queued' | null

/** What a row needs from the panel. */
export interface WatchRowContext {
	selected: number | null
	runState(watch: Watch): RunState
	/** Whether the panel asked for a run of the watch that is still on its way ("Run now" waits for it). */
	asked(id: number): boolean
	select(watch: Watch): void
	run(watch: Watch): void
	remove(watch: Watch): void
}

/** The "Last run" column: the run in progress, else the last run's outcome. */
function runStatus(watch: Watch, state: RunState): { text: string; className: string } {
	// A watch of the other Instagram (demo or real) is shown, never run here.
	if (fromOtherMode(watch.demo))
		return {
			className: '',
			text: watch.demo
				? 'demo data: runs in smkit playground --demo'
				: 'Instagram data: runs in a playground without --demo'
		}
	if (state === 'queued')
		return { className: 'tag', text: 'queued: runs when the watch running now is done (one at a time)' }
	if (state === 'running') return { className: 'tag tag-accent', text: 'running…' }
	if (watch.last_status === 'failed')
		return { className: 'tag tag-error', text: `failed: ${watch.last_error ?? ''}` }
	return { className: '', text: watch.last_status ?? 'not run yet' }
}

/** The cells of a watch's row. */
export function watchRow(watch: Watch, context: WatchRowContext): HTMLElement[] {
	const label = watchLabel(watch)
	const status = runStatus(watch, context.runState(watch))
	return [
		// A long name is cut short with an ellipsis (styles/insights.css); its title holds it whole.
		h('button', {
			className: 'link-button watch-name',
			text: label,
			dataset: { watch: String(watch.id), act: 'select' },
			attrs: { type: 'button', title: label, 'aria-pressed': String(context.selected === watch.id) },
			on: { click: () => context.select(watch) }
		}),
		h('span', { text: `every ${watch.every}${watch.followers ? ', follower list' : ''}` }),
		h('span', { text: snapshotCount(watch.snapshots) }),
		h('span', { className: status.className, text: status.text }),
		h('span', { text: `next ${formatTime(watch.next_run_at)}` }),
		h(
			'span',
			{ className: 'row-actions' },
			fromOtherMode(watch.demo)
				? null
				: h('button', {
						className: 'button button-small',
						text: 'Run now',
						dataset: { watch: String(watch.id), act: 'run' },
						// Not `disabled`: a disabled button cannot keep the focus across the redraws of a run.
						attrs: {
							type: 'button',
							'aria-label': `Run ${label} now`,
							'aria-disabled': String(context.asked(watch.id))
						},
						on: { click: () => context.run(watch) }
					}),
			h('button', {
				className: 'button button-small button-danger',
				text: 'Delete',
				dataset: { watch: String(watch.id), act: 'delete' },
				attrs: { type: 'button', 'aria-label': `Delete ${label}` },
				on: { click: () => context.remove(watch) }
			})
		)
	]
}
