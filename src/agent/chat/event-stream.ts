/**
 * Server-sent events for agent runs (docs/api-contract.md, "Chat"): each event is one
 * `data: <json>\n\n`, no `event:` or `id:` lines. The run is cancelled when the client goes away,
 * so no agent keeps working for nobody: both the stream's `cancel` and
 * the request's abort signal abort the run's signal. A comment line (`: keep-alive`) is sent while
 * nothing else is, because Bun closes connections idle for 10 s by default and a model call or an
 * approval card can take longer; SSE parsers ignore comments.
 */

/** Headers of every event stream. */
export const eventStreamHeaders = {
	'content-type': 'text/event-stream; charset=utf-8',
	'cache-control': 'no-cache',
	connection: 'keep-alive',
	'x-accel-buffering': 'no'
} as const

/** Sends one event (a JSON object) to the client; does nothing once the stream is closed. */
export type SendEvent = (event: object) => void

/** Options of `eventStreamResponse`. */
export interface EventStreamOptions {
	/** The incoming request: its abort (client disconnect) cancels the run. */
	request?: Request
	/** Interval of keep-alive comments in ms (default 5000, below Bun's 10 s idle timeout). */
	heartbeatMs?: number
}

/** One server-sent event line pair for a JSON payload. */
export function formatEvent(event: object): string {
	return `data: ${JSON.stringify(event)}\n\n`
}

/**
 * A streaming response that runs `run(send, signal)` and closes when it settles. `signal` aborts
 * when the client disconnects. If `run` throws, an `error` event is sent before closing (the
 * message is generic: details belong to the server log, passed to `onFailure`).
 */
export function eventStreamResponse(
	run: (send: SendEvent, signal: AbortSignal) => Promise<void>,
	options: EventStreamOptions & { onFailure?: (error: unknown) => void } = {}
): Response {
	const cancel = new AbortController()
	const encoder = new TextEncoder()
	let closed = false
	let heartbeat: ReturnType<typeof setInterval> | undefined
	const stop = () => {
		closed = true
		if (heartbeat) clearInterval(heartbeat)
	}
	const onRequestAbort = () => cancel.abort()

	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			const write = (text: string) => {
				if (closed) return
				try {
					controller.enqueue(encoder.encode(text))
				} catch {
					// The consumer is gone; the cancel callback aborts the run.
					stop()
				}
			}
			const send: SendEvent = (event) => write(formatEvent(event))
			heartbeat = setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs ?? 5000)
			options.request?.signal.addEventListener('abort', onRequestAbort, { once: true })
			void (async () => {
				try {
					await run(send, cancel.signal)
				} catch (error) {
					options.onFailure?.(error)
					send({ type: 'error', message: 'Internal server error' })
				} finally {
					options.request?.signal.removeEventListener('abort', onRequestAbort)
					if (!closed) {
						stop()
						try {
							controller.close()
						} catch {
							// Already closed by a cancel.
						}
					}
				}
			})()
		},
		cancel() {
			stop()
			cancel.abort()
		}
	})
	return new Response(body, { headers: { ...eventStreamHeaders } })
}
