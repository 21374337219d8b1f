/** Limits, outcome and output of one run, and the wording of limit errors. */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core'

/** Limits of one run with defaults applied. */
export interface RunSettings {
	timeoutMs: number
	memoryLimitBytes: number
	maxOutputChars: number
	maxCalls: number
	maxConcurrentCalls: number
}

/** How the body ended; output is collected separately. */
export interface RunOutcome {
	ok: boolean
	returnValue?: unknown
	error?: string
}

/** Collects printed lines up to a character cap. */
export class OutputBuffer {
	text = ''
	truncated = false
	constructor(private readonly maxChars: number) {}

	/** Appends one line; returns true once the cap is reached so the guest stops formatting. */
	append(line: string): boolean {
		if (this.truncated) return true
		const room = this.maxChars - this.text.length
		if (line.length + 1 > room) {
			this.text += `${line}\n`.slice(0, Math.max(room, 0))
			this.truncated = true
		} else {
			this.text += `${line}\n`
		}
		return this.truncated
	}
}

/** The `message` of a guest error object as the host can read it, or an empty string. */
export function safeMessage(context: QuickJSContext, error: QuickJSHandle): string {
	try {
		const message = context.getProp(error, 'message')
		const text = context.typeof(message) === 'string' ? context.getString(message) : ''
		message.dispose()
		return text
	} catch {
		return ''
	}
}

/** Adds what the limit was to the first line of errors caused by a limit. */
export function withHint(text: string, settings: RunSettings): string {
	const newline = text.indexOf('\n')
	const [first, rest] = newline < 0 ? [text, ''] : [text.slice(0, newline), text.slice(newline)]
	if (/out of memory/.test(first)) {
		return `${first} (the sandbox allows ${Math.round(settings.memoryLimitBytes / 1024 / 1024)} MiB of memory)${rest}`
	}
	if (/stack overflow/.test(first)) return `${first} (calls nest too deeply for the sandbox's stack)${rest}`
	return text
}
