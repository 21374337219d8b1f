/**
 * One sandbox run on one engine: a fresh QuickJS runtime and context, the guest API, and the loop
 * that drives the guest's promises until the body settles, the deadline passes or the signal aborts.
 *
 * Host calls are async on the host and promises in the guest (`context.newPromise`). When one
 * finishes, its reply is queued; the loop resolves the guest promise and runs the guest's pending
 * jobs. All guest work happens in this loop, so a host exception from inside the engine (the native
 * stack overflowing, a WebAssembly trap) is caught in one place and poisons the engine.
 */
import {
	errors,
	type QuickJSContext,
	type QuickJSDeferredPromise,
	type QuickJSHandle,
	type QuickJSRuntime
} from 'quickjs-emscripten-core'
import { CallQueue, encodeError, encodeReply, messageOf } from './bridge'
import type { Engine } from './engine'
import { CODE_FILE_NAME, GUEST_BOOTSTRAP, wrapUserCode } from './guest'
import { type OutputBuffer, type RunOutcome, type RunSettings, safeMessage, withHint } from './outcome'
import type { SandboxOptions } from './types'
import { sandboxDefaults } from './types'

/** Jobs run per batch before checking the clock and, if more are queued, letting the host breathe. */
const JOB_BATCH = 2000

/** One run: create with the engine and limits, `run(code)` once, then always `dispose()`. */
export class SandboxSession {
	private runtime?: QuickJSRuntime
	private context?: QuickJSContext
	private readonly handles: QuickJSHandle[] = []
	private readonly deferreds = new Set<QuickJSDeferredPromise>()
	private readonly replies: Array<() => void> = []
	private readonly calls: CallQueue
	private readonly allowed: Set<string>
	private readonly deadline: number
	private stopReason: 'timeout' | 'aborted' | undefined
	private finished = false
	private callCount = 0
	private wakeUp: (() => void) | undefined
	private deadlineTimer: ReturnType<typeof setTimeout> | undefined
	private readonly onAbort = () => this.stop('aborted')

	constructor(
		private readonly engine: Engine,
		private readonly settings: RunSettings,
		private readonly options: SandboxOptions,
		private readonly output: OutputBuffer
	) {
		this.calls = new CallQueue(settings.maxConcurrentCalls)
		this.allowed = new Set(options.methods)
		this.deadline = Date.now() + settings.timeoutMs
	}

	/** Runs the code to completion, timeout or abort. Never throws. */
	async run(code: string): Promise<RunOutcome> {
		this.deadlineTimer = setTimeout(() => this.stop('timeout'), this.settings.timeoutMs)
		this.options.signal?.addEventListener('abort', this.onAbort)
		// The signal may have fired while the engine was being acquired; its event will not repeat.
		if (this.options.signal?.aborted) this.stop('aborted')
		if (this.stopReason) return this.stoppedOutcome()
		try {
			return await this.drive(code)
		} catch (error) {
			// A guest exception surfacing through `unwrapResult` leaves the engine sound; anything else
			// came from inside the engine (native stack overflow, WebAssembly trap): never reuse it.
			if (!(error instanceof errors.QuickJSUnwrapError)) this.engine.poisoned = true
			if (this.stopReason) return this.stoppedOutcome()
			if (error instanceof RangeError) {
				return { ok: false, error: 'Stack overflow: the code nests or recurses too deeply for the sandbox' }
			}
			return { ok: false, error: withHint(`The sandbox engine failed: ${messageOf(error)}`, this.settings) }
		}
	}

	private async drive(code: string): Promise<RunOutcome> {
		const context = this.createContext()
		const api = this.track(context.unwrapResult(context.evalCode(GUEST_BOOTSTRAP, 'sandbox.js')))
		const guest = this.track(
			context.unwrapResult(
				context.callFunction(
					api,
					context.undefined,
					this.track(context.newFunction('print', (line) => this.print(line))),
					this.track(context.newFunction('bridge', (path, args) => this.bridge(path, args))),
					this.options.saveFile
						? this.track(context.newFunction('save', (name, content) => this.save(name, content)))
						: context.undefined,
					this.track(
						context.newString(
							JSON.stringify({ methods: this.options.methods, maxOutputChars: this.settings.maxOutputChars })
						)
					)
				)
			)
		)
		const runBody = this.track(context.getProp(guest, 'run'))
		const describe = this.track(context.getProp(guest, 'describe'))

		const compiled = context.evalCode(wrapUserCode(code), CODE_FILE_NAME)
		if (compiled.error) {
			const error = this.track(compiled.error)
			if (this.stopReason) return this.stoppedOutcome()
			return { ok: false, error: this.describeThrown(describe, error) }
		}
		const body = this.track(compiled.value)
		const started = context.callFunction(runBody, context.undefined, body)
		if (started.error) {
			// `run` catches everything catchable: this is the deadline, the signal or lack of memory.
			const error = this.track(started.error)
			return this.stopReason
				? this.stoppedOutcome()
				: { ok: false, error: this.describeThrown(describe, error) }
		}
		const promise = this.track(started.value)

		for (;;) {
			if (this.stopReason) return this.stoppedOutcome()
			this.applyReplies()
			await this.runJobs()
			if (this.stopReason) return this.stoppedOutcome()
			const state = context.getPromiseState(promise)
			if (state.type === 'fulfilled') return this.decode(context.getString(this.track(state.value)))
			if (state.type === 'rejected')
				return { ok: false, error: this.describeThrown(describe, this.track(state.error)) }
			if (this.replies.length > 0) continue
			if (!this.calls.busy && !this.runtime!.hasPendingJob()) {
				return {
					ok: false,
					error:
						'The code is waiting for a promise that can never settle (no ig call is pending and the sandbox has no timers), so the run was stopped'
				}
			}
			await new Promise<void>((resolve) => {
				this.wakeUp = resolve
			})
		}
	}

	private createContext(): QuickJSContext {
		const runtime = this.engine.module.newRuntime()
		this.runtime = runtime
		runtime.setMemoryLimit(this.settings.memoryLimitBytes)
		runtime.setMaxStackSize(sandboxDefaults.maxStackBytes)
		runtime.setInterruptHandler(() => this.shouldInterrupt())
		this.context = runtime.newContext()
		return this.context
	}

	private shouldInterrupt(): boolean {
		if (!this.stopReason && Date.now() >= this.deadline) this.stopReason = 'timeout'
		if (!this.stopReason && this.options.signal?.aborted) this.stopReason = 'aborted'
		return this.stopReason !== undefined
	}

	private stop(reason: 'timeout' | 'aborted'): void {
		this.stopReason ??= reason
		this.wake()
	}

	private wake(): void {
		const wakeUp = this.wakeUp
		this.wakeUp = undefined
		wakeUp?.()
	}

	private stoppedOutcome(): RunOutcome {
		if (this.stopReason === 'aborted') return { ok: false, error: 'The run was aborted' }
		const seconds = Number((this.settings.timeoutMs / 1000).toFixed(2))
		const waiting = [...new Set(this.calls.running.values())]
		const detail =
			waiting.length > 0 ? ` while waiting for ${waiting.join(', ')}` : ' (the code was still running)'
		return { ok: false, error: `Timed out after ${seconds} s${detail}` }
	}

	/** Runs queued guest jobs in batches; between batches the clock is checked and the host gets a turn. */
	private async runJobs(): Promise<void> {
		const runtime = this.runtime!
		while (!this.stopReason && runtime.hasPendingJob()) {
			const result = runtime.executePendingJobs(JOB_BATCH)
			// An error here is an uncatchable one (interrupt, out of memory inside a job); the body's
			// promise or the stop reason reports it.
			if (result.error) result.error.dispose()
			if (runtime.hasPendingJob() && !this.stopReason) await new Promise((resolve) => setImmediate(resolve))
		}
	}

	private applyReplies(): void {
		for (let reply = this.replies.shift(); reply; reply = this.replies.shift()) reply()
	}

	private decode(reply: string): RunOutcome {
		if (reply.startsWith('e')) return { ok: false, error: withHint(reply.slice(1), this.settings) }
		if (reply.startsWith('v')) {
			try {
				return { ok: true, returnValue: JSON.parse(reply.slice(1)) }
			} catch {
				// Valid JSON the host still cannot read, e.g. nested deeper than its parser allows.
				return { ok: true, returnValue: '[return value the host could not read]' }
			}
		}
		return { ok: true }
	}

	private describeThrown(describe: QuickJSHandle, error: QuickJSHandle): string {
		const context = this.context!
		const described = context.callFunction(describe, context.undefined, error)
		if (!described.error) {
			const text = context.typeof(described.value) === 'string' ? context.getString(described.value) : ''
			described.value.dispose()
			if (text) return withHint(text, this.settings)
		} else {
			described.error.dispose()
		}
		// Describing failed too (usually no memory left): report what the host can see.
		const message = context.typeof(error) === 'object' ? safeMessage(context, error) : ''
		return withHint(message || 'The code failed (out of memory while reporting the error)', this.settings)
	}

	private print(line: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		const text = context.typeof(line) === 'string' ? context.getString(line) : ''
		return this.output.append(text) ? context.true : context.false
	}

	private bridge(pathHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		const path = context.typeof(pathHandle) === 'string' ? context.getString(pathHandle) : ''
		const label = `ig.${path}`
		// Refusals throw here: the guest's async wrapper turns them into a rejection, cheaply.
		if (!this.allowed.has(path)) throw new TypeError(`${label} is not available`)
		let args: unknown
		try {
			args = JSON.parse(context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : '')
		} catch {
			args = undefined
		}
		if (!Array.isArray(args)) throw new TypeError(`${label}: arguments must be JSON`)
		return this.hostCall(label, async () =>
			encodeReply(await this.options.callMethod(path, args), label, sandboxDefaults.maxResultChars)
		)
	}

	private save(nameHandle: QuickJSHandle, contentHandle: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		const saveFile = this.options.saveFile!
		if (context.typeof(nameHandle) !== 'string' || context.typeof(contentHandle) !== 'string') {
			throw new TypeError('saveFile(name, content) needs two strings')
		}
		const name = context.getString(nameHandle)
		const content = context.getString(contentHandle)
		return this.hostCall('saveFile', async () =>
			encodeReply(await saveFile(name, content), 'saveFile', sandboxDefaults.maxResultChars)
		)
	}

	/** Counts the call, queues it, and hands the guest a promise for its reply. */
	private hostCall(label: string, task: () => Promise<string>): QuickJSHandle {
		this.callCount++
		if (this.callCount > this.settings.maxCalls) {
			throw new RangeError(
				`Too many calls: a run may make at most ${this.settings.maxCalls} ig/saveFile calls (${label} was call ${this.callCount}); fetch fewer items or use { count } paging`
			)
		}
		const deferred = this.context!.newPromise()
		this.deferreds.add(deferred)
		const guarded = async () => {
			try {
				return await task()
			} catch (error) {
				return encodeError(error)
			}
		}
		this.calls.add(label, guarded, (reply) => {
			if (this.finished) return
			this.replies.push(() => this.resolve(deferred, reply))
			this.wake()
		})
		// The library disposes the returned handle; the deferred keeps its resolvers.
		return deferred.handle
	}

	private resolve(deferred: QuickJSDeferredPromise, reply: string): void {
		const text = this.context!.newString(reply)
		try {
			deferred.resolve(text)
			this.deferreds.delete(deferred)
		} finally {
			text.dispose()
		}
	}

	private track<T extends QuickJSHandle>(handle: T): T {
		this.handles.push(handle)
		return handle
	}

	/** Frees every handle, the context and the runtime; an engine that fails to free is poisoned. */
	dispose(): void {
		this.finished = true
		this.calls.close()
		clearTimeout(this.deadlineTimer)
		this.options.signal?.removeEventListener('abort', this.onAbort)
		this.wake()
		if (this.engine.poisoned) return
		try {
			for (const deferred of this.deferreds) deferred.dispose()
			for (const handle of this.handles) if (handle.alive) handle.dispose()
			this.context?.dispose()
			this.runtime?.dispose()
		} catch {
			// A leaked handle makes QuickJS abort the instance when the runtime is freed.
			this.engine.poisoned = true
		}
	}
}
