/**
 * A closed-loop HTTP/1.1 load generator over raw keep-alive sockets, as wrk does: each of
 * `concurrency` connections sends a GET, reads the answer's status line and headers, counts its
 * body bytes (Content-Length or chunked) without decoding them, records the latency and sends the
 * next. The load shares the machine's two cores with the servers under test, so what it spends per
 * request is taken from them. `fetch` plus reading the body cost the load process about half as much
 * CPU per 100-record followers page as the minimal proxy spent answering it; this reader a small
 * fraction of that (each run's load CPU per request is in bench/results.json, `loadCpuMs`).
 */
import type { LoadResult } from './load'
import { percentile } from './stats'

const HEADER_END = Buffer.from('\r\n\r\n')
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n')

/** What one connection is reading: the headers so far, then how much body is left. */
interface Reading {
	sent: number
	head: Buffer | undefined
	/** Body bytes still expected (Content-Length), or -1 for a chunked body. */
	remaining: number
	/** For a chunked body: the last bytes seen, to find the terminating chunk across reads. */
	tail: Buffer
	status: number
	headerDone: boolean
}

/** Length and kind of the body from a response head; undefined when neither is given. */
function bodyLength(head: string): number | undefined {
	const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
	if (length) return Number(length[1])
	if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return -1
	return undefined
}

/** Runs the load against `url` for `durationMs`; the same result shape as `runLoad`. */
export async function runSocketLoad(
	url: string,
	concurrency: number,
	durationMs: number
): Promise<LoadResult> {
	const target = new URL(url)
	const request = Buffer.from(
		`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: */*\r\n\r\n`
	)
	const latencies: number[] = []
	let failures = 0
	let firstFailure: string | undefined
	const started = performance.now()
	const deadline = started + durationMs
	const fail = (reason: string) => {
		failures++
		firstFailure ??= reason
	}

	const connection = () =>
		new Promise<void>((done) => {
			const reading: Reading = {
				sent: 0,
				head: undefined,
				remaining: 0,
				tail: Buffer.alloc(0),
				status: 0,
				headerDone: false
			}
			let finished = false
			const end = () => {
				if (!finished) {
					finished = true
					done()
				}
			}
			const send = (socket: { write(data: Buffer): number; end(): void }) => {
				if (performance.now() >= deadline) {
					socket.end()
					end()
					return
				}
				reading.sent = performance.now()
				reading.head = undefined
				reading.headerDone = false
				reading.tail = Buffer.alloc(0)
				socket.write(request)
			}
			const complete = (socket: { write(data: Buffer): number; end(): void }) => {
				latencies.push(performance.now() - reading.sent)
				if (reading.status !== 200) fail(`HTTP ${reading.status}`)
				send(socket)
			}
			Bun.connect({
				hostname: target.hostname,
				port: Number(target.port),
				socket: {
					open: (socket) => send(socket),
					data(socket, chunk) {
						let body: Buffer = chunk
						if (!reading.headerDone) {
							const head: Buffer = reading.head ? Buffer.concat([reading.head, chunk]) : chunk
							const at = head.indexOf(HEADER_END)
							if (at < 0) {
								reading.head = head
								return
							}
							const text = head.subarray(0, at).toString('latin1')
							reading.status = Number(text.slice(9, 12))
							const length = bodyLength(text)
							if (length === undefined) {
								fail('an answer without Content-Length or chunked encoding')
								socket.end()
								end()
								return
							}
							reading.headerDone = true
							reading.remaining = length
							body = head.subarray(at + HEADER_END.length)
						}
						if (reading.remaining >= 0) {
							reading.remaining -= body.length
							if (reading.remaining <= 0) complete(socket)
							return
						}
						// Chunked: done at the terminating zero-length chunk.
						const seen = Buffer.concat([reading.tail, body])
						if (seen.subarray(-CHUNKED_END.length).equals(CHUNKED_END)) complete(socket)
						else reading.tail = seen.subarray(-CHUNKED_END.length)
					},
					close: () => {
						if (finished || performance.now() >= deadline) return end()
						// The server ended a keep-alive connection early: counted, and a new one takes its place.
						fail('the server closed a keep-alive connection')
						finished = true
						connection().then(done)
					},
					error: (_socket, error) => {
						fail(`${error.name}: ${error.message}`)
						end()
					}
				}
			}).catch((error: Error) => {
				fail(`${error.name}: ${error.message}`)
				end()
			})
		})

	await Promise.all(Array.from({ length: concurrency }, connection))
	const elapsed = performance.now() - started
	return {
		requests: latencies.length,
		failures,
		rps: (latencies.length / elapsed) * 1000,
		p50Ms: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		durationMs: elapsed,
		firstFailure
	}
}
