/**
 * Host side of the guest's bridge: validates what the guest sends, runs the host calls with a
 * concurrency limit, and encodes every reply as a string for the guest (see guest.ts for the format).
 */

/** A `group.method` path made of two JavaScript identifiers. */
const METHOD_PATH = /^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/
/** Error names that may cross to the guest; anything else becomes `Error`. */
const ERROR_NAME = /^[A-Za-z_$][\w$]{0,63}$/
const MAX_ERROR_MESSAGE_CHARS = 4000

/** Paths in `methods` that are not `group.method` identifiers, for the caller's error message. */
export function invalidMethodPaths(methods: readonly string[]): string[] {
	return methods.filter((path) => typeof path !== 'string' || !METHOD_PATH.test(path))
}

/** The error for a call beyond the run's limit; the worker and the host word it the same. */
export function tooManyCallsMessage(maxCalls: number, label: string, callNumber: number): string {
	return `Too many calls: a run may make at most ${maxCalls} ig/saveFile calls (${label} was call ${callNumber}); fetch fewer items or use { count } paging`
}

/** Reply for a call that returned `value`: its JSON, or an error when JSON cannot carry it. */
export function encodeReply(value: unknown, label: string, maxChars: number): string {
	if (value === undefined) return 'u'
	let json: string | undefined
	try {
		json = JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item))
	} catch (error) {
		return encodeError(new TypeError(`${label} returned data that is not JSON (${messageOf(error)})`))
	}
	if (json === undefined) return 'u'
	if (json.length > maxChars) {
		const megabytes = (json.length / 1024 / 1024).toFixed(1)
		return encodeError(
			new RangeError(
				`${label} returned ${megabytes} MB of JSON, too much for the sandbox: ask for fewer items`
			)
		)
	}
	return `v${json}`
}

/** Reply for a call that threw: the guest rethrows an `Error` with this name, message and kind. */
export function encodeError(error: unknown): string {
	const info: { name: string; message: string; kind?: string } = { name: 'Error', message: messageOf(error) }
	if (error instanceof Error && ERROR_NAME.test(error.name)) info.name = error.name
	const kind = error !== null && typeof error === 'object' ? (error as { kind?: unknown }).kind : undefined
	if (typeof kind === 'string' && kind) info.kind = kind
	return `e${JSON.stringify(info)}`
}

/** A thrown value's message, whatever was thrown; never throws itself. */
export function messageOf(error: unknown): string {
	let message: string
	try {
		message = error instanceof Error ? error.message : String(error)
	} catch {
		message = 'unknown error'
	}
	return message.length > MAX_ERROR_MESSAGE_CHARS ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : message
}

/**
 * Runs host calls at most `limit` at a time, in arrival order. Tasks never reject (they encode
 * their own errors). `close()` drops the queue; calls already running finish unobserved.
 */
export class CallQueue {
	private active = 0
	private readonly waiting: Array<() => void> = []
	private closed = false
	/** Paths of calls running now, for the timeout message. */
	readonly running = new Map<number, string>()
	private nextId = 0

	constructor(private readonly limit: number) {}

	/** True while a call runs or waits: the guest may still be woken up by one. */
	get busy(): boolean {
		return this.active > 0 || this.waiting.length > 0
	}

	/** Queues `task`; `done` receives its reply unless the queue was closed meanwhile. */
	add(label: string, task: () => Promise<string>, done: (reply: string) => void): void {
		const start = () => {
			const id = this.nextId++
			this.active++
			this.running.set(id, label)
			task().then((reply) => {
				this.active--
				this.running.delete(id)
				if (this.closed) return
				done(reply)
				this.waiting.shift()?.()
			})
		}
		if (this.active < this.limit) start()
		else this.waiting.push(start)
	}

	close(): void {
		this.closed = true
		this.waiting.length = 0
	}
}
