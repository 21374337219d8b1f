/**
 * Closed-loop HTTP/1.1 load over raw keep-alive sockets, as wrk does: each of `concurrency`
 * connections sends a GET, reads the answer's status line and headers, counts its body bytes
 * (Content-Length or chunked) without decoding them, records the latency and sends the next. The
 * load shares the machine's two cores with the servers under test, so what it spends per request
 * is taken from them: with `fetch` and reading the body, the load cost about 0.15 ms of CPU per
 * followers page of 100; this reader about 0.09 ms, as much as wrk on the same machine (most of it
 * the kernel copying the bytes). Each run's load CPU per request is in bench/results.json
 * (`loadCpuMs`).
 */
import type { LoadDriver, SliceResult } from './load'

const HEADER_END = Buffer.from('\r\n\r\n')
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n')

/** The socket methods used here. */
interface Socket {
	write(data: Buffer): number
	end(): void
}

/** Length of the body from a response head: -1 for a chunked body, undefined when neither is given. */
function bodyLength(head: string): number | undefined {
	const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
	if (length) return Number(length[1])
	if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return -1
	return undefined
}

/** One keep-alive connection: sends a request when told, reports each complete answer. */
class Connection {
	#socket: Socket | undefined
	#head: Buffer | undefined
	#inBody = false
	/** Body bytes still expected, or -1 for a chunked body. */
	#remaining = 0
	#tail = Buffer.alloc(0)
	#status = 0
	#sent = 0
	busy = false

	constructor(
		private readonly target: URL,
		private readonly request: Buffer,
		private readonly answered: (connection: Connection, latencyMs: number, status: number | string) => void
	) {}

	/** Sends one request (connecting first when needed). */
	send(): void {
		this.busy = true
		this.#sent = performance.now()
		this.#head = undefined
		this.#inBody = false
		this.#tail = Buffer.alloc(0)
		if (this.#socket) {
			this.#socket.write(this.request)
			return
		}
		Bun.connect({
			hostname: this.target.hostname,
			port: Number(this.target.port),
			socket: {
				open: (socket) => {
					this.#socket = socket
					socket.write(this.request)
				},
				data: (_socket, chunk) => this.#read(chunk),
				close: () => this.#lost('the server closed a keep-alive connection'),
				error: (_socket, error) => this.#lost(`${error.name}: ${error.message}`)
			}
		}).catch((error: Error) => this.#lost(`${error.name}: ${error.message}`))
	}

	close(): void {
		const socket = this.#socket
		this.#socket = undefined
		socket?.end()
	}

	#lost(reason: string): void {
		this.#socket = undefined
		if (this.busy) this.#done(reason)
	}

	#done(status: number | string): void {
		this.busy = false
		this.answered(this, performance.now() - this.#sent, status)
	}

	#read(chunk: Buffer): void {
		let body = chunk
		if (!this.#inBody) {
			const head = this.#head ? Buffer.concat([this.#head, chunk]) : chunk
			const at = head.indexOf(HEADER_END)
			if (at < 0) {
				this.#head = head
				return
			}
			const text = head.subarray(0, at).toString('latin1')
			this.#status = Number(text.slice(9, 12))
			const length = bodyLength(text)
			if (length === undefined) {
				this.close()
				this.#done('an answer without Content-Length or chunked encoding')
				return
			}
			this.#inBody = true
			this.#remaining = length
			body = head.subarray(at + HEADER_END.length)
		}
		if (this.#remaining >= 0) {
			this.#remaining -= body.length
			if (this.#remaining <= 0) this.#done(this.#status)
			return
		}
		// Chunked: done at the terminating zero-length chunk.
		const seen = Buffer.concat([this.#tail, body])
		if (seen.subarray(-CHUNKED_END.length).equals(CHUNKED_END)) this.#done(this.#status)
		else this.#tail = seen.subarray(-CHUNKED_END.length)
	}
}

/** A driver loading `url` from `concurrency` keep-alive connections. */
export function socketDriver(url: string, concurrency: number): LoadDriver {
	const target = new URL(url)
	const request = Buffer.from(
		`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: */*\r\n\r\n`
	)
	let current: { result: SliceResult; deadline: number; finished: () => void } | undefined
	const answered = (connection: Connection, latencyMs: number, status: number | string) => {
		const slice = current
		if (!slice) return
		const { result } = slice
		result.latencies.push(latencyMs)
		if (performance.now() <= slice.deadline) result.completed++
		if (status !== 200) {
			result.failures++
			result.firstFailure ??= typeof status === 'number' ? `HTTP ${status}` : status
		}
		if (performance.now() < slice.deadline) connection.send()
		else if (connections.every((each) => !each.busy)) slice.finished()
	}
	const connections = Array.from({ length: concurrency }, () => new Connection(target, request, answered))
	return {
		slice(durationMs) {
			return new Promise((finished) => {
				const result: SliceResult = { completed: 0, latencies: [], failures: 0 }
				current = { result, deadline: performance.now() + durationMs, finished: () => finished(result) }
				for (const connection of connections) connection.send()
			})
		},
		close() {
			for (const connection of connections) connection.close()
		}
	}
}
