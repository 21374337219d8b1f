/**
 * A parallel run in the chat: one sub-bubble per task (each task is its own conversation on the
 * server and streams its own steps, approvals included), then a summary of the run's results.
 */

import { h } from '../dom'
import { isAgentEvent, type ParallelDoneEvent, type StreamEvent } from './api'
import { AssistantTurn, type Decide } from './turn'

/** The bubble of a parallel run. */
export class ParallelRun {
	readonly element: HTMLElement
	private readonly turns: AssistantTurn[]
	private readonly status = h('p', { className: 'chat-parallel-status', attrs: { role: 'status' } })
	private readonly summary = h('div', { className: 'chat-parallel-summary' })
	private readonly taskList: HTMLElement
	private finished = false
	/** Whether any event of the run arrived (false: the request was refused, or never got through). */
	private started = false

	constructor(tasks: readonly string[], decide: Decide) {
		this.turns = tasks.map((task, index) => new AssistantTurn(decide, `Task ${index + 1}: ${task}`))
		this.status.textContent = `Running ${tasks.length} task${tasks.length === 1 ? '' : 's'}…`
		this.taskList = h('div', { className: 'chat-parallel-tasks' }, ...this.turns.map((turn) => turn.element))
		this.element = h(
			'article',
			{ className: 'chat-turn chat-parallel-run', attrs: { 'aria-busy': 'true' } },
			this.status,
			this.taskList,
			this.summary
		)
	}

	/** What to bring into view once the run has ended: the run, from its first line. */
	get shown(): { start: HTMLElement; bubble: HTMLElement } {
		return { start: this.element, bubble: this.element }
	}

	/** Whether the run's final `done` (or a failure) has arrived. */
	get done(): boolean {
		return this.finished
	}

	/** Routes an event to its task, or handles the run's own events. */
	handle(event: StreamEvent): void {
		this.started = true
		if (!isAgentEvent(event)) {
			this.finish(event)
			return
		}
		if (event.task !== undefined) this.turns[event.task]?.handle(event)
		else if (event.type === 'status') this.status.textContent = event.message
	}

	/**
	 * Ends the run without its summary. A run that never started (refused, unreachable) says why
	 * once, in place of its tasks, rather than under each of them.
	 */
	fail(message: string): void {
		if (this.finished) return
		for (const turn of this.turns) turn.fail(message)
		this.finished = true
		this.element.setAttribute('aria-busy', 'false')
		this.status.textContent = message
		if (!this.started) {
			this.taskList.hidden = true
			this.status.classList.add('chat-error')
		}
	}

	private finish(event: ParallelDoneEvent): void {
		this.finished = true
		this.element.setAttribute('aria-busy', 'false')
		const { results } = event
		const succeeded = results.filter((result) => result.success).length
		this.status.textContent = `${succeeded} of ${results.length} tasks succeeded`
		const rows = results.map((result, index) =>
			h(
				'tr',
				null,
				h('td', { text: String(index + 1) }),
				h('td', { text: result.success ? '✓' : `✗ ${result.error ?? ''}` }),
				h('td', { text: String(result.steps) }),
				h('td', { text: String(result.tokens) }),
				h('td', { text: `${result.duration.toFixed(1)} s` })
			)
		)
		this.summary.replaceChildren(
			h(
				'table',
				{ className: 'chat-parallel-table' },
				h(
					'thead',
					null,
					h(
						'tr',
						null,
						...['Task', 'Result', 'Steps', 'Tokens', 'Time'].map((name) =>
							h('th', { text: name, attrs: { scope: 'col' } })
						)
					)
				),
				h('tbody', null, ...rows)
			),
			h('p', {
				className: 'chat-meta',
				text: `Total: ${event.total_duration.toFixed(1)} s · ${event.total_tokens.toLocaleString('en')} tokens`
			})
		)
	}
}
