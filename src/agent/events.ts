/**
 * What the agent reports while it works. Event `type`s are the server-sent event names of
 * docs/api-contract.md, "Chat" (`status`, `step`, `code`, `tool_call`, `tool_result`, `permission`, `error`,
 * `done`), so a server can forward each one as `data: <json>` unchanged. Every payload is plain JSON
 * and never carries a secret.
 */
import type { ApprovalRequest } from './permissions'

/** A file written by `saveFile` during an ask (path relative to the working directory). */
export interface SavedFile {
	name: string
	file: string
	size: number
}

/** The AI ask response (docs/api-contract.md, "Chat"), exactly these fields. */
export interface AskResponse {
	success: boolean
	/** The agent's answer; on failure the best partial answer (may be empty). */
	answer: string
	/** The last code run in this ask ('' when none ran). */
	code: string
	/** Files actually written by `saveFile` during this ask. */
	files: SavedFile[]
	/** Model calls made in this ask. */
	steps: number
	/** Tokens used by this ask only (provider-reported usage). */
	tokens: number
	/** Wall-clock seconds, two decimals. */
	duration: number
	/** null on success; otherwise what went wrong (names the provider for provider failures). */
	error: string | null
}

/** The response of an ask that failed before (or without) running: `error` says why. */
export function failedAsk(error: string): AskResponse {
	return { success: false, answer: '', code: '', files: [], steps: 0, tokens: 0, duration: 0, error }
}

/** What became of a permission request a browser was asked about. */
export type ApprovalOutcome = 'approved' | 'denied' | 'timed_out' | 'cancelled'

/** Progress in words: the ask started, is waiting, or a permission request was decided. */
export interface StatusEvent {
	type: 'status'
	message: string
	/** Set when this ask chose the model for `--model auto` (the server's first chat model). */
	model?: string
	/** Set when a browser's permission request was decided: its id and what became of it. */
	permission_id?: string
	outcome?: ApprovalOutcome
}

/** A model call (step) is starting. */
export interface StepEvent {
	type: 'step'
	step: number
	maxSteps: number
	message: string
}

/** Code is about to run in the sandbox (after permission). */
export interface CodeEvent {
	type: 'code'
	step: number
	/** Id of the tool call that carries the code (or `block-N` for a fenced block). */
	id: string
	code: string
	description?: string
}

/**
 * A call is being made: `source: 'model'` for a tool the model called (`run_code`), `'code'` for an
 * `ig.*` method called by running code (name like `users.getByUsername`).
 */
export interface ToolCallEvent {
	type: 'tool_call'
	step: number
	id: string
	source: 'model' | 'code'
	name: string
	arguments: unknown
}

/** The matching result: `output` is capped at 2000 characters. */
export interface ToolResultEvent {
	type: 'tool_result'
	step: number
	id: string
	source: 'model' | 'code'
	name: string
	success: boolean
	output: string
	/**
	 * Actions the person denied during this call, in their words (`run code`, `media.like on the
	 * account`); shown as "You denied: ..." instead of `output`, which is the model's instruction.
	 */
	denied?: string[]
}

/** The agent needs a decision on an action (see permissions.ts); a server shows an approve/deny card. */
export interface PermissionEvent extends ApprovalRequest {
	type: 'permission'
	/** On the servers: seconds until the request is denied without a decision (the card counts down). */
	timeout_seconds?: number
}

/** The ask failed (provider failure, step cap, cancellation); `done` still follows. */
export interface ErrorEvent {
	type: 'error'
	message: string
}

/** The ask finished: the ask response's fields, flattened (docs/api-contract.md, "Chat"). */
export interface DoneEvent extends AskResponse {
	type: 'done'
}

/** Any agent event. */
export type AgentEvent =
	| StatusEvent
	| StepEvent
	| CodeEvent
	| ToolCallEvent
	| ToolResultEvent
	| PermissionEvent
	| ErrorEvent
	| DoneEvent

/** Receives events; it must not throw (errors in listeners are swallowed by the agent). */
export type AgentEventListener = (event: AgentEvent) => void

/** Event payloads are capped so a stream stays small. */
export const eventOutputLimit = 2000

/** Cuts text to `limit` characters with a marker saying how much was dropped. */
export function truncateText(text: string, limit: number): string {
	if (text.length <= limit) return text
	return `${text.slice(0, limit)}\n... [truncated ${text.length - limit} characters]`
}

/** Calls a listener without letting it break the agent. */
export function emitSafely(listener: AgentEventListener | undefined, event: AgentEvent): void {
	if (!listener) return
	try {
		listener(event)
	} catch {
		// A failing display must not fail the ask.
	}
}

/** One server-sent event for an agent event: a single `data: <json>` line pair. */
export function toServerSentEvent(event: AgentEvent): string {
	return `data: ${JSON.stringify(event)}\n\n`
}
