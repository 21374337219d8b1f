/**
 * Permission gate for the agent's actions (docs/architecture.md, "The agent"): running generated code,
 * each write
 * call on the account, and writing a file. Reads inside approved code are not actions. Nothing is
 * auto-approved: without an approver every action that needs asking is denied.
 */

import { type AgentEventListener, emitSafely } from './events'
import { AGENT_DEFAULTS } from './settings'

/** How often the person is asked. */
export type PermissionLevel = 'ask_every' | 'ask_once' | 'full_access'

/** The accepted `--permission` values, in documentation order. */
export const permissionLevels: readonly PermissionLevel[] = ['ask_every', 'ask_once', 'full_access']

/** Parses a `--permission` value; undefined when it is not one of the three levels. */
export function parsePermissionLevel(value: unknown): PermissionLevel | undefined {
	return permissionLevels.find((level) => level === value)
}

/** The actions that need permission. */
export type ActionKind = 'code_run' | 'write_call' | 'file_write'

/** One decision the person is asked to make. */
export interface ApprovalRequest {
	/** Unique per request; a web approval posts it back (`POST .../approve { id, allow }`). */
	id: string
	kind: ActionKind
	/** Short line, e.g. `Run generated code` or `Write call: media.like`. */
	title: string
	/** What is about to happen: the code, the write call with its arguments, or file name and size. */
	detail: string
	/** For write calls: the registry path, e.g. `media.like`. */
	method?: string
	/** For write calls: the arguments. */
	args?: unknown[]
	/**
	 * For a write or file inside a code run: when the run ends (epoch ms), which cancels the request
	 * if it still waits. The servers count the card down to it.
	 */
	expiresAt?: number
}

/** Longest approval title, in characters; a longer one is cut and ends with `…`. */
export const approvalTitleLimit = 120

/**
 * A title as every approval shows it (terminal, browser card, MCP question, denial notice): one
 * line, each run of whitespace (newlines included) one space, at most `approvalTitleLimit`
 * characters. The model writes a run's title, and a title must not draw lines of its own.
 */
export function approvalTitle(title: string): string {
	const line = title.replace(/\s+/g, ' ').trim()
	const characters = Array.from(line)
	if (characters.length <= approvalTitleLimit) return line
	return `${characters
		.slice(0, approvalTitleLimit - 1)
		.join('')
		.trimEnd()}…`
}

/** What an approver is told besides the request. */
export interface ApprovalContext {
	/** Ends the wait (the ask was cancelled, or the run that asked has ended): the request is denied. */
	signal?: AbortSignal
	/**
	 * The ask's own signal when `signal` is derived from it (a file write also ends with its run): it
	 * names the ask, e.g. for a server to find the browser that watches it.
	 */
	askSignal?: AbortSignal
}

/** Decides one request: true allows, false denies. May be slow (it waits for a person). */
export type Approver = (request: ApprovalRequest, context?: ApprovalContext) => Promise<boolean>

/** An approver that denies everything (the default: nothing is auto-approved). */
export const denyAllApprover: Approver = async () => false

/**
 * What the person denied, in their words, for "You denied: <label>": `run code`, `media.like on the
 * account`, `save file report.csv`. The model gets `permissionDeniedMessage` instead.
 */
export function deniedLabel(
	request: Pick<ApprovalRequest, 'kind' | 'method'> & { fileName?: string }
): string {
	if (request.kind === 'code_run') return 'run code'
	if (request.kind === 'write_call') return `${request.method ?? 'a write'} on the account`
	return request.fileName ? `save file ${request.fileName}` : 'save a file'
}

/** The line a person sees after denying: `You denied: run code`. */
export function deniedNotice(labels: readonly string[]): string {
	return `You denied: ${[...new Set(labels)].join('; ')}`
}

/** The text returned to the model when an action is denied (an instruction, not for the person). */
export function permissionDeniedMessage(request: Pick<ApprovalRequest, 'kind' | 'method'>): string {
	const what =
		request.kind === 'code_run'
			? 'running this code'
			: request.kind === 'write_call'
				? `the write call ${request.method ?? ''}`.trimEnd()
				: 'writing this file'
	return `Permission denied: the user did not allow ${what}. Do not retry it; answer with what you have or explain what permission is needed.`
}

/**
 * Write methods that carry text out of the account (a message, a comment): the way data would be
 * exfiltrated, so `ask_once` asks before each call of them.
 */
export const alwaysAskedMethods: ReadonlySet<string> = new Set(['direct.sendText', 'media.comment'])

/**
 * What an `ask_once` approval covers: running code and writing files per kind, a write call per
 * method (approving a like does not approve a follow); undefined for actions asked every time.
 */
export function approvalScope(action: Pick<ApprovalRequest, 'kind' | 'method'>): string | undefined {
	if (action.kind !== 'write_call') return action.kind
	const method = action.method ?? ''
	return alwaysAskedMethods.has(method) ? undefined : `write_call:${method}`
}

/** Options of `PermissionGate`. */
export interface PermissionGateOptions {
	level: PermissionLevel
	approver?: Approver
	/**
	 * Whether approvals remembered under `ask_once` may stand in for asking, for a request with this
	 * signal (default: always). A server answers false for a plain JSON ask, which no person
	 * watches, so approvals given in the browser never carry over to it for writes.
	 */
	remembersFor?: (context: ApprovalContext) => boolean
}

/**
 * Asks the approver according to the level. `ask_once` remembers an approval per scope (see
 * `approvalScope`) until `reset()`; a denial applies to that one action. `full_access` never asks.
 */
export class PermissionGate {
	readonly level: PermissionLevel
	private readonly approver: Approver
	private readonly remembered = new Set<string>()
	private readonly remembersFor: (context: ApprovalContext) => boolean

	constructor(options: PermissionGateOptions) {
		this.level = options.level
		this.approver = options.approver ?? denyAllApprover
		this.remembersFor = options.remembersFor ?? (() => true)
	}

	/**
	 * Resolves true when the action may go ahead. Emits a `permission` event (through `onEvent`)
	 * before asking, so a browser can show its card. An approver that throws counts as a denial.
	 */
	async check(
		action: Omit<ApprovalRequest, 'id'>,
		context: ApprovalContext & { onEvent?: AgentEventListener } = {}
	): Promise<boolean> {
		if (this.level === 'full_access') return true
		const scope = this.level === 'ask_once' ? approvalScope(action) : undefined
		if (scope !== undefined && this.remembered.has(scope) && this.mayRemember(action, context)) return true
		if (context.signal?.aborted) return false
		const request: ApprovalRequest = {
			id: crypto.randomUUID(),
			...action,
			title: approvalTitle(action.title)
		}
		emitSafely(context.onEvent, { type: 'permission', ...request })
		let allowed = false
		try {
			allowed =
				(await this.approver(request, { signal: context.signal, askSignal: context.askSignal })) === true
		} catch {
			allowed = false
		}
		if (context.signal?.aborted) return false
		if (allowed && scope !== undefined) this.remembered.add(scope)
		return allowed
	}

	/** Writes (account writes and files) use remembered approvals only where the caller allows it. */
	private mayRemember(action: Pick<ApprovalRequest, 'kind'>, context: ApprovalContext): boolean {
		return action.kind === 'code_run' || this.remembersFor(context)
	}

	/** Forgets remembered approvals (a new conversation). */
	reset(): void {
		this.remembered.clear()
	}
}

/** An approver whose decisions arrive later, e.g. from `POST /api/approve { id, allow }`. */
export interface DeferredApprover {
	/** Pass this to the agent. It waits for `decide`, the timeout (deny) or the signal (deny). */
	approver: Approver
	/** Records a decision; false when no request with this id is waiting (unknown or already decided). */
	decide(id: string, allow: boolean): boolean
	/** The requests waiting for a decision, oldest first. */
	pending(): ApprovalRequest[]
	/** Denies everything waiting (e.g. the person closed the page). */
	denyAll(): void
}

/**
 * Builds a deferred approver for browser approvals. With no decision within `timeoutMs`
 * (default 120000) the action is denied. `onRequest` is called when a request
 * starts waiting (the agent also emits a `permission` event for it).
 */
export function createDeferredApprover(
	options: { timeoutMs?: number; onRequest?: (request: ApprovalRequest) => void } = {}
): DeferredApprover {
	const timeoutMs = options.timeoutMs ?? AGENT_DEFAULTS.approvalTimeoutMs
	const waiting = new Map<string, { request: ApprovalRequest; settle: (allow: boolean) => void }>()

	const approver: Approver = (request, context) =>
		new Promise<boolean>((resolve) => {
			const signal = context?.signal
			const settle = (allow: boolean) => {
				if (!waiting.delete(request.id)) return
				clearTimeout(timer)
				signal?.removeEventListener('abort', onAbort)
				resolve(allow)
			}
			const onAbort = () => settle(false)
			const timer = setTimeout(() => settle(false), timeoutMs)
			waiting.set(request.id, { request, settle })
			if (signal?.aborted) return settle(false)
			signal?.addEventListener('abort', onAbort, { once: true })
			try {
				options.onRequest?.(request)
			} catch {
				// A failing notifier leaves the request waiting for its timeout.
			}
		})

	return {
		approver,
		decide(id, allow) {
			const entry = waiting.get(id)
			if (!entry) return false
			entry.settle(allow === true)
			return true
		},
		pending: () => [...waiting.values()].map((entry) => entry.request),
		denyAll() {
			for (const entry of [...waiting.values()]) entry.settle(false)
		}
	}
}
