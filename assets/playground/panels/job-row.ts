/**
 * One job's card in the Jobs panel: title, where it comes from, status, progress bar, figures, the
 * note saying why it waits, paused or failed, and the buttons that work for it (pause, resume and
 * cancel only for the playground's own jobs). Kept and updated in place as events arrive.
 */
import { h } from '../../common/dom'
import { formatCount, formatQuantity, formatTime } from '../lib/format'
import { isActive, type Job, SOURCE_NAMES } from '../lib/jobs'
import { fromOtherMode } from '../lib/state'
import { advice, needsNewJob } from './job-advice'
import { downloadJob } from './job-download'

const STATUS_TAGS: Record<Job['status'], string> = {
	queued: 'tag',
	running: 'tag tag-accent',
	waiting: 'tag tag-warning',
	paused: 'tag tag-warning',
	done: 'tag tag-success',
	failed: 'tag tag-error',
	cancelled: 'tag'
}

/**
 * Whether a job of the other Instagram (demo or real) still has a way on, there: not done, and not
 * failed for good (a missing or malformed target).
 */
const continuesElsewhere = (job: Job) => fromOtherMode(job.demo) && job.status !== 'done' && !needsNewJob(job)

/** Where a job of the other Instagram (demo or real) comes from, and where it continues (not here). */
function otherModeNote(job: Job): string {
	const from = job.demo ? "demo mode's simulated Instagram" : 'Instagram'
	if (!continuesElsewhere(job)) return `Collected from ${from}.`
	const flag = job.demo ? 'with --demo' : 'without --demo'
	const where =
		job.source === 'cli'
			? `running its smkit collect command again ${flag}`
			: job.source === 'mcp'
				? `smkit mcp ${flag}`
				: `a playground ${flag}`
	return `Collected from ${from}: it continues only in ${where}, on this store.`
}

/**
 * The figures' count and the bar's goal. A done job has its whole list: one that ended short of its
 * goal (a limit above the list's length, or Instagram counting more than it lists) shows its count
 * as the whole list, and a full bar, not a part of the goal.
 */
function progressOf(job: Job): { text: string; goal: number | null } {
	const goal = job.limit !== null && (job.total === null || job.limit < job.total) ? job.limit : job.total
	if (job.status === 'done' && (!goal || job.collected < goal)) {
		const short = goal
			? goal === job.limit
				? `limit ${formatCount(goal)}`
				: `Instagram counted ${formatCount(goal)}`
			: null
		const count = formatQuantity(job.collected, 'record')
		return { text: short ? `${count} (the whole list; ${short})` : count, goal: Math.max(job.collected, 1) }
	}
	return goal
		? { text: `${formatCount(job.collected)} / ${formatCount(goal)} records`, goal }
		: { text: formatQuantity(job.collected, 'record'), goal: null }
}

/** One job's row: kept and updated in place as events arrive. */
export interface JobRow {
	element: HTMLElement
	/** `waitMs`: the job waits this long (a request slot of the client's budget, or a waiting job's retry). */
	update(job: Job, rate?: number, waitMs?: number): void
	/** The job as the row shows it now. */
	shown(): Job
}

/** What the card's buttons ask of the panel. */
export interface RowHandlers {
	act(job: Job, action: 'pause' | 'resume' | 'cancel'): Promise<void>
	remove(job: Job): Promise<void>
}

export function button(
	text: string,
	label: string,
	onClick: () => void,
	className = 'button button-small'
): HTMLButtonElement {
	return h('button', {
		className,
		text,
		dataset: { act: text.toLowerCase() },
		attrs: { type: 'button', 'aria-label': label },
		on: { click: onClick }
	})
}

/** The button that takes the focus when the focused one is gone after an update: Pause and Resume swap. */
const FOCUS_NEXT: Record<string, string> = { pause: 'resume', resume: 'pause' }

/** Sets a node's text only when it changed: an unchanged card makes no DOM changes. */
function setText(node: HTMLElement, text: string): void {
	if (node.textContent !== text) node.textContent = text
}

/** Sets an attribute only when it changed. */
function setAttr(node: HTMLElement, name: string, value: string): void {
	if (node.getAttribute(name) !== value) node.setAttribute(name, value)
}

/** The download formats, in the order of their buttons. */
const FORMATS = ['csv', 'jsonl', 'json'] as const

export function buildJobRow(first: Job, handlers: RowHandlers): JobRow {
	const title = h('span', { className: 'job-title' })
	const source = h('span', { className: 'tag' })
	source.hidden = first.source === 'playground'
	// A job of the other Instagram (demo or real) is shown, never resumed here.
	const world = h('span', { className: 'tag' })
	const status = h('span')
	const bar = h('progress', {
		className: 'job-bar',
		attrs: { max: 1, 'aria-label': `Job ${first.id} progress` }
	})
	const figures = h('span', { className: 'job-figures' })
	// Not a live region: the panel's status line announces a job's status changes (jobs.ts), so a
	// countdown or a new page does not speak.
	const note = h('p', { className: 'job-note' })
	const actions = h('div', { className: 'row-actions' })
	// The card takes the focus when its focused button goes with nothing in its place (after Cancel).
	const element = h(
		'article',
		{
			className: 'job',
			dataset: { job: String(first.id) },
			attrs: { 'aria-label': `Job ${first.id}`, tabindex: -1 }
		},
		h('div', { className: 'job-head' }, title, source, world, status, figures),
		bar,
		note,
		actions
	)
	let current = first
	let lastRate: number | undefined
	/** When the wait in progress ends (0: none); the note counts down to it each second. */
	let waitUntil = 0
	let waitTimer: ReturnType<typeof setInterval> | undefined
	// Every button is built once and kept: an update only changes which are in the row, so a click
	// while pages arrive always lands on a button that is on the page.
	const name = `job ${first.id}`
	const buttons = {
		pause: button('Pause', `Pause ${name}`, () => void handlers.act(current, 'pause')),
		resume: button(
			'Resume',
			`Resume ${name}`,
			() => void handlers.act(current, 'resume'),
			'button button-small button-primary'
		),
		cancel: button('Cancel', `Cancel ${name}`, () => void handlers.act(current, 'cancel')),
		...Object.fromEntries(
			FORMATS.map((format) => [
				format,
				h('button', {
					className: 'button button-small',
					text: format.toUpperCase(),
					dataset: { act: format },
					attrs: { type: 'button', 'aria-label': `Download ${name} as ${format.toUpperCase()}` },
					on: { click: () => void downloadJob(current, format) }
				})
			])
		),
		// Another process's running job is stopped there first (the server refuses to delete it).
		delete: button(
			'Delete',
			`Delete ${name}`,
			() => void handlers.remove(current),
			'button button-small button-danger'
		)
	} as Record<'pause' | 'resume' | 'cancel' | 'delete' | (typeof FORMATS)[number], HTMLButtonElement>
	function showNote(job: Job): void {
		const left = waitUntil - Date.now()
		// A job of the other Instagram that stopped says where it continues (it has no Resume here);
		// one still running there says it when nothing else is to be said.
		const text =
			left > 0 && job.status === 'running'
				? `Waiting ${Math.ceil(left / 1000)} s for the next request slot (the request budget keeps the account safe). Nothing to do: the job continues by itself.`
				: continuesElsewhere(job) && !isActive(job)
					? otherModeNote(job)
					: (advice(job, waitUntil > 0 ? left : undefined) ??
						(continuesElsewhere(job) ? otherModeNote(job) : null))
		setText(note, text ?? '')
		note.hidden = text === null
		setAttr(note, 'class', `job-note${job.status === 'failed' ? ' job-note-error' : ''}`)
	}
	/** The buttons that work for `job`, in their order. */
	function buttonsFor(job: Job): HTMLButtonElement[] {
		const own = job.source === 'playground' && !fromOtherMode(job.demo)
		return [
			own && isActive(job) ? buttons.pause : null,
			own && ['paused', 'failed', 'cancelled'].includes(job.status) && !needsNewJob(job)
				? buttons.resume
				: null,
			own && (isActive(job) || job.status === 'paused') ? buttons.cancel : null,
			...FORMATS.map((format) => buttons[format]),
			own || !isActive(job) ? buttons.delete : null
		].filter((candidate) => candidate !== null)
	}
	function update(job: Job, rate?: number, waitMs?: number): void {
		current = job
		// A rate is this run's, shown while it runs: gone when the job waits or stops, until the
		// next page after a resume measures the new run's.
		lastRate = job.status === 'running' ? (rate ?? lastRate) : undefined
		// A wait (for a budget slot, or a waiting job's retry) lasts until it ends or the job's next
		// event (a page, a status); the note counts it down.
		clearInterval(waitTimer)
		waitTimer = undefined
		waitUntil = waitMs && (job.status === 'running' || job.status === 'waiting') ? Date.now() + waitMs : 0
		if (waitUntil > 0)
			waitTimer = setInterval(() => {
				if (waitUntil <= Date.now()) clearInterval(waitTimer)
				showNote(current)
			}, 1000)
		setText(title, `#${job.id} ${job.kind} · ${job.target}`)
		const elsewhere = fromOtherMode(job.demo)
		world.hidden = !elsewhere
		setText(world, job.demo ? 'demo data' : 'Instagram data')
		setAttr(world, 'title', otherModeNote(job))
		setText(source, `from ${SOURCE_NAMES[job.source]}`)
		setAttr(
			source,
			'title',
			`Started by ${SOURCE_NAMES[job.source]} on the same store: it runs there; follow it and download its records here`
		)
		setAttr(status, 'class', STATUS_TAGS[job.status])
		setText(status, job.status)
		const progress = progressOf(job)
		if (progress.goal && progress.goal > 0) {
			bar.max = progress.goal
			bar.value = job.status === 'done' ? progress.goal : Math.min(job.collected, progress.goal)
		} else bar.removeAttribute('value')
		element.dataset.pages = String(job.pages)
		element.dataset.status = job.status
		const parts = [progress.text, formatQuantity(job.pages, 'page')]
		if (lastRate) parts.push(`${formatCount(Math.round(lastRate))}/s`)
		parts.push(`updated ${formatTime(job.updated_at)}`)
		setText(figures, parts.join(' · '))
		showNote(job)
		for (const format of FORMATS) {
			const download = buttons[format]
			download.disabled = job.collected === 0
			setAttr(
				download,
				'title',
				job.collected === 0 ? 'Nothing collected yet' : `Download the records as ${format.toUpperCase()}`
			)
		}
		// The row changes only when the set of buttons does (Pause and Resume swap, Cancel goes).
		const wanted = buttonsFor(job)
		const shown = [...actions.children]
		if (
			wanted.length === shown.length &&
			wanted.every((wantedButton, index) => shown[index] === wantedButton)
		)
			return
		const focused = document.activeElement
		const hadFocus = focused instanceof HTMLElement && actions.contains(focused) ? focused.dataset.act : null
		actions.replaceChildren(...wanted)
		if (hadFocus) {
			const same = (act: string | undefined) =>
				act ? actions.querySelector<HTMLButtonElement>(`[data-act="${act}"]:not(:disabled)`) : null
			;(same(hadFocus) ?? same(FOCUS_NEXT[hadFocus]) ?? element).focus()
		}
	}
	update(first)
	return { element, update, shown: () => current }
}
