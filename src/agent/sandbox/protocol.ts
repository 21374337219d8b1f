/**
 * Messages between the host (main thread) and a sandbox worker. Everything is plain data; guest
 * values cross only as JSON text, and bridge replies use the encoding of guest.ts (`u`, `v<json>`,
 * `e<json>`). A run is one `run` message answered by one `done`; in between the worker sends
 * `call`s and the host answers each with a `reply`. Messages carry the run's id so that a late
 * reply to a finished run is ignored.
 */
import type { RunSettings } from './outcome'

/** Why the host asked a run to stop. */
export type StopReason = 'timeout' | 'aborted'

/**
 * Slot 0 of the worker's shared control array: the host writes a stop code there, and the guest's
 * interrupt handler reads it, so a stop reaches a guest that never yields to the worker's event loop.
 */
export const STOP_CODES = { none: 0, timeout: 1, aborted: 2 } as const

/** The stop reason a control code stands for, if any. */
export function stopReasonOf(code: number): StopReason | undefined {
	if (code === STOP_CODES.timeout) return 'timeout'
	if (code === STOP_CODES.aborted) return 'aborted'
	return undefined
}

/** Sent once, first: the control array and, when known, the compiled QuickJS module to reuse. */
export interface InitMessage {
	type: 'init'
	control: SharedArrayBuffer
	compiledModule?: WebAssembly.Module
}

/** Starts a run. `deadline` is absolute (`Date.now()` clock, shared by all threads). */
export interface RunMessage {
	type: 'run'
	runId: number
	code: string
	methods: readonly string[]
	canSave: boolean
	settings: RunSettings
	deadline: number
}

/** The host's answer to one `call`. */
export interface ReplyMessage {
	type: 'reply'
	runId: number
	callId: number
	reply: string
}

/** Wakes a run waiting on replies after the host set a stop code. */
export interface StopMessage {
	type: 'stop'
	runId: number
}

/** Loads an engine for this memory limit ahead of the first run. */
export interface WarmMessage {
	type: 'warm'
	runId: number
	memoryLimitBytes: number
}

/** What the host sends. */
export type HostMessage = InitMessage | RunMessage | ReplyMessage | StopMessage | WarmMessage

/** A guest call for the host: `ig.<path>(...args)` or `saveFile(name, content)`. */
export type CallRequest =
	| { kind: 'ig'; path: string; argsJson: string }
	| { kind: 'save'; name: string; content: string }

/** The worker asks the host to run a call. */
export type CallMessage = { type: 'call'; runId: number; callId: number } & CallRequest

/** How the body ended, as the worker sees it; the host words stops and decodes the JSON. */
export interface WorkerOutcome {
	ok: boolean
	/** The return value as JSON text (absent: undefined). */
	returnJson?: string
	error?: string
	/** Set when the run ended because of the deadline or the host's stop request. */
	stopped?: StopReason
	/** With `stopped`: the body had returned; the run was waiting for calls it did not await. */
	afterBody?: boolean
}

/** A run ended; output is what the guest printed (capped in the worker). */
export interface DoneMessage {
	type: 'done'
	runId: number
	outcome: WorkerOutcome
	output: string
	outputTruncated: boolean
}

/** Answer to `warm`. */
export interface WarmedMessage {
	type: 'warmed'
	runId: number
	error?: string
}

/** The worker loaded its script and listens. */
export interface ReadyMessage {
	type: 'ready'
}

/** The worker compiled QuickJS; the host hands the module to the next workers it starts. */
export interface CompiledMessage {
	type: 'compiled'
	module: WebAssembly.Module
}

/** What the worker sends. */
export type WorkerMessage = ReadyMessage | CompiledMessage | CallMessage | DoneMessage | WarmedMessage
