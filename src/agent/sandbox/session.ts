/**
 * One sandbox run on one engine, inside a sandbox worker: a fresh QuickJS runtime and context, the
 * guest API, and the loop that drives the guest's promises until the body settles, the deadline
 * passes or the host asks to stop.
 *
 * Host calls (guest-calls.ts) are messages to the main thread and promises in the guest. When a
 * reply arrives it is queued; the loop resolves the guest promise and runs the guest's pending
 * jobs. All guest work happens in this loop, so an exception from inside the engine (the native
 * stack overflowing, a WebAssembly trap) is caught in one place and poisons the engine.
 *
 * The run ends when the body has settled and no host call is out: a call the code started without
 * `await` (a `saveFile`, say) still happens, within the deadline, and one that failed unobserved
 * fails the run with its error (see `unawaited` in guest.ts).
 */
import { errors, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten-core'
import type { Engine } from './engine'
import { CODE_FILE_NAME, GUEST_BOOTSTRAP, wrapUserCode } from './guest'
import { GuestCalls } from './guest-calls'
import { decodeRunReply, describeThrown, engineFailure } from './guest-result'
import { type OutputBuffer, type RunSettings, withHint } from './outcome'
import type { CallRequest, StopReason, WorkerOutcome } from './protocol'
import { sandboxDefaults } from './types'

/** Jobs run per batch before checking the clock and, if more are queued, letting the host breathe. */
/** How long a run whose body threw still waits for the calls it started without await. */
const AFTER_THROW_MS = 1000

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
	private readonly calls: GuestCalls
	private stopReason: StopReason | undefined
	private wakeUp: (() => void) | undefined
	private deadlineTimer: ReturnType<typeof setTimeout> | undefined

	constructor(
		private readonly engine: Engine,
		private readonly settings: RunSettings,
		private readonly link: SessionLink,
		output: OutputBuffer
	) {
		this.calls = new GuestCalls(settings, link, output, () => this.wake())
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
			return engineFailure(error, this.settings)
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
		const calls = this.calls
		const api = this.track(context.unwrapResult(context.evalCode(GUEST_BOOTSTRAP, 'sandbox.js')))
		const guest = this.track(
			context.unwrapResult(
				context.callFunction(
					api,
					context.undefined,
					this.track(context.newFunction('print', (line) => calls.print(line))),
					this.track(context.newFunction('bridge', (path, args) => calls.bridge(path, args))),
					this.link.canSave
						? this.track(context.newFunction('save', (name, content) => calls.save(name, content)))
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
		const unawaited = this.track(context.getProp(guest, 'unawaited'))
		const thrown = (error: QuickJSHandle) => describeThrown(context, describe, error, this.settings)

		const compiled = context.evalCode(wrapUserCode(code), CODE_FILE_NAME)
		if (compiled.error) {
			const error = this.track(compiled.error)
			if (this.stopReason) return this.stoppedOutcome()
			return { ok: false, error: thrown(error) }
		}
		const body = this.track(compiled.value)
		const started = context.callFunction(runBody, context.undefined, body)
		if (started.error) {
			// `run` catches everything catchable: this is the deadline, the signal or lack of memory.
			const error = this.track(started.error)
			return this.stopReason ? this.stoppedOutcome() : { ok: false, error: thrown(error) }
		}
		const promise = this.track(started.value)
		// How the body ended, once it has: the run goes on while calls it started are out.
		let settled: WorkerOutcome | undefined
		// When a body that threw stops waiting for the calls it started.
		let giveUpAt: number | undefined
		// An uncatchable error inside a queued job (lack of memory in a callback): it fails the run.
		let jobError: string | undefined
		const onJobError = (error: QuickJSHandle) => {
			jobError ??= thrown(this.track(error))
		}

		for (;;) {
			if (this.stopReason) return this.stoppedOutcome(settled !== undefined)
			calls.applyReplies()
			await this.runJobs(onJobError)
			if (this.stopReason) return this.stoppedOutcome(settled !== undefined)
			if (jobError) return { ...(settled ?? {}), ok: false, error: jobError }
			if (!settled) {
				const state = context.getPromiseState(promise)
				if (state.type === 'fulfilled') {
					settled = decodeRunReply(context.getString(this.track(state.value)), this.settings)
				} else if (state.type === 'rejected') {
					settled = { ok: false, error: thrown(this.track(state.error)) }
				}
				if (settled && !settled.ok) {
					// The body threw: the calls it left out get a moment to report, not the whole time
					// limit (calls held by the rate limiter would keep its error from the model).
					giveUpAt = Date.now() + AFTER_THROW_MS
					setTimeout(() => this.wake(), AFTER_THROW_MS)
				}
			}
			if (calls.hasReplies) continue
			if (settled && giveUpAt !== undefined && Date.now() >= giveUpAt)
				return this.withUnawaited(settled, unawaited)
			if (!calls.pending && !this.runtime!.hasPendingJob()) {
				if (settled) return this.withUnawaited(settled, unawaited)
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
		this.calls.attach(this.context)
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

	/** The body's outcome with the calls that failed unawaited added; such a failure fails the run. */
	private withUnawaited(settled: WorkerOutcome, unawaited: QuickJSHandle): WorkerOutcome {
		const context = this.context!
		const listed = context.callFunction(unawaited, context.undefined)
		if (listed.error) {
			// Only the deadline, a stop or lack of memory can interrupt it; the body's outcome stands.
			listed.error.dispose()
			return this.stopReason ? this.stoppedOutcome(true) : settled
		}
		const text = context.typeof(listed.value) === 'string' ? context.getString(listed.value) : ''
		listed.value.dispose()
		if (!text) return settled
		const failures = withHint(text, this.settings)
		return { ...settled, ok: false, error: settled.error ? `${settled.error}\n${failures}` : failures }
	}

	/**
	 * The host words the stop: it knows which calls were running. `afterBody`: the body had returned
	 * and the run was waiting for calls it did not await.
	 */
	private stoppedOutcome(afterBody = false): WorkerOutcome {
		return { ok: false, stopped: this.stopReason ?? 'timeout', ...(afterBody ? { afterBody } : {}) }
	}

	/** Runs queued guest jobs in batches; between batches the clock is checked and the host gets a turn. */
	private async runJobs(onError: (error: QuickJSHandle) => void): Promise<void> {
		const runtime = this.runtime!
		while (!this.stopReason && runtime.hasPendingJob()) {
			const result = runtime.executePendingJobs(JOB_BATCH)
			// An error here is an uncatchable one: an interrupt (the stop reason says it) or lack of
			// memory inside a job, which fails the run even after the body has returned.
			if (result.error) {
				if (this.stopReason) result.error.dispose()
				else onError(result.error)
			}
			if (runtime.hasPendingJob() && !this.stopReason) await new Promise((resolve) => setImmediate(resolve))
		}
	}

	private track<T extends QuickJSHandle>(handle: T): T {
		this.handles.push(handle)
		return handle
	}

	/** Frees every handle, the context and the runtime; an engine that fails to free is poisoned. */
	dispose(): void {
		this.calls.finish()
		clearTimeout(this.deadlineTimer)
		this.wake()
		if (this.engine.poisoned) return
		try {
			this.calls.dispose()
			for (const handle of this.handles) if (handle.alive) handle.dispose()
			this.context?.dispose()
			this.runtime?.dispose()
		} catch {
			// A leaked handle makes QuickJS abort the instance when the runtime is freed.
			this.engine.poisoned = true
		}
	}
}
