/**
 * The guest's ways out of a sandbox run: `print`, the `ig.*` bridge and `saveFile`. A host call is
 * a message to the main thread and a promise in the guest (`context.newPromise`); its reply is
 * queued here, and the run loop applies the queue between batches of guest jobs, so all guest work
 * stays in that loop.
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from 'quickjs-emscripten-core'
import { encodeError, tooManyCallsMessage } from './bridge'
import type { OutputBuffer, RunSettings } from './outcome'
import type { CallRequest } from './protocol'
import type { SessionLink } from './session'

/** The host functions of one run and the replies waiting for the guest. */
export class GuestCalls {
	private context?: QuickJSContext
	private readonly deferreds = new Set<QuickJSDeferredPromise>()
	private readonly replies: Array<() => void> = []
	private readonly allowed: Set<string>
	private finished = false
	private callCount = 0
	/** Calls sent to the host and not answered yet: while any is, the guest may still be woken. */
	private pendingCalls = 0
	/** A saveFile call is waiting for the host. */
	private saving = false

	/** `onReply` wakes the run loop when a reply is queued. */
	constructor(
		private readonly settings: RunSettings,
		private readonly link: SessionLink,
		private readonly output: OutputBuffer,
		private readonly onReply: () => void
	) {
		this.allowed = new Set(link.methods)
	}

	/** The context the host functions read their arguments from and resolve promises in. */
	attach(context: QuickJSContext): void {
		this.context = context
	}

	/** A reply is queued for the guest. */
	get hasReplies(): boolean {
		return this.replies.length > 0
	}

	/** A call is still out with the host. */
	get pending(): boolean {
		return this.pendingCalls > 0
	}

	/** Resolves the guest promises of every queued reply. */
	applyReplies(): void {
		for (let reply = this.replies.shift(); reply; reply = this.replies.shift()) reply()
	}

	print(line: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		const text = context.typeof(line) === 'string' ? context.getString(line) : ''
		return this.output.append(text) ? context.true : context.false
	}

	bridge(pathHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle {
		const context = this.context!
		const path = context.typeof(pathHandle) === 'string' ? context.getString(pathHandle) : ''
		const label = `ig.${path}`
		// Refusals throw here: the guest's async wrapper turns them into a rejection, cheaply. The
		// host checks the path, the count and the arguments again.
		if (!this.allowed.has(path)) throw new TypeError(`${label} is not available`)
		const argsJson = context.typeof(argsHandle) === 'string' ? context.getString(argsHandle) : ''
		return this.hostCall(label, { kind: 'ig', path, argsJson })
	}

	save(nameHandle: QuickJSHandle, contentHandle: QuickJSHandle): QuickJSHandle {
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

	/** Replies arriving from now on are dropped. */
	finish(): void {
		this.finished = true
	}

	/** Frees the promises still waiting for a reply (before the context they live in). */
	dispose(): void {
		for (const deferred of this.deferreds) deferred.dispose()
	}

	/** Counts the call, sends it to the host, and hands the guest a promise for its reply. */
	private hostCall(label: string, request: CallRequest, onAnswered?: () => void): QuickJSHandle {
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
				onAnswered?.()
				if (this.finished) return
				this.replies.push(() => this.resolve(deferred, reply))
				this.onReply()
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
}
