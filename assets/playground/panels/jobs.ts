/**
 * Jobs: long collections the server runs until the whole list is stored (`/api/jobs`). Start one
 * from the form (or with "Collect all" under a list result), follow each with a progress bar fed by
 * the job's server-sent events (one per stored page), pause, resume, cancel or delete it, and
 * download its records as CSV, JSONL or JSON. A job that waits, pauses or fails says why and what
 * to do next.
 */

import { h, replaceChildren } from '../../common/dom'
import { confirmAction } from '../components/dialogs'
import { errorBox } from '../components/error-box'
import { showToast } from '../components/toast'
import { apiGet, apiRequest } from '../lib/api'
import { formatCount, formatTime } from '../lib/format'
import { followJob, isActive, type Job, type JobEvent, SOURCE_NAMES } from '../lib/jobs'
import { type Panel, panelFrame } from '../lib/panel'
import { advice, needsNewJob } from './job-advice'
import { downloadJob } from './job-download'
import { createJobForm } from './job-form'

const STATUS_TAGS: Record<Job['status'], string> = {
	queued: 'tag',
	running: 'tag tag-accent',
	waiting: 'tag tag-warning',
	paused: 'tag tag-warning',
	done: 'tag tag-success',
	failed: 'tag tag-error',
	cancelled: 'tag'
}

/** One job's row: kept and updated in place as events arrive. */
interface JobRow {
	element: HTMLElement
	/** `budgetWaitMs`: the job waits this long for a request slot of the client's budget. */
	update(job: Job, rate?: number, budgetWaitMs?: number): void
}

/** Builds the Jobs panel. */
export function createJobsPanel(): Panel {
	const list = h('div', { className: 'jobs-list', attrs: { 'aria-live': 'polite' } })
	const rows = new Map<number, JobRow>()
	const streams = new Map<number, AbortController>()
	let visible = false

	const form = createJobForm(refresh)

	/** Jobs with a pause, resume or cancel on its way: a double click acts once, not twice (the second refused). */
	const acting = new Set<number>()

	async function act(job: Job, action: 'pause' | 'resume' | 'cancel'): Promise<void> {
		if (acting.has(job.id)) return
		acting.add(job.id)
		try {
			const result = await apiRequest<Job>('POST', `/api/jobs/${job.id}/${action}`)
			if (!result.ok || !result.envelope) {
				showToast(`Could not ${action} job ${job.id}: ${result.error} (${result.code})`, 'error')
				return
			}
			show(result.envelope.data)
		} finally {
			acting.delete(job.id)
		}
	}

	async function remove(job: Job): Promise<void> {
		const confirmed = await confirmAction({
			title: `Delete job ${job.id}?`,
			message: `Its ${formatCount(job.collected)} stored records are deleted too. Download them first if you need them.`,
			confirmLabel: 'Delete',
			danger: true
		})
		if (!confirmed) return
		const result = await apiRequest('DELETE', `/api/jobs/${job.id}`)
		if (!result.ok) showToast(`Could not delete job ${job.id}: ${result.error} (${result.code})`, 'error')
		await refresh()
	}

	function button(
		text: string,
		label: string,
		onClick: () => void,
		className = 'button button-small'
	): HTMLButtonElement {
		return h('button', {
			className,
			text,
			attrs: { type: 'button', 'aria-label': label },
			on: { click: onClick }
		})
	}

	function buildRow(first: Job): JobRow {
		const title = h('span', { className: 'job-title' })
		const source = h('span', { className: 'tag' })
		source.hidden = first.source === 'playground'
		const status = h('span')
		const bar = h('progress', { className: 'job-bar', attrs: { max: 1 } })
		const figures = h('span', { className: 'job-figures' })
		const note = h('p', { className: 'job-note' })
		const actions = h('div', { className: 'row-actions' })
		const element = h(
			'article',
			{ className: 'job', dataset: { job: String(first.id) }, attrs: { 'aria-label': `Job ${first.id}` } },
			h('div', { className: 'job-head' }, title, source, status, figures),
			bar,
			note,
			actions
		)
		let current = first
		let lastRate: number | undefined
		/** When the budget wait in progress ends (0: none); the note counts down to it each second. */
		let waitUntil = 0
		let waitTimer: ReturnType<typeof setInterval> | undefined
		function showNote(job: Job): void {
			const left = waitUntil - Date.now()
			const text =
				left > 0 && job.status === 'running'
					? `Waiting ${Math.ceil(left / 1000)} s for the next request slot (the request budget keeps the account safe). Nothing to do: the job continues by itself.`
					: advice(job)
			note.textContent = text ?? ''
			note.hidden = text === null
			note.className = `job-note${job.status === 'failed' ? ' job-note-error' : ''}`
			note.setAttribute('role', job.status === 'failed' || job.status === 'paused' ? 'alert' : 'status')
		}
		function update(job: Job, rate?: number, budgetWaitMs?: number): void {
			current = job
			if (rate !== undefined) lastRate = rate
			// A wait lasts until it ends or the job's next event (a page, a status).
			clearInterval(waitTimer)
			waitTimer = undefined
			waitUntil = budgetWaitMs && job.status === 'running' ? Date.now() + budgetWaitMs : 0
			if (waitUntil > 0)
				waitTimer = setInterval(() => {
					if (waitUntil <= Date.now()) clearInterval(waitTimer)
					showNote(current)
				}, 1000)
			title.textContent = `#${job.id} ${job.kind} · ${job.target}`
			const own = job.source === 'playground'
			source.textContent = `from ${SOURCE_NAMES[job.source]}`
			source.title = `Started by ${SOURCE_NAMES[job.source]} on the same store: it runs there; follow it and download its records here`
			status.className = STATUS_TAGS[job.status]
			status.textContent = job.status
			const goal = job.limit !== null && (job.total === null || job.limit < job.total) ? job.limit : job.total
			if (goal && goal > 0) {
				bar.max = goal
				bar.value = Math.min(job.collected, goal)
			} else if (job.status === 'done') {
				bar.max = 1
				bar.value = 1
			} else bar.removeAttribute('value')
			bar.setAttribute('aria-label', `Job ${job.id} progress`)
			element.dataset.pages = String(job.pages)
			element.dataset.status = job.status
			const parts = [
				`${formatCount(job.collected)}${goal ? ` / ${formatCount(goal)}` : ''} records`,
				`${formatCount(job.pages)} pages`
			]
			if (isActive(job) && lastRate) parts.push(`${formatCount(Math.round(lastRate))}/s`)
			parts.push(`updated ${formatTime(job.updated_at)}`)
			figures.textContent = parts.join(' · ')
			showNote(job)
			const name = `job ${job.id}`
			replaceChildren(
				actions,
				own && isActive(job) ? button('Pause', `Pause ${name}`, () => void act(current, 'pause')) : null,
				own && ['paused', 'failed', 'cancelled'].includes(job.status) && !needsNewJob(job)
					? button(
							'Resume',
							`Resume ${name}`,
							() => void act(current, 'resume'),
							'button button-small button-primary'
						)
					: null,
				own && (isActive(job) || job.status === 'paused')
					? button('Cancel', `Cancel ${name}`, () => void act(current, 'cancel'))
					: null,
				...(['csv', 'jsonl', 'json'] as const).map((format) =>
					h('button', {
						className: 'button button-small',
						text: format.toUpperCase(),
						attrs: {
							type: 'button',
							'aria-label': `Download ${name} as ${format.toUpperCase()}`,
							disabled: job.collected === 0,
							title:
								job.collected === 0
									? 'Nothing collected yet'
									: `Download the records as ${format.toUpperCase()}`
						},
						on: { click: () => void downloadJob(current, format) }
					})
				),
				// Another process's running job is stopped there first (the server refuses to delete it).
				own || !isActive(job)
					? button(
							'Delete',
							`Delete ${name}`,
							() => void remove(current),
							'button button-small button-danger'
						)
					: null
			)
		}
		update(first)
		return { element, update }
	}

	/** Shows a job's state: updates its row (creating it), and follows its events while it is active. */
	function show(job: Job, rate?: number, budgetWaitMs?: number): void {
		let row = rows.get(job.id)
		if (!row) {
			row = buildRow(job)
			rows.set(job.id, row)
			list.querySelector('.result-empty')?.remove()
			list.prepend(row.element)
		} else row.update(job, rate, budgetWaitMs)
		if (isActive(job) && visible) follow(job.id)
	}

	function follow(id: number): void {
		if (streams.has(id)) return
		const controller = new AbortController()
		streams.set(id, controller)
		const onEvent = (event: JobEvent) =>
			show(event.job, event.rate, event.type === 'wait' ? event.wait_ms : undefined)
		void followJob(id, onEvent, controller.signal).then(async () => {
			streams.delete(id)
			if (controller.signal.aborted) return
			// The stream ended: the job settled, or the connection dropped (then follow again).
			const latest = await apiGet<Job>(`/api/jobs/${id}`)
			if (latest.ok && latest.envelope) {
				if (isActive(latest.envelope.data)) await new Promise((resolve) => setTimeout(resolve, 1000))
				show(latest.envelope.data)
			}
		})
	}

	async function refresh(): Promise<void> {
		const result = await apiGet<Job[]>('/api/jobs')
		if (!result.ok || !result.envelope) {
			replaceChildren(list, errorBox(result.code, `Could not list the jobs: ${result.error ?? ''}`))
			rows.clear()
			return
		}
		list.querySelector('.error-box')?.remove()
		const jobs = Array.isArray(result.envelope.data) ? result.envelope.data : []
		const ids = new Set(jobs.map((job) => job.id))
		for (const [id, row] of rows) {
			if (ids.has(id)) continue
			row.element.remove()
			rows.delete(id)
			streams.get(id)?.abort()
		}
		if (jobs.length === 0 && rows.size === 0) {
			replaceChildren(
				list,
				h('p', {
					className: 'result-empty',
					text: 'No jobs yet. Start one above, or press "Collect all" under a list result.'
				})
			)
			return
		}
		// Oldest first, each prepended: the newest ends on top.
		for (const job of [...jobs].reverse()) show(job)
	}

	const element = panelFrame(
		'jobs',
		'Jobs',
		'Collect a whole list on the server, page after page. Jobs survive restarts and continue where they stopped; at most two run at once. Jobs of smkit collect and the MCP server on the same store show here too.',
		form,
		h(
			'div',
			{ className: 'panel-toolbar' },
			button('Refresh', 'Refresh the jobs', () => void refresh(), 'button')
		),
		list
	)
	return {
		id: 'jobs',
		title: 'Jobs',
		element,
		show() {
			visible = true
			void refresh()
		},
		hide() {
			visible = false
			for (const controller of streams.values()) controller.abort()
			streams.clear()
		}
	}
}
