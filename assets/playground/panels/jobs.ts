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
import { focusFirst, keysOf, neighbourKey, panelHeading } from '../lib/focus'
import { formatCount } from '../lib/format'
import { followJob, isActive, type Job, type JobEvent, takeJobToFocus } from '../lib/jobs'
import { type Panel, panelFrame } from '../lib/panel'
import { jobStoppedOnSession } from '../lib/session-signals'
import { onStatus } from '../lib/state'
import { advice } from './job-advice'
import { createJobForm } from './job-form'
import { buildJobRow, button, type JobRow, type RowHandlers } from './job-row'

/** How often the open panel lists the jobs again, to show those other processes start. */
const LOOK_EVERY_MS = 5000

/** What the status line says when a job's status changes: "Job 3 done.", with the reason when it waits, paused or failed. */
function statusNews(job: Job): string {
	const why = ['waiting', 'paused', 'failed'].includes(job.status) ? advice(job) : null
	return `Job ${job.id} ${job.status}${why ? `: ${why}` : '.'}`
}

/** Builds the Jobs panel. */
export function createJobsPanel(): Panel {
	// Not a live region: every stored page changes a card. What a screen reader hears is the status
	// line below: a job's status as it changes ("Job 3 done").
	const list = h('div', { className: 'jobs-list' })
	const statusLine = h('p', { className: 'visually-hidden', attrs: { role: 'status' } })
	/** Status changes of one moment, said together (a refresh may bring several). */
	let toSay: string[] = []
	function announce(text: string): void {
		if (toSay.length === 0)
			queueMicrotask(() => {
				statusLine.textContent = toSay.join(' ')
				toSay = []
			})
		toSay.push(text)
	}
	const rows = new Map<number, JobRow>()
	const streams = new Map<number, AbortController>()
	let visible = false

	// A started job's card takes the focus (lib/focus.ts).
	const form = createJobForm(async (id) => {
		await refresh()
		focusStarted(id)
	})

	/**
	 * Gives a just-started job's card the focus; a job already past running when its card appears
	 * (failed on its first page, say) has its status said, as a change would be.
	 */
	function focusStarted(id: number): void {
		const row = rows.get(id)
		focusFirst(row?.element)
		const job = row?.shown()
		if (job && job.status !== 'queued' && job.status !== 'running') announce(statusNews(job))
	}
	// Whether a job is of the other Instagram is known once the status is: shown again then.
	onStatus(() => {
		for (const row of rows.values()) row.update(row.shown())
	})

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
		// Deleted, the card's focus goes to the card that takes its place, or to the heading (lib/focus.ts).
		const next = Number(neighbourKey(keysOf(list, 'article.job', 'job'), String(job.id)))
		const result = await apiRequest('DELETE', `/api/jobs/${job.id}`)
		if (!result.ok) showToast(`Could not delete job ${job.id}: ${result.error} (${result.code})`, 'error')
		await refresh()
		if (result.ok) focusFirst(rows.get(next)?.element, panelHeading('jobs'))
	}

	const handlers: RowHandlers = { act, remove }

	/** Shows a job's state: updates its row (creating it), and follows its events while it is active. */
	function show(job: Job, rate?: number, waitMs?: number): void {
		let row = rows.get(job.id)
		const before = row?.shown().status
		if (before !== undefined && before !== job.status) announce(statusNews(job))
		// Paused on a refused session: the badge and banner follow at once, not at the next status poll.
		jobStoppedOnSession(job)
		if (!row) {
			row = buildJobRow(job, handlers)
			rows.set(job.id, row)
			list.querySelector('.result-empty')?.remove()
			list.prepend(row.element)
		} else row.update(job, rate, waitMs)
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
			// The stream ended: the job settled, or the connection dropped (then follow again). Following
			// is the panel's own doing: a poll, as the stream is (lib/jobs.ts).
			const latest = await apiGet<Job>(`/api/jobs/${id}`, { poll: true })
			if (latest.ok && latest.envelope) {
				if (isActive(latest.envelope.data)) await new Promise((resolve) => setTimeout(resolve, 1000))
				show(latest.envelope.data)
			}
		})
	}

	/**
	 * Lists the jobs again; `quiet` (the periodic look) leaves the list as it is when that fails, and
	 * is a poll: not in the request history, where a look every few seconds would push the person's
	 * own requests out (lib/api.ts). Opening the panel and Refresh are the person's: recorded.
	 */
	async function refresh(quiet = false): Promise<void> {
		const result = await apiGet<Job[]>('/api/jobs', { poll: quiet })
		if (!result.ok || !result.envelope) {
			if (quiet) return
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
			// Drawn once: a periodic look leaves it as it is.
			if (list.querySelector('.result-empty')) return
			replaceChildren(
				list,
				h('p', {
					className: 'result-empty',
					text: 'No jobs yet. Start one above, or press "Collect all" under a list result.'
				})
			)
			return
		}
		// Oldest first, each prepended: the newest ends on top. A row changes only when its job did
		// (and its buttons only when the set of them does, job-row.ts: never under the pointer while
		// pages arrive), and a job its event stream follows is left
		// to the stream: a list read a moment earlier would move its bar back.
		for (const job of [...jobs].reverse()) {
			const row = rows.get(job.id)
			const unchanged = row && row.shown().updated_at === job.updated_at && row.shown().status === job.status
			if (!unchanged && !streams.has(job.id)) show(job)
		}
	}

	/** While the panel is open, a look every few seconds shows jobs other processes started (smkit collect, MCP). */
	let looking: ReturnType<typeof setInterval> | undefined

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
		list,
		statusLine
	)
	return {
		id: 'jobs',
		title: 'Jobs',
		element,
		show() {
			visible = true
			// A job "Collect all" started takes the focus once its card is shown (lib/focus.ts).
			const started = takeJobToFocus()
			void refresh().then(() => {
				if (started !== null) focusStarted(started)
			})
			clearInterval(looking)
			looking = setInterval(() => void refresh(true), LOOK_EVERY_MS)
		},
		hide() {
			visible = false
			clearInterval(looking)
			for (const controller of streams.values()) controller.abort()
			streams.clear()
		}
	}
}
