/**
 * A parallel run in the chat: one sub-bubble per task (each task is its own conversation on the
 * server and streams its own steps, approvals included), then a summary of the run's results.
 */
import type { StreamEvent } from './api'
import { el } from './dom'
import { AssistantTurn, type Decide } from './turn'

interface TaskResult {
	task?: unknown
	success?: unknown
	steps?: unknown
	tokens?: unknown
	duration?: unknown
	error?: unknown
}

/** The bubble of a parallel run. */
export class ParallelRun {
	readonly element: HTMLElement
	private readonly turns: AssistantTurn[]
	private readonly status = el('p', { className: 'chat-parallel-status', attrs: { role: 'status' } })
	private readonly summary = el('div', { className: 'chat-parallel-summary' })
	private finished = false

	constructor(tasks: readonly string[], decide: Decide) {
		this.turns = tasks.map((task, index) => new AssistantTurn(decide, `Task ${index + 1}: ${task}`))
		this.status.textContent = `Running ${tasks.length} task${tasks.length === 1 ? '' : 's'}…`
		this.element = el(
			'article',
			{ className: 'chat-turn chat-parallel-run', attrs: { 'aria-busy': 'true' } },
			this.status,
			el('div', { className: 'chat-parallel-tasks' }, ...this.turns.map((turn) => turn.element)),
			this.summary
		)
	}

	/** Whether the run's final `done` (or a failure) has arrived. */
	get done(): boolean {
		return this.finished
	}

	/** Routes an event to its task, or handles the run's own events. */
	handle(event: StreamEvent): void {
		if (typeof event.task === 'number') {
			this.turns[event.task]?.handle(event)
			return
		}
		if (event.type === 'status' && typeof event.message === 'string') this.status.textContent = event.message
		if (event.type === 'done') this.finish(event)
	}

	/** Ends the run without its summary. */
	fail(message: string): void {
		if (this.finished) return
		for (const turn of this.turns) turn.fail(message)
		this.finished = true
		this.element.setAttribute('aria-busy', 'false')
		this.status.textContent = message
	}

	private finish(event: StreamEvent): void {
		this.finished = true
		this.element.setAttribute('aria-busy', 'false')
		const results: TaskResult[] = Array.isArray(event.results) ? event.results : []
		const succeeded = results.filter((result) => result.success === true).length
		this.status.textContent = `${succeeded} of ${results.length} tasks succeeded`
		const rows = results.map((result, index) =>
			el(
				'tr',
				null,
				el('td', { text: String(index + 1) }),
				el('td', { text: result.success === true ? '✓' : `✗ ${String(result.error ?? '')}` }),
				el('td', { text: String(result.steps ?? 0) }),
				el('td', { text: String(result.tokens ?? 0) }),
				el('td', { text: `${Number(result.duration ?? 0).toFixed(1)} s` })
			)
		)
		this.summary.replaceChildren(
			el(
				'table',
				{ className: 'chat-parallel-table' },
				el(
					'thead',
					null,
					el(
						'tr',
						null,
						...['Task', 'Result', 'Steps', 'Tokens', 'Time'].map((name) =>
							el('th', { text: name, attrs: { scope: 'col' } })
						)
					)
				),
				el('tbody', null, ...rows)
			),
			el('p', {
				className: 'chat-meta',
				text: `Total: ${Number(event.total_duration ?? 0).toFixed(1)} s · ${Number(event.total_tokens ?? 0).toLocaleString('en')} tokens`
			})
		)
	}
}
