/**
 * One answer bubble. Every question gets its own `AssistantTurn`, which keeps references to its
 * own nodes, so the steps of each question stream into its own bubble. Fixed element ids would send
 * the steps of every later question into the first bubble and leave its spinner running.
 */
import type { JsonResult, StreamEvent } from './api'
import { type ApprovalCard, approvalCard } from './approval'
import { codeBlock } from './code'
import { el, formatBytes, formatMeta } from './dom'
import { renderMarkdown } from './markdown'

/** Posts a decision for a permission request. */
export type Decide = (id: string, allow: boolean) => Promise<JsonResult>

const text = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))

function callText(name: string, args: unknown): string {
	const list = Array.isArray(args) ? args.map((arg) => JSON.stringify(arg)).join(', ') : ''
	return `ig.${name}(${list.length > 200 ? `${list.slice(0, 200)}…` : list})`
}

/** The bubble of one answer (or of one parallel task). */
export class AssistantTurn {
	readonly element: HTMLElement
	private readonly statusText = el('span', { className: 'chat-status-text', text: 'Sending…' })
	private readonly status = el(
		'div',
		{ className: 'chat-status', attrs: { role: 'status' } },
		el('span', { className: 'chat-spinner', attrs: { 'aria-hidden': 'true' } }),
		this.statusText
	)
	private readonly stepList = el('ol', { className: 'chat-step-list' })
	private readonly stepCount = el('span', { className: 'chat-step-count', text: '0' })
	private readonly steps = el(
		'details',
		{ className: 'chat-steps', attrs: { open: true } },
		el('summary', null, 'Steps ', this.stepCount),
		this.stepList
	)
	private readonly answer = el('div', { className: 'chat-answer' })
	private readonly files = el('ul', { className: 'chat-files', attrs: { hidden: true } })
	private readonly meta = el('p', { className: 'chat-meta', attrs: { hidden: true } })
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
		this.element = el(
			'article',
			{ className: 'chat-turn chat-assistant', attrs: { 'aria-busy': 'true' } },
			heading ? el('h3', { className: 'chat-task-heading', text: heading }) : null,
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

	/** Applies one stream event to this bubble. */
	handle(event: StreamEvent): void {
		switch (event.type) {
			case 'status':
				if (typeof event.permission_id === 'string')
					this.cards.get(event.permission_id)?.settle(String(event.outcome))
				this.setStatus(text(event.message))
				break
			case 'step':
				this.addStep(text(event.message))
				break
			case 'code':
				this.addItem(
					codeBlock(text(event.code), typeof event.description === 'string' ? event.description : undefined)
				)
				break
			case 'tool_call':
				if (event.source === 'code') {
					const line = el('div', {
						className: 'chat-call',
						text: callText(text(event.name), event.arguments)
					})
					this.pendingCalls.set(text(event.id), line)
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
				this.setStatus(text(event.message))
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
		this.answer.replaceChildren(el('p', { className: 'chat-error', text: message }))
	}

	/** Shows a restored answer (from the history) without steps. */
	restore(answerText: string, toolOutputs: readonly string[]): void {
		if (toolOutputs.length) this.addStep('Tool outputs')
		for (const output of toolOutputs) this.addItem(this.folded('Tool output', output, true))
		this.finished = true
		this.stopBusy()
		if (answerText) {
			this.answer.replaceChildren(renderMarkdown(answerText))
			this.steps.open = false
		}
	}

	private setStatus(message: string): void {
		if (message) this.statusText.textContent = message
	}

	private addStep(message: string): void {
		this.steps.hidden = false
		this.currentStep = el(
			'li',
			{ className: 'chat-step' },
			el('div', { className: 'chat-step-title', text: message })
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
		return el(
			'details',
			{ className: `chat-result ${success ? 'chat-result-ok' : 'chat-result-failed'}` },
			el('summary', null, `${success ? '✓' : '✗'} ${title}`),
			el('pre', { className: 'chat-result-output' }, el('code', { text: output }))
		)
	}

	/** "✗ You denied: run code": what the person decided, not the instruction the model got. */
	private deniedLine(labels: readonly unknown[]): HTMLElement {
		this.deniedSomething = true
		const names = [...new Set(labels.map(text))].join('; ')
		return el('div', { className: 'chat-result chat-result-denied', text: `✗ You denied: ${names}` })
	}

	private addResult(event: StreamEvent): void {
		const success = event.success === true
		const name = text(event.name)
		const call = this.pendingCalls.get(text(event.id))
		if (Array.isArray(event.denied) && event.denied.length) {
			const line = this.deniedLine(event.denied)
			if (call) {
				this.pendingCalls.delete(text(event.id))
				call.replaceWith(line)
			} else if (!this.currentStep.querySelector('.chat-result-denied')) {
				// The run's own result repeats a write denial already shown in place of its call.
				this.addItem(line)
			}
			return
		}
		// A call from the code is shown with its arguments; the run_code result is the code's output.
		const title = call?.textContent ?? (name === 'run_code' ? 'Code output' : name)
		const result = this.folded(title, text(event.output), success)
		if (call) {
			this.pendingCalls.delete(text(event.id))
			call.replaceWith(result)
		} else {
			this.addItem(result)
		}
	}

	private addApproval(event: StreamEvent): void {
		const id = text(event.id)
		const card = approvalCard(event, (allow) => this.decide(id, allow))
		this.cards.set(id, card)
		this.steps.open = true
		this.addItem(card.element)
		this.setStatus(`Waiting for your approval: ${text(event.title)}`)
	}

	private stopBusy(): void {
		this.status.hidden = true
		this.element.setAttribute('aria-busy', 'false')
	}

	private finish(event: StreamEvent): void {
		if (this.finished) return
		this.finished = true
		for (const card of this.cards.values()) card.settle('cancelled')
		this.stopBusy()
		const answerText = text(event.answer ?? '')
		const parts: HTMLElement[] = []
		if (answerText) parts.push(renderMarkdown(answerText))
		if (event.success !== true && event.error) {
			parts.push(el('p', { className: 'chat-error', text: text(event.error) }))
		}
		this.answer.replaceChildren(...parts)
		const files = Array.isArray(event.files) ? event.files : []
		if (files.length) {
			this.files.hidden = false
			this.files.replaceChildren(
				...files.map((file: { name?: unknown; file?: unknown; size?: unknown }) =>
					el(
						'li',
						null,
						el('span', { className: 'chat-file-name', text: text(file.file ?? file.name) }),
						` (${formatBytes(Number(file.size) || 0)})`
					)
				)
			)
		}
		this.meta.hidden = false
		this.meta.textContent = formatMeta(
			Number(event.steps) || 0,
			Number(event.tokens) || 0,
			Number(event.duration) || 0
		)
		if (answerText && !this.deniedSomething) this.steps.open = false
	}
}

/** A bubble with the person's question. */
export function userBubble(message: string): HTMLElement {
	return el(
		'article',
		{ className: 'chat-turn chat-user' },
		el('p', { className: 'chat-user-text', text: message })
	)
}
