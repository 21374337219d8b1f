/**
 * One answer bubble. Every question gets its own `AssistantTurn`, which keeps references to its
 * own nodes, so the steps of each question stream into its own bubble. Fixed element ids would send
 * the steps of every later question into the first bubble and leave its spinner running.
 */

import type { DoneEvent, PermissionEvent, ToolResultEvent } from '../../../src/agent/events'
import { h } from '../dom'
import { formatBytes, formatMeta } from '../format'
import { isAgentEvent, type JsonResult, type StreamEvent } from './api'
import { type ApprovalCard, approvalCard } from './approval'
import { codeBlock } from './code'
import { renderMarkdown } from './markdown'

/** Posts a decision for a permission request. */
export type Decide = (id: string, allow: boolean) => Promise<JsonResult>

/** A tool output of the stored conversation, shown again after a reload. */
export interface RestoredOutput {
	output: string
	/** False when the call failed, was denied or was stopped. */
	success: boolean
}

const text = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))

function callText(name: string, args: unknown): string {
	const list = Array.isArray(args) ? args.map((arg) => JSON.stringify(arg)).join(', ') : ''
	return `ig.${name}(${list.length > 200 ? `${list.slice(0, 200)}…` : list})`
}

/** The bubble of one answer (or of one parallel task). */
export class AssistantTurn {
	readonly element: HTMLElement
	private readonly statusText = h('span', { className: 'chat-status-text', text: 'Sending…' })
	private readonly status = h(
		'div',
		{ className: 'chat-status', attrs: { role: 'status' } },
		h('span', { className: 'chat-spinner', attrs: { 'aria-hidden': 'true' } }),
		this.statusText
	)
	private readonly stepList = h('ol', { className: 'chat-step-list' })
	private readonly stepCount = h('span', { className: 'chat-step-count', text: '0' })
	private readonly steps = h(
		'details',
		{ className: 'chat-steps', attrs: { open: true } },
		h('summary', null, 'Steps ', this.stepCount),
		this.stepList
	)
	private readonly answer = h('div', { className: 'chat-answer' })
	private readonly files = h('ul', { className: 'chat-files', attrs: { hidden: true } })
	private readonly meta = h('p', { className: 'chat-meta', attrs: { hidden: true } })
	private readonly cards = new Map<string, ApprovalCard>()
	private readonly pendingCalls = new Map<string, HTMLElement>()
	private currentStep: HTMLElement = this.stepList
	private finished = false
	/** The person denied something: the steps stay open after the answer so the denial shows. */
	private deniedSomething = false

	constructor(
		private readonly decide: Decide,
		heading?: string
	) {
		this.steps.hidden = true
		this.element = h(
			'article',
			{ className: 'chat-turn chat-assistant', attrs: { 'aria-busy': 'true' } },
			heading ? h('h3', { className: 'chat-task-heading', text: heading }) : null,
			this.status,
			this.steps,
			this.answer,
			this.files,
			this.meta
		)
	}

	/** Whether `done` (or a failure) has arrived. */
	get done(): boolean {
		return this.finished
	}

	/** What to bring into view once the bubble has ended: its answer (or error), to its end. */
	get shown(): { start: HTMLElement; bubble: HTMLElement } {
		return { start: this.answer, bubble: this.element }
	}

	/** Applies one stream event to this bubble. */
	handle(event: StreamEvent): void {
		if (!isAgentEvent(event)) return
		switch (event.type) {
			case 'status':
				if (event.permission_id && event.outcome) this.cards.get(event.permission_id)?.settle(event.outcome)
				this.setStatus(event.message)
				break
			case 'step':
				this.addStep(event.message)
				break
			case 'code':
				this.addItem(codeBlock(event.code, event.description))
				break
			case 'tool_call':
				if (event.source === 'code') {
					const line = h('div', { className: 'chat-call', text: callText(event.name, event.arguments) })
					this.pendingCalls.set(event.id, line)
					this.addItem(line)
				}
				break
			case 'tool_result':
				this.addResult(event)
				break
			case 'permission':
				this.addApproval(event)
				break
			case 'error':
				this.setStatus(event.message)
				break
			case 'done':
				this.finish(event)
				break
		}
	}

	/** Ends the bubble without a `done` (stopped, stream broken, request refused). */
	fail(message: string): void {
		if (this.finished) return
		this.finished = true
		for (const card of this.cards.values()) card.settle('cancelled')
		this.stopBusy()
		this.answer.replaceChildren(h('p', { className: 'chat-error', text: message }))
	}

	/** Shows a restored answer (from the history) without steps. */
	restore(answerText: string, toolOutputs: readonly RestoredOutput[]): void {
		if (toolOutputs.length) this.addStep('Tool outputs')
		for (const { output, success } of toolOutputs) this.addItem(this.folded('Tool output', output, success))
		this.finished = true
		this.stopBusy()
		if (answerText) {
			this.answer.replaceChildren(renderMarkdown(answerText))
			this.steps.open = false
		} else if (!toolOutputs.length) {
			// The history keeps a question whose ask failed or was stopped, but not why.
			this.answer.replaceChildren(
				h('p', { className: 'chat-meta', text: 'No answer: this question failed or was stopped.' })
			)
		}
	}

	private setStatus(message: string): void {
		if (message) this.statusText.textContent = message
	}

	private addStep(message: string): void {
		this.steps.hidden = false
		this.currentStep = h(
			'li',
			{ className: 'chat-step' },
			h('div', { className: 'chat-step-title', text: message })
		)
		this.stepList.append(this.currentStep)
		this.stepCount.textContent = String(this.stepList.children.length)
		this.setStatus(message)
	}

	private addItem(node: HTMLElement): void {
		this.steps.hidden = false
		if (this.currentStep === this.stepList) this.addStep('Working…')
		this.currentStep.append(node)
	}

	private folded(title: string, output: string, success: boolean): HTMLElement {
		return h(
			'details',
			{ className: `chat-result ${success ? 'chat-result-ok' : 'chat-result-failed'}` },
			h('summary', null, `${success ? '✓' : '✗'} ${title}`),
			h('pre', { className: 'chat-result-output' }, h('code', { text: output }))
		)
	}

	/** "✗ You denied: run code": what the person decided, not the instruction the model got. */
	private deniedLine(labels: readonly unknown[]): HTMLElement {
		this.deniedSomething = true
		const names = [...new Set(labels.map(text))].join('; ')
		return h('div', { className: 'chat-result chat-result-denied', text: `✗ You denied: ${names}` })
	}

	private addResult(event: ToolResultEvent): void {
		const { success, name } = event
		const call = this.pendingCalls.get(event.id)
		if (event.denied?.length) {
			const line = this.deniedLine(event.denied)
			if (call) {
				this.pendingCalls.delete(event.id)
				call.replaceWith(line)
			} else if (!this.currentStep.querySelector('.chat-result-denied')) {
				// The run's own result repeats a write denial already shown in place of its call.
				this.addItem(line)
			}
			return
		}
		// A call from the code is shown with its arguments; the run_code result is the code's output.
		const title = call?.textContent ?? (name === 'run_code' ? 'Code output' : name)
		const result = this.folded(title, event.output, success)
		if (call) {
			this.pendingCalls.delete(event.id)
			call.replaceWith(result)
		} else {
			this.addItem(result)
		}
	}

	private addApproval(event: PermissionEvent): void {
		const id = event.id
		const card = approvalCard(event, (allow) => this.decide(id, allow))
		this.cards.set(id, card)
		this.steps.open = true
		this.addItem(card.element)
		this.setStatus(`Waiting for your approval: ${event.title}`)
	}

	private stopBusy(): void {
		this.status.hidden = true
		this.element.setAttribute('aria-busy', 'false')
	}

	private finish(event: DoneEvent): void {
		if (this.finished) return
		this.finished = true
		for (const card of this.cards.values()) card.settle('cancelled')
		this.stopBusy()
		const answerText = event.answer
		const parts: HTMLElement[] = []
		if (answerText) parts.push(renderMarkdown(answerText))
		if (!event.success && event.error) {
			parts.push(h('p', { className: 'chat-error', text: event.error }))
		}
		this.answer.replaceChildren(...parts)
		if (event.files.length) {
			this.files.hidden = false
			this.files.replaceChildren(
				...event.files.map((file) =>
					h(
						'li',
						null,
						h('span', { className: 'chat-file-name', text: file.file || file.name }),
						` (${formatBytes(file.size)})`
					)
				)
			)
		}
		this.meta.hidden = false
		this.meta.textContent = formatMeta(event.steps, event.tokens, event.duration)
		if (answerText && !this.deniedSomething) {
			// Closing the steps would drop a focus inside them (an approval card's) to the page
			// body; their summary stays in view and keeps the keyboard user's place.
			if (this.steps.contains(document.activeElement)) this.steps.querySelector('summary')?.focus()
			this.steps.open = false
		}
	}
}

/** A bubble with the person's question. */
export function userBubble(message: string): HTMLElement {
	return h(
		'article',
		{ className: 'chat-turn chat-user' },
		h('p', { className: 'chat-user-text', text: message })
	)
}
