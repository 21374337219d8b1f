/** How a sandbox run's end reads to the host: the guest's reply, a thrown value, an engine failure. */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core'
import { messageOf } from './bridge'
import { type RunSettings, safeMessage, withHint } from './outcome'
import type { WorkerOutcome } from './protocol'

/** The guest's `run` answer; the JSON is parsed by the host, so only text crosses threads. */
export function decodeRunReply(reply: string, settings: RunSettings): WorkerOutcome {
	if (reply.startsWith('e')) return { ok: false, error: withHint(reply.slice(1), settings) }
	if (reply.startsWith('v')) return { ok: true, returnJson: reply.slice(1) }
	if (reply === 'u') return { ok: true }
	// No reply the guest writes: its text could not be handed out of the engine (tens of megabytes,
	// more than the engine's memory can copy), so the value is lost: said, never a silent success.
	return {
		ok: false,
		error:
			'The returned value is too large to hand back from the sandbox: return a smaller value (a summary, the first items) or write it with saveFile'
	}
}

/** A thrown guest value as text, through the guest's own `describe`, else its `message`. */
export function describeThrown(
	context: QuickJSContext,
	describe: QuickJSHandle,
	error: QuickJSHandle,
	settings: RunSettings
): string {
	const described = context.callFunction(describe, context.undefined, error)
	if (!described.error) {
		const text = context.typeof(described.value) === 'string' ? context.getString(described.value) : ''
		described.value.dispose()
		if (text) return withHint(text, settings)
	} else {
		described.error.dispose()
	}
	// Describing failed too (usually no memory left): report what the host can see.
	const message = context.typeof(error) === 'object' ? safeMessage(context, error) : ''
	return withHint(message || 'The code failed (out of memory while reporting the error)', settings)
}

/** An exception from inside the engine itself (native stack overflow, WebAssembly trap). */
export function engineFailure(error: unknown, settings: RunSettings): WorkerOutcome {
	if (error instanceof RangeError) {
		return { ok: false, error: 'Stack overflow: the code nests or recurses too deeply for the sandbox' }
	}
	return { ok: false, error: withHint(`The sandbox engine failed: ${messageOf(error)}`, settings) }
}
