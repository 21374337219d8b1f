/**
 * The host's handle on one sandbox worker thread: sends it messages, routes its messages to the
 * task (run or warm-up) using it, raises the shared stop code, and turns every way a worker can end
 * (uncaught error, failing to load its script, being terminated) into one `onExit` for that task.
 * A worker is ref'd only while it has a task, so idle workers never keep the process alive.
 */
import { messageOf } from './bridge'
import {
	type CallMessage,
	type DoneMessage,
	type HostMessage,
	STOP_CODES,
	type StopReason,
	type WarmedMessage,
	type WorkerMessage
} from './protocol'

/** A Bun worker thread: the Web Worker API plus `ref`/`unref`, which the DOM's type lacks. */
export type WorkerThread = Worker & Pick<Bun.Worker, 'ref' | 'unref'>

/** What a task hears from its worker. */
export interface TaskHandlers {
	onMessage(message: CallMessage | DoneMessage | WarmedMessage): void
	/** The worker ended; `reason` is a short text for the error shown to the model. */
	onExit(reason: string): void
}

/** Pool-level events of one worker. */
export interface WorkerEvents {
	onCompiled(module: WebAssembly.Module): void
	onExit(worker: SandboxWorker): void
}

const MAX_REASON_CHARS = 300

/**
 * The `Name: message` line of a worker error event, shortened. Bun's message also holds a source
 * excerpt and a stack, which are noise for the model.
 */
function describeErrorEvent(event: Event): string {
	const message = (event as ErrorEvent).message
	const lines = (typeof message === 'string' ? message : '').split('\n').filter((line) => line.trim() !== '')
	const text = (
		lines.find((line) => /^\s*[A-Za-z_$][\w$]*: /.test(line)) ??
		lines[0] ??
		'unknown error'
	).trim()
	return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text
}

/** One worker thread and its control array; used by one task at a time. */
export class SandboxWorker {
	/** Slot 0: the stop code of the current task (see protocol.ts). */
	private readonly control = new Int32Array(new SharedArrayBuffer(4))
	private task: TaskHandlers | undefined
	private taskId = 0
	private loaded = false
	private exited = false

	constructor(
		private readonly worker: WorkerThread,
		compiledModule: WebAssembly.Module | undefined,
		private readonly events: WorkerEvents
	) {
		worker.addEventListener('message', (event) => this.receive(event.data as WorkerMessage))
		worker.addEventListener('error', (event) => {
			// An error event means the worker's script failed; it cannot be trusted even if it lives on.
			event.preventDefault()
			this.exit(
				this.loaded
					? `its worker failed (${describeErrorEvent(event)})`
					: `its worker could not load (${describeErrorEvent(event)})`
			)
			this.worker.terminate()
		})
		worker.addEventListener('messageerror', () => {
			this.exit('a message from its worker could not be read')
			this.worker.terminate()
		})
		worker.addEventListener('close', () => this.exit('its worker stopped unexpectedly'))
		this.post({ type: 'init', control: this.control.buffer as SharedArrayBuffer, compiledModule })
	}

	/** False once the worker ended or was terminated. */
	get alive(): boolean {
		return !this.exited
	}

	/** Starts a task: clears the stop code and keeps the process alive until `end()`. Returns its id. */
	begin(handlers: TaskHandlers): number {
		this.taskId++
		if (this.exited) {
			// It ended between being handed out and this call: the task hears so at once.
			queueMicrotask(() => handlers.onExit('its worker stopped unexpectedly'))
			return this.taskId
		}
		this.task = handlers
		Atomics.store(this.control, 0, STOP_CODES.none)
		this.worker.ref()
		return this.taskId
	}

	/** Ends the current task; messages still in flight for it are ignored. */
	end(): void {
		this.task = undefined
		if (!this.exited) this.worker.unref()
	}

	/** Sends a message; a worker that is gone reports through `onExit` instead. */
	post(message: HostMessage): void {
		if (this.exited) return
		try {
			this.worker.postMessage(message)
		} catch (error) {
			this.exit(`a message could not be sent to its worker (${messageOf(error)})`)
			this.worker.terminate()
		}
	}

	/** Asks the current task's guest to stop: the interrupt handler sees the code, the message wakes a waiting run. */
	requestStop(reason: StopReason): void {
		Atomics.store(this.control, 0, STOP_CODES[reason])
		this.post({ type: 'stop', runId: this.taskId })
	}

	/** Ends the thread now, whatever it is doing; a task still using it hears `onExit`. */
	terminate(): void {
		this.exit('its worker was terminated')
		this.worker.terminate()
	}

	private receive(message: WorkerMessage): void {
		switch (message.type) {
			case 'ready':
				this.loaded = true
				return
			case 'compiled':
				this.events.onCompiled(message.module)
				return
			default:
				if (message.runId === this.taskId) this.task?.onMessage(message)
		}
	}

	private exit(reason: string): void {
		if (this.exited) return
		this.exited = true
		const task = this.task
		this.task = undefined
		task?.onExit(reason)
		this.events.onExit(this)
	}
}
