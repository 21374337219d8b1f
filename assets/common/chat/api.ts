/**
 * The chat's requests: always to this page's own origin, JSON bodies with
 * `Content-Type: application/json` (the servers refuse other posts), the access token from the page
 * URL (`?token=`) as `Authorization: Bearer`, and event streams read from a POST response (an
 * EventSource could only GET). Nothing here throws: failures come back as values.
 */
import type { AgentEvent } from '../../../src/agent/events'
import type { ParallelResult } from '../../../src/agent/parallel'
import { accessToken, requestHeaders } from '../request'

/** An agent event as a chat stream sends it; in a parallel run it carries its task's index. */
export type TaskEvent = AgentEvent & { task?: number }

/** The summary that ends a parallel run (the run's own `done`, without `task`). */
export type ParallelDoneEvent = ParallelResult & { type: 'done'; task?: undefined }

/** One server-sent event's payload. */
export type StreamEvent = TaskEvent | ParallelDoneEvent

/** Whether an event belongs to one task of a parallel run, or to a single ask. */
export function isAgentEvent(event: StreamEvent): event is TaskEvent {
	return !('results' in event)
}

/** A JSON answer, or why there is none. */
export interface JsonResult {
	ok: boolean
	/** HTTP status, 0 when the server could not be reached. */
	status: number
	body: any
	/** Error text for people (from the body's `error`, or the transport). */
	error?: string
}

/** The chat's API under a base path (`/api` for the agent web server, `/api/ai` for the playground). */
export class ChatApi {
	private readonly basePath: string
	private readonly token: string | null

	constructor(basePath: string, token = accessToken()) {
		this.basePath = basePath.replace(/\/$/, '')
		this.token = token || null
	}

	private headers(json: boolean): Record<string, string> {
		return requestHeaders({ json, token: this.token })
	}

	/** Sends a request and reads a JSON answer. */
	async json(method: 'GET' | 'POST', path: string, body?: unknown): Promise<JsonResult> {
		let response: Response
		try {
			response = await fetch(this.basePath + path, {
				method,
				headers: this.headers(body !== undefined),
				body: body === undefined ? undefined : JSON.stringify(body),
				credentials: 'same-origin',
				cache: 'no-store'
			})
		} catch {
			return { ok: false, status: 0, body: null, error: 'The server could not be reached' }
		}
		let parsed: any = null
		try {
			parsed = await response.json()
		} catch {
			// Not JSON: reported below by status.
		}
		const ok = response.ok && parsed?.success !== false
		const error = ok ? undefined : String(parsed?.error ?? `HTTP ${response.status}`)
		return { ok, status: response.status, body: parsed, error }
	}

	/**
	 * POSTs `body` and calls `onEvent` for each server-sent event until the stream ends. A non-stream
	 * answer (validation error, 503) comes back as `JsonResult` without events.
	 */
	async stream(
		path: string,
		body: unknown,
		onEvent: (event: StreamEvent) => void,
		signal: AbortSignal
	): Promise<JsonResult> {
		let response: Response
		try {
			response = await fetch(this.basePath + path, {
				method: 'POST',
				headers: this.headers(true),
				body: JSON.stringify(body),
				credentials: 'same-origin',
				cache: 'no-store',
				signal
			})
		} catch {
			return {
				ok: false,
				status: 0,
				body: null,
				error: signal.aborted ? 'Stopped' : 'The server could not be reached'
			}
		}
		if (
			!response.ok ||
			!response.headers.get('content-type')?.includes('text/event-stream') ||
			!response.body
		) {
			let parsed: any = null
			try {
				parsed = await response.json()
			} catch {
				// Reported by status.
			}
			return {
				ok: false,
				status: response.status,
				body: parsed,
				error: String(parsed?.error ?? `HTTP ${response.status}`)
			}
		}
		const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
		let buffer = ''
		try {
			for (;;) {
				const { done, value } = await reader.read()
				if (done) break
				buffer += value
				let boundary = /\r?\n\r?\n/.exec(buffer)
				while (boundary) {
					const block = buffer.slice(0, boundary.index)
					buffer = buffer.slice(boundary.index + boundary[0].length)
					const event = parseEventBlock(block)
					if (event) onEvent(event)
					boundary = /\r?\n\r?\n/.exec(buffer)
				}
			}
		} catch {
			return {
				ok: false,
				status: response.status,
				body: null,
				error: signal.aborted ? 'Stopped' : 'The stream was interrupted'
			}
		}
		return { ok: true, status: response.status, body: null }
	}
}

/** Parses one event block: its `data:` lines joined; comments (`: keep-alive`) yield nothing. */
export function parseEventBlock(block: string): StreamEvent | null {
	const data = block
		.split(/\r?\n/)
		.filter((line) => line.startsWith('data:'))
		.map((line) => line.slice(5).replace(/^ /, ''))
	if (!data.length) return null
	try {
		const event = JSON.parse(data.join('\n'))
		return event && typeof event.type === 'string' ? event : null
	} catch {
		return null
	}
}
