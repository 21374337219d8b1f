/**
 * The approve/deny card of a permission request (docs/architecture.md, "The agent"): what is about to happen
 * (the code, the write call or the file), two buttons, and how long until the server denies it on
 * its own. The decision goes to `POST <base>/approve { id, allow }`; the stream's `status` event
 * with the same `permission_id` confirms the outcome (or reports the time-out).
 */
import type { JsonResult, StreamEvent } from './api'
import { codeBlock } from './code'
import { el } from './dom'

const kindLabels: Record<string, string> = {
	code_run: 'Run code',
	write_call: 'Write on the account',
	file_write: 'Write a file'
}

const outcomeText: Record<string, string> = {
	approved: 'Approved',
	denied: 'Denied',
	timed_out: 'Denied: no decision in time',
	cancelled: 'Cancelled'
}

/** A card and the way to close it when the outcome arrives. */
export interface ApprovalCard {
	element: HTMLElement
	/** Shows the final outcome (`approved`, `denied`, `timed_out`, `cancelled`) and disables the buttons. */
	settle(outcome: string): void
}

/** Builds the card for a `permission` event; `decide` posts the decision. */
export function approvalCard(
	event: StreamEvent,
	decide: (allow: boolean) => Promise<JsonResult>
): ApprovalCard {
	const kind = String(event.kind ?? '')
	const detail = String(event.detail ?? '')
	const seconds = typeof event.timeout_seconds === 'number' ? event.timeout_seconds : 120
	const deadline = Date.now() + seconds * 1000
	const state = el('p', { className: 'chat-approval-state', attrs: { 'aria-live': 'polite' } })
	const approve = el('button', {
		className: 'chat-button chat-approve',
		text: 'Approve',
		attrs: { type: 'button' }
	})
	const deny = el('button', { className: 'chat-button chat-deny', text: 'Deny', attrs: { type: 'button' } })
	let settled = false

	const showRemaining = () => {
		const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000))
		state.textContent = `Waiting for your decision: denied automatically in ${left} s.`
	}
	showRemaining()
	const timer = setInterval(showRemaining, 1000)

	const settle = (outcome: string) => {
		if (settled) return
		settled = true
		clearInterval(timer)
		approve.disabled = true
		deny.disabled = true
		card.dataset.outcome = outcome
		state.textContent = outcomeText[outcome] ?? outcome
	}

	const onDecide = async (allow: boolean) => {
		approve.disabled = true
		deny.disabled = true
		const result = await decide(allow)
		if (result.ok) settle(allow ? 'approved' : 'denied')
		else if (result.status === 404) {
			settle('expired')
			state.textContent = 'This request is no longer waiting (it timed out or was already decided).'
		} else {
			approve.disabled = false
			deny.disabled = false
			state.textContent = `Could not send the decision: ${result.error ?? 'unknown error'}`
		}
	}
	approve.addEventListener('click', () => void onDecide(true))
	deny.addEventListener('click', () => void onDecide(false))

	const body =
		kind === 'code_run'
			? codeBlock(detail)
			: el('pre', { className: 'chat-approval-detail' }, el('code', { text: detail }))
	const card = el(
		'section',
		{
			className: 'chat-approval',
			attrs: { 'aria-label': `Permission request: ${String(event.title ?? '')}` }
		},
		el(
			'header',
			{ className: 'chat-approval-header' },
			el('span', { className: 'chat-approval-kind', text: kindLabels[kind] ?? 'Action' }),
			el('strong', { className: 'chat-approval-title', text: String(event.title ?? '') })
		),
		body,
		el('div', { className: 'chat-approval-actions' }, approve, deny),
		state
	)
	card.dataset.permissionId = String(event.id ?? '')
	return { element: card, settle }
}
