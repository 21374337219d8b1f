/**
 * One sandbox run on one engine, inside a sandbox worker: a fresh QuickJS runtime and context, the
 * guest API, and the loop that drives the guest's promises until the body settles, the deadline
 * passes or the host asks to stop.
 *
 * Host calls are messages to the main thread and promises in the guest (`context.newPromise`). When
 * a reply arrives it is queued; the loop resolves the guest promise and runs the guest's pending
 * jobs. All guest work happens in this loop, so an exception from inside the engine (the native
 * stack overflowing, a WebAssembly trap) is caught in one place and poisons the engine.
 */
import {
	errors,
	type QuickJSContext,
	type QuickJSDeferredPromise,
	type QuickJSHandle,
	type QuickJSRuntime
} from 'quickjs-emscripten-core'
import { encodeError, messageOf, tooManyCallsMessage } from './bridge'
import type { Engine } from './engine'
import { CODE_FILE_NAME, GUEST_BOOTSTRAP, wrapUserCode } from './guest'
import { type OutputBuffer, type RunSettings, safeMessage, withHint } from './outcome'
import type { CallRequest, StopReason, WorkerOutcome } from './protocol'
import { sandboxDefaults } from './types'

/** Jobs run per batch before checking the clock and, if more are queued, letting the host breathe. */
const JOB_BATCH = 2000

/** What a session needs from the host side of its worker. */
export interface SessionLink {
	/** Allowed `group.method` paths. */
	methods: readonly string[]
	/** The guest gets `saveFile`. */
	canSave: boolean
	/** Absolute deadline on the `Date.now()` clock. */
	deadline: number
	/** The host's stop request, read from shared memory (cheap enough for the interrupt handler). */
	stopRequested(): StopReason | undefined
	/** Sends a call to the host; resolves with its encoded reply. */
	call(request: CallRequest): Promise<string>
}

/** One run: create with the engine and limits, `run(code)` once, then always `dispose()`. */
export class SandboxSession {
	private runtime?: QuickJSRuntime
	private context?: QuickJSContext
	private readonly handles: QuickJSHandle[] = []
	private readonly deferreds = new Set<QuickJSDeferredPromise>()
	private readonly replies: Array<() => void> = []
	private readonly allowed: Set<string>
	private stopReason: StopReason | undefined
	private finished = false
	private callCount = 0
	/** Calls sent to the host and not answered yet: while any is, the guest may still be woken. */
	private pendingCalls = 0
	/** A saveFile call is waiting for the host. */
	private saving = false
	private wakeUp: (() => void) | undefined
	private deadlineTimer: ReturnType<typeof setTimeout> | undefined

	constructor(
		private readonly engine: Engine,
		private readonly settings: RunSettings,
		private readonly link: SessionLink,
		private readonly output: OutputBuffer
	) {
		this.allowed = new Set(link.methods)
	}

	/** Runs the code to completion, timeout or stop request. Never throws. */
	async run(code: string): Promise<WorkerOutcome> {
		this.deadlineTimer = setTimeout(() => this.stop('timeout'), Math.max(0, this.link.deadline - Date.now()))
		// The host may have asked to stop while the engine was being acquired.
		this.checkStop()
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

	/** Reads the host's stop request and the clock; wakes the loop when either says stop. */
	checkStop(): void {
		const requested = this.link.stopRequested()
		if (requested) this.stop(requested)
		else if (Date.now() >= this.link.deadline) this.stop('timeout')
	}

	private async drive(code: string): Promise<WorkerOutcome> {
		const context = this.createContext()
		const api = this.track(context.unwrapResult(context.evalCode(GUEST_BOOTSTRAP, 'sandbox.js')))
		const guest = this.track(
			context.unwrapResult(
				context.callFunction(
					api,
					context.undefined,
					this.track(context.newFunction('print', (line) => this.print(line))),
					this.track(context.newFunction('bridge', (path, args) => this.bridge(path, args))),
					this.link.canSave
						? this.track(context.newFunction('save', (name, content) => this.save(name, content)))
						: context.undefined,
					this.track(
						context.newString(
							JSON.stringify({ methods: this.link.methods, maxOutputChars: this.settings.maxOutputChars })
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
			if (this.pendingCalls === 0 && !this.runtime!.hasPendingJob()) {
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
		if (!this.stopReason) this.stopReason = this.link.stopRequested()
		if (!this.stopReason && Date.now() >= this.link.deadline) this.stopReason = 'timeout'
		return this.stopReason !== undefined
	}

	private stop(reason: StopReason): void {
		this.stopReason ??= reason
		this.wake()
	}

	private wake(): void {
		const wakeUp = this.wakeUp
		this.wakeUp = undefined
		wakeUp?.()
	}

	/** The host words the stop: it knows which calls were running. */
	private stoppedOutcome(): WorkerOutcome {
		return { ok: false, stopped: this.stopReason ?? 'timeout' }
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

	/** The guest's `run` answer; the JSON is parsed by the host, so only text crosses threads. */
	private decode(reply: string): WorkerOutcome {
		if (reply.startsWith('e')) return { ok: false, error: withHint(reply.slice(1), this.settings) }
		if (reply.startsWith('v')) return { ok: true, returnJson: reply.slice(1) }
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
		// Refusals throw here: the guest's async wrapper turns them into a rejection, cheaply. The
		// host checks the path, the count and the arguments again.
		if (!this.allowed.has(path)) throw new TypeError(`${label} is not available`)
		const argsJson = context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : ''
		return this.hostCall(label, { kind: 'ig', path, argsJson })
	}

	private save(nameHandle: QuickJSHandle, contentHandle: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		if (context.typeof(nameHandle) !== 'string' || context.typeof(contentHandle) !== 'string') {
			throw new TypeError('saveFile(name, content) needs two strings')
		}
		// One file at a time, so the host never holds more than one file's content.
		if (this.saving)
			throw new Error('saveFile writes one file at a time: await each saveFile before the next')
		const name = context.getString(nameHandle)
		const content = context.getString(contentHandle)
		this.saving = true
		return this.hostCall('saveFile', { kind: 'save', name, content }, () => {
			this.saving = false
		})
	}

	/** Counts the call, sends it to the host, and hands the guest a promise for its reply. */
	private hostCall(label: string, request: CallRequest, onReply?: () => void): QuickJSHandle {
		this.callCount++
		if (this.callCount > this.settings.maxCalls) {
			throw new RangeError(tooManyCallsMessage(this.settings.maxCalls, label, this.callCount))
		}
		const deferred = this.context!.newPromise()
		this.deferreds.add(deferred)
		this.pendingCalls++
		this.link
			.call(request)
			.catch((error) => encodeError(error))
			.then((reply) => {
				this.pendingCalls--
				onReply?.()
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
		clearTimeout(this.deadlineTimer)
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
