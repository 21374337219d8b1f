/**
 * The main thread's side of one run: takes a worker from the pool, answers the guest's calls (the
 * bridge: validation, call limits, `callMethod` / `saveFile`, JSON encoding), keeps the wall-clock
 * deadline and the abort signal, and words the outcome. A stop (deadline or abort) is raised in the
 * worker's shared memory; a worker that does not answer within the grace period, or that ends, is
 * dropped from the pool and the run fails with a clear error. Never throws.
 */
import { CallQueue, encodeError, encodeReply, messageOf, tooManyCallsMessage } from './bridge'
import type { RunOutcome, RunSettings } from './outcome'
import type { WorkerPool } from './pool'
import type { CallMessage, StopReason, WorkerOutcome } from './protocol'
import { type SandboxOptions, sandboxDefaults } from './types'
import type { SandboxWorker } from './worker-handle'

/** A run's outcome with the output the worker captured. */
export interface HostRunResult {
	outcome: RunOutcome
	output: string
	outputTruncated: boolean
}

/** One run on a pool: `new HostRun(...).run(code)` once. */
export class HostRun {
	private readonly calls: CallQueue
	private readonly allowed: Set<string>
	private callCount = 0
	private stopReason: StopReason | undefined
	private readonly stopController = new AbortController()
	private worker: SandboxWorker | undefined
	private runId = 0
	private finished = false
	private settle: (result: HostRunResult) => void = () => {}
	private deadlineTimer: ReturnType<typeof setTimeout> | undefined
	private graceTimer: ReturnType<typeof setTimeout> | undefined
	private readonly onAbort = () => this.stop('aborted')

	constructor(
		private readonly pool: WorkerPool,
		private readonly settings: RunSettings,
		private readonly options: SandboxOptions
	) {
		this.calls = new CallQueue(settings.maxConcurrentCalls)
		this.allowed = new Set(options.methods)
	}

	/** Runs `code` to its end, the deadline, an abort or the loss of its worker. */
	async run(code: string): Promise<HostRunResult> {
		const deadline = Date.now() + this.settings.timeoutMs
		this.deadlineTimer = setTimeout(() => this.stop('timeout'), this.settings.timeoutMs)
		this.options.signal?.addEventListener('abort', this.onAbort)
		if (this.options.signal?.aborted) this.stop('aborted')
		try {
			let worker: SandboxWorker
			try {
				worker = await this.pool.acquire(this.stopController.signal)
			} catch (error) {
				if (this.stopReason === 'timeout') {
					const seconds = Number((this.settings.timeoutMs / 1000).toFixed(2))
					return this.result({
						ok: false,
						error: `Timed out after ${seconds} s waiting for a free sandbox (every sandbox worker was busy with other runs)`
					})
				}
				if (this.stopReason) return this.result(this.stoppedOutcome(this.stopReason))
				return this.result({ ok: false, error: `The sandbox could not start: ${messageOf(error)}` })
			}
			this.worker = worker
			return await new Promise<HostRunResult>((resolve) => {
				this.settle = resolve
				this.runId = worker.begin({
					onMessage: (message) => {
						if (message.type === 'call') this.answer(message)
						else if (message.type === 'done') {
							this.finish(
								this.result(this.toOutcome(message.outcome), message.output, message.outputTruncated)
							)
							this.pool.release(worker)
						}
					},
					onExit: (reason) => {
						this.finish(this.result({ ok: false, error: `The sandbox failed: ${reason}` }))
						this.pool.discard(worker)
					}
				})
				worker.post({
					type: 'run',
					runId: this.runId,
					code,
					methods: [...this.options.methods],
					canSave: typeof this.options.saveFile === 'function',
					settings: this.settings,
					deadline
				})
				// A stop that came while the worker was being acquired has not reached it yet.
				if (this.stopReason) this.signalStop(this.stopReason)
			})
		} finally {
			clearTimeout(this.deadlineTimer)
			clearTimeout(this.graceTimer)
			this.options.signal?.removeEventListener('abort', this.onAbort)
			this.calls.close()
		}
	}

	private stop(reason: StopReason): void {
		if (this.stopReason || this.finished) return
		this.stopReason = reason
		this.stopController.abort()
		if (this.worker) this.signalStop(reason)
	}

	/** Tells the worker to stop and gives it the grace period to answer; then it is replaced. */
	private signalStop(reason: StopReason): void {
		const worker = this.worker
		if (!worker || this.finished || this.graceTimer) return
		worker.requestStop(reason)
		this.graceTimer = setTimeout(() => {
			if (this.finished) return
			const stopped = this.stoppedOutcome(reason).error
			this.finish(
				this.result({
					ok: false,
					error: `${stopped}; the sandbox did not stop in time, so it was restarted (output lost)`
				})
			)
			this.pool.discard(worker)
		}, this.pool.options.stopGraceMs)
	}

	private finish(result: HostRunResult): void {
		if (this.finished) return
		this.finished = true
		this.worker?.end()
		this.settle(result)
	}

	private result(outcome: RunOutcome, output = '', outputTruncated = false): HostRunResult {
		return { outcome, output, outputTruncated }
	}

	private toOutcome(outcome: WorkerOutcome): RunOutcome {
		if (outcome.stopped) return this.stoppedOutcome(outcome.stopped, outcome.afterBody)
		// A body that returned may still fail the run (a call it did not await failed): keep both.
		const error = outcome.ok ? {} : { error: outcome.error ?? 'The code failed' }
		if (outcome.returnJson === undefined) return { ok: outcome.ok, ...error }
		try {
			return { ok: outcome.ok, returnValue: JSON.parse(outcome.returnJson), ...error }
		} catch {
			// Valid JSON the host still cannot read, e.g. nested deeper than its parser allows.
			return { ok: outcome.ok, returnValue: '[return value the host could not read]', ...error }
		}
	}

	/** `afterBody`: the body had returned and the run waited for calls it did not await. */
	private stoppedOutcome(reason: StopReason, afterBody = false): RunOutcome & { error: string } {
		if (reason === 'aborted') return { ok: false, error: 'The run was aborted' }
		const seconds = Number((this.settings.timeoutMs / 1000).toFixed(2))
		const waiting = [...new Set(this.calls.running.values())]
		const unawaited = afterBody ? ', which the code started without await' : ''
		const detail =
			waiting.length > 0
				? ` while waiting for ${waiting.join(', ')}${unawaited}`
				: afterBody
					? ' (code started without await was still running after the body returned)'
					: ' (the code was still running)'
		return { ok: false, error: `Timed out after ${seconds} s${detail}` }
	}

	/** Checks one guest call again (the worker already did), queues it, and posts the reply. */
	private answer(message: CallMessage): void {
		const worker = this.worker!
		const reply = (text: string) => {
			if (!this.finished)
				worker.post({ type: 'reply', runId: this.runId, callId: message.callId, reply: text })
		}
		const label = message.kind === 'ig' ? `ig.${message.path}` : 'saveFile'
		const task = this.taskFor(message, label)
		if (task instanceof Error) {
			reply(encodeError(task))
			return
		}
		const guarded = async () => {
			try {
				return encodeReply(await task(), label, sandboxDefaults.maxResultChars)
			} catch (error) {
				return encodeError(error)
			}
		}
		this.calls.add(label, guarded, reply)
	}

	/** The host function a call runs, or why it is refused. */
	private taskFor(message: CallMessage, label: string): (() => Promise<unknown>) | Error {
		this.callCount++
		if (this.callCount > this.settings.maxCalls) {
			return new RangeError(tooManyCallsMessage(this.settings.maxCalls, label, this.callCount))
		}
		if (message.kind === 'save') {
			const saveFile = this.options.saveFile
			if (!saveFile) return new TypeError('saveFile is not available')
			return () => saveFile(message.name, message.content)
		}
		const path = message.path
		if (!this.allowed.has(path)) return new TypeError(`${label} is not available`)
		let args: unknown
		try {
			args = JSON.parse(message.argsJson)
		} catch {
			args = undefined
		}
		if (!Array.isArray(args)) return new TypeError(`${label}: arguments must be JSON`)
		return () => this.options.callMethod(path, args)
	}
}
