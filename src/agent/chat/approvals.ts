/**
 * Where an ask's permission requests go (docs/architecture.md, "The agent": the web servers ask the
 * person in the browser). A streaming ask has a person watching: its requests wait for `POST .../approve
 * { id, allow }` (denied after the time-out, or when the stream closes). A plain JSON ask has
 * nobody to ask: its requests are denied and remembered, so the response can say how to allow
 * them. Nothing is ever approved without a person's click.
 */

import type { AgentEvent, ApprovalOutcome } from '../events'
import { type ApprovalRequest, type Approver, createDeferredApprover } from '../permissions'
import { AGENT_DEFAULTS } from '../settings'

/** How an ask's permission requests are decided. */
export type ApprovalMode = 'browser' | 'none'

/** The approver of one ask, plus what it denied for lack of a person to ask. */
export interface ApprovalChannel {
	/** `browser` when a person watches the ask and can approve. */
	mode: ApprovalMode
	approver: Approver
	/** Requests denied because the request could not show approve/deny cards (mode `none`). */
	deniedUnasked: ApprovalRequest[]
}

/** Waiting browser approvals of one server (all its conversations and parallel tasks). */
export class BrowserApprovals {
	/** Seconds a request waits for a decision. */
	readonly timeoutSeconds: number
	private readonly deferred
	private readonly decided = new Map<string, boolean>()

	constructor(timeoutMs: number = AGENT_DEFAULTS.approvalTimeoutMs) {
		this.timeoutSeconds = Math.round(timeoutMs / 100) / 10
		this.deferred = createDeferredApprover({ timeoutMs })
	}

	/** Records a person's decision; false when no request with this id is waiting. */
	decide(id: string, allow: boolean): boolean {
		if (!this.deferred.pending().some((request) => request.id === id)) return false
		this.decided.set(id, allow)
		return this.deferred.decide(id, allow)
	}

	/** Requests waiting now, oldest first. */
	pending(): ApprovalRequest[] {
		return this.deferred.pending()
	}

	/**
	 * A channel for one ask in `mode`. `onEvent` receives the decision of each browser request as a
	 * `status` event carrying `permission_id` and `outcome`.
	 */
	channel(mode: ApprovalMode, onEvent?: (event: AgentEvent) => void): ApprovalChannel {
		const deniedUnasked: ApprovalRequest[] = []
		if (mode === 'none') {
			return {
				mode,
				deniedUnasked,
				approver: async (request) => {
					deniedUnasked.push(request)
					return false
				}
			}
		}
		return {
			mode,
			deniedUnasked,
			approver: async (request, context) => {
				const allowed = await this.deferred.approver(request, context)
				const choice = this.decided.get(request.id)
				this.decided.delete(request.id)
				const outcome: ApprovalOutcome =
					choice !== undefined
						? choice
							? 'approved'
							: 'denied'
						: context?.signal?.aborted
							? 'cancelled'
							: 'timed_out'
				const said: Record<ApprovalOutcome, string> = {
					approved: 'Approved',
					denied: 'Denied',
					timed_out: `Denied: no decision within ${this.timeoutSeconds} s`,
					cancelled: 'Cancelled'
				}
				onEvent?.({
					type: 'status',
					message: `${said[outcome]}: ${request.title}`,
					permission_id: request.id,
					outcome
				})
				return allowed
			}
		}
	}
}

/**
 * The error text of an answer whose actions were denied because the request could not ask anyone.
 * `hint` says where approvals can be given (the chat page, `--permission full_access`).
 */
export function unaskedDenialMessage(denied: readonly ApprovalRequest[], hint: string): string {
	const titles = [...new Set(denied.map((request) => request.title))].slice(0, 3).join('; ')
	const count =
		denied.length === 1
			? '1 action needed approval and was'
			: `${denied.length} actions needed approval and were`
	return `${count} denied (${titles}): this request cannot ask for approval. ${hint}`
}
