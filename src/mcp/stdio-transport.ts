/**
 * The stdio transport of `smkit mcp`: one JSON-RPC message per line on standard input, answers on
 * standard output. The SDK's own transport drops a line it cannot read without a word (the client
 * waits for an answer that never comes) and closes itself on a line over its size limit; this one
 * answers every such line as JSON-RPC 2.0 says and keeps serving:
 * - a line that is not JSON: `-32700` parse error (id null);
 * - JSON that is not a JSON-RPC 2.0 message, a batch (an array) included: `-32600` invalid request,
 *   with the message's id when it has a usable one;
 * - a line longer than the limit: `-32600`, the line skipped up to its end;
 * - a blank line: ignored.
 */
import process from 'node:process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js'

/** The longest line read (the SDK's limit): longer ones are refused, not buffered without end. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

const NEWLINE = 0x0a

/** An id a reply can carry: the message's own when it is a string or an integer, else null. */
function idOf(value: unknown): string | number | null {
	if (typeof value !== 'object' || value === null || !('id' in value)) return null
	const { id } = value as { id: unknown }
	return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null
}

/** Why a JSON value is not a message, for the client's log. */
function invalidReason(value: unknown): string {
	if (Array.isArray(value))
		return 'Invalid Request: batches (JSON arrays) are not supported; send one message per line'
	if (typeof value !== 'object' || value === null)
		return 'Invalid Request: expected a JSON-RPC 2.0 message object'
	const message = value as Record<string, unknown>
	if (message.jsonrpc !== '2.0') return 'Invalid Request: "jsonrpc" must be "2.0"'
	if ('method' in message && typeof message.method !== 'string')
		return 'Invalid Request: "method" must be a string'
	if ('id' in message && idOf(message) === null) return 'Invalid Request: "id" must be a string or an integer'
	if (
		'params' in message &&
		(typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
	)
		return 'Invalid Request: "params" must be an object'
	return 'Invalid Request: expected a request, notification or response (method, id, params)'
}

/** Reads messages from `input` line by line and writes them to `output`, one per line. */
export class LineTransport implements Transport {
	onmessage?: (message: JSONRPCMessage) => void
	onerror?: (error: Error) => void
	onclose?: () => void
	readonly #input: NodeJS.ReadableStream
	readonly #output: NodeJS.WritableStream
	/** Resolves when the output takes writes again, while it is full. */
	#drained: Promise<void> | undefined
	readonly #maxLineBytes: number
	#buffer: Buffer = Buffer.alloc(0)
	/** True while skipping the rest of a line that went over the limit. */
	#skipping = false

	constructor(
		input: NodeJS.ReadableStream = process.stdin,
		output: NodeJS.WritableStream = process.stdout,
		maxLineBytes = MAX_LINE_BYTES
	) {
		this.#input = input
		this.#output = output
		this.#maxLineBytes = maxLineBytes
	}

	readonly #onData = (chunk: Buffer | string) => {
		this.#buffer = Buffer.concat([this.#buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk])
		for (;;) {
			const end = this.#buffer.indexOf(NEWLINE)
			if (end === -1) {
				if (this.#buffer.length > this.#maxLineBytes) {
					this.#buffer = Buffer.alloc(0)
					if (!this.#skipping) this.#refuseLong()
					this.#skipping = true
				}
				return
			}
			const line = this.#buffer.subarray(0, end)
			this.#buffer = this.#buffer.subarray(end + 1)
			if (this.#skipping) {
				this.#skipping = false
				continue
			}
			if (line.length > this.#maxLineBytes) this.#refuseLong()
			else this.#read(line.toString('utf8'))
		}
	}

	readonly #onError = (error: Error) => {
		this.onerror?.(error)
	}

	async start(): Promise<void> {
		this.#input.on('data', this.#onData)
		this.#input.on('error', this.#onError)
	}

	async close(): Promise<void> {
		this.#input.off('data', this.#onData)
		this.#input.off('error', this.#onError)
		if (this.#input.listenerCount('data') === 0) this.#input.pause()
		this.#buffer = Buffer.alloc(0)
		this.onclose?.()
	}

	send(message: JSONRPCMessage): Promise<void> {
		if (this.#output.write(`${JSON.stringify(message)}\n`)) return Promise.resolve()
		// A client that stops reading: every answer written meanwhile waits for the same drain (one
		// listener, not one per answer, which Node warns about past ten).
		this.#drained ??= new Promise<void>((resolve) =>
			this.#output.once('drain', () => {
				this.#drained = undefined
				resolve()
			})
		)
		return this.#drained
	}

	#read(line: string) {
		if (line.trim() === '') return
		let value: unknown
		try {
			value = JSON.parse(line)
		} catch {
			this.#reply(null, ErrorCode.ParseError, 'Parse error: the line is not JSON')
			return
		}
		const parsed = JSONRPCMessageSchema.safeParse(value)
		if (!parsed.success) {
			this.#reply(idOf(value), ErrorCode.InvalidRequest, invalidReason(value))
			return
		}
		this.onmessage?.(parsed.data)
	}

	#refuseLong() {
		this.#reply(
			null,
			ErrorCode.InvalidRequest,
			`Invalid Request: a message is at most ${this.#maxLineBytes} bytes`
		)
	}

	#reply(id: string | number | null, code: number, message: string) {
		// JSON-RPC answers an unreadable request with a null id, which the SDK's types do not allow for.
		void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage)
	}
}
