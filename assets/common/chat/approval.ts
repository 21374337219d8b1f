/**
 * The approve/deny card of a permission request (docs/architecture.md, "The agent"): what is about to happen
 * (the code, the write call or the file), two buttons, and how long until the server denies it on
 * its own. The decision goes to `POST <base>/approve { id, allow }`; the stream's `status` event
 * with the same `permission_id` confirms the outcome (or reports the time-out).
 */

import type { PermissionEvent } from '../../../src/agent/events'
import { h } from '../dom'
import type { JsonResult } from './api'
import { codeBlock } from './code'

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

/**
 * Characters shown as nothing or that change how the text around them reads: Unicode's
 * default-ignorable code points (zero-width characters, bidirectional embeddings, overrides,
 * isolates and marks, the soft hyphen, Hangul fillers, variation selectors, the tag characters
 * U+E0000-E007F that spell ASCII invisibly) and the Arabic letter mark. In code or a message to
 * approve they can make it read otherwise than what runs or is sent (an override can turn a call
 * into what looks like a comment; tag characters can carry a sentence nobody sees), so a card shows
 * each as its escape instead. Emoji's presentation selector (U+FE0F) after a pictograph stays.
 */
const INVISIBLE_CHARACTERS =
	/(?!(?<=\p{Extended_Pictographic})\ufe0f)[\p{Default_Ignorable_Code_Point}\u061c]/gu

/** `text` with every invisible or direction-changing character written as its `\u202e` (or `\u{e0041}`) escape. */
export function revealInvisible(text: string): string {
	return text.replace(INVISIBLE_CHARACTERS, (character) => {
		const code = character.codePointAt(0) ?? 0
		return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
	})
}

/** A card and the way to close it when the outcome arrives. */
export interface ApprovalCard {
	element: HTMLElement
	/** Shows the final outcome (`approved`, `denied`, `timed_out`, `cancelled`) and disables the buttons. */
	settle(outcome: string): void
}

/** Builds the card for a `permission` event; `decide` posts the decision. */
export function approvalCard(
	event: PermissionEvent,
	decide: (allow: boolean) => Promise<JsonResult>
): ApprovalCard {
	const { kind } = event
	const detail = revealInvisible(event.detail)
	const title = revealInvisible(event.title)
	const seconds = event.timeout_seconds ?? 120
	const deadline = Date.now() + seconds * 1000
	const state = h('p', { className: 'chat-approval-state', attrs: { 'aria-live': 'polite', tabindex: -1 } })
	const approve = h('button', {
		className: 'chat-button chat-approve',
		text: 'Approve',
		attrs: { type: 'button' }
	})
	const deny = h('button', { className: 'chat-button chat-deny', text: 'Deny', attrs: { type: 'button' } })
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
		if (document.activeElement === approve || document.activeElement === deny) state.focus()
		approve.disabled = true
		deny.disabled = true
		card.dataset.outcome = outcome
		state.textContent = outcomeText[outcome] ?? outcome
	}

	const onDecide = async (allow: boolean) => {
		const pressed = allow ? approve : deny
		// A disabled button drops the focus to the page body: keep it on the card's state line, so
		// the next Tab goes on from the card instead of from the top of the page.
		if (document.activeElement === pressed) state.focus()
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
			if (document.activeElement === state) pressed.focus()
		}
	}
	approve.addEventListener('click', () => void onDecide(true))
	deny.addEventListener('click', () => void onDecide(false))

	const body =
		kind === 'code_run'
			? codeBlock(detail)
			: h('pre', { className: 'chat-approval-detail' }, h('code', { text: detail }))
	const card = h(
		'section',
		{
			className: 'chat-approval',
			attrs: { 'aria-label': `Permission request: ${title}` }
		},
		h(
			'header',
			{ className: 'chat-approval-header' },
			h('span', { className: 'chat-approval-kind', text: kindLabels[kind] ?? 'Action' }),
			h('strong', { className: 'chat-approval-title', text: title })
		),
		body,
		h('div', { className: 'chat-approval-actions' }, approve, deny),
		state
	)
	card.dataset.permissionId = event.id
	return { element: card, settle }
}
