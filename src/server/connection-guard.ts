/**
 * What both servers' listening socket needs against hostile connections, below the app:
 * - a request whose URL cannot be built (a malformed Host header) is answered with a 400 envelope
 *   before any app code runs;
 * - an error that escapes the app is a 500 envelope and one log line, never Bun's development
 *   error page (it shows the working directory and source excerpts) nor a stack trace per request;
 * - a read deadline: a client has `readTimeoutSeconds` of silence while it sends a request's
 *   headers and body, and between requests on a kept-alive connection, so half-sent requests
 *   cannot pile up until the file descriptors run out. Once the request is read, the handler's own
 *   work has no deadline here (an ask waits on the model, a client call on Instagram, and both end
 *   on their own deadlines); after it answers, the deadline applies again while the response is
 *   written, and to an event stream at least `EVENT_STREAM_DEADLINE_SECONDS`: its keep-alives
 *   (every 5 s for job progress and chat, 15 s for MCP over HTTP) must fall within it, since a
 *   deadline shorter than that cut a stream while a job waited or a tool call ran.
 */
import { UsageError } from '../cli-error'
import { failureResponse } from './envelope'

/** Seconds of silence allowed while a request is read (default of `SMKIT_READ_TIMEOUT`). */
export const DEFAULT_READ_TIMEOUT_SECONDS = 30

/** The shortest deadline while an event stream is written: above every stream's keep-alive interval. */
export const EVENT_STREAM_DEADLINE_SECONDS = 20

/** Bun's limit for a socket's idle timeout. */
const MAX_TIMEOUT_SECONDS = 255

/** Requests whose body is still being read: what ends their read deadline. */
const bodiesBeingRead = new WeakMap<Request, () => void>()

/** Called by body readers once a request's body has been read to its end. */
export function requestBodyRead(request: Request): void {
	bodiesBeingRead.get(request)?.()
	bodiesBeingRead.delete(request)
}

/**
 * The read deadline from `SMKIT_READ_TIMEOUT` (whole seconds, 1-255), else the default when unset
 * or blank. Any other value is a UsageError (exit 2), as a bad `SMKIT_SPEED` is: ignored, a typo
 * left the server on a deadline nobody chose.
 */
export function readTimeoutFromEnv(env: Record<string, string | undefined>): number {
	const text = env.SMKIT_READ_TIMEOUT?.trim()
	if (!text) return DEFAULT_READ_TIMEOUT_SECONDS
	const value = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN
	if (!(value >= 1 && value <= MAX_TIMEOUT_SECONDS))
		throw new UsageError(
			`SMKIT_READ_TIMEOUT must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}, got '${text}'`
		)
	return value
}

/** The subset of Bun's server a fetch handler uses here. */
interface TimeoutControl {
	timeout(request: Request, seconds: number): void
}

/** Sets a request's socket timeout, ignoring a connection that is already gone. */
function setTimeoutOf(server: TimeoutControl, request: Request, seconds: number): void {
	try {
		server.timeout(request, seconds)
	} catch {
		// The client left; nothing to time out.
	}
}

/** Answers an error that escaped the app: a 500 envelope, and the message (not the stack) logged. */
export function internalErrorResponse(error: unknown): Response {
	const message = error instanceof Error ? error.message : String(error)
	console.error(`smkit: internal error: ${message.split('\n')[0].slice(0, 300)}`)
	return failureResponse('Internal server error', 'internal_error')
}

/** A request whose URL cannot be parsed: in practice a malformed Host header. */
export function malformedRequestResponse(): Response {
	return failureResponse('Bad request: malformed Host header or request target', 'bad_request')
}

/** Whether a response is an event stream (`text/event-stream`), written for as long as its source runs. */
function isEventStream(response: Response): boolean {
	return response.headers.get('content-type')?.startsWith('text/event-stream') === true
}

/** `Bun.serve` options wrapping `fetch` with the guards above. */
export function guardedServeOptions(
	fetch: (request: Request) => Response | Promise<Response>,
	readTimeoutSeconds: number = DEFAULT_READ_TIMEOUT_SECONDS
) {
	const streamDeadline = Math.max(readTimeoutSeconds, EVENT_STREAM_DEADLINE_SECONDS)
	return {
		development: false,
		idleTimeout: readTimeoutSeconds,
		error: internalErrorResponse,
		async fetch(request: Request, server: TimeoutControl): Promise<Response> {
			if (!URL.canParse(request.url)) return malformedRequestResponse()
			const endReadDeadline = () => setTimeoutOf(server, request, 0)
			if (request.body === null || request.headers.get('content-length') === '0') endReadDeadline()
			else bodiesBeingRead.set(request, endReadDeadline)
			let response: Response | undefined
			try {
				response = await fetch(request)
				return response
			} catch (error) {
				return internalErrorResponse(error)
			} finally {
				bodiesBeingRead.delete(request)
				setTimeoutOf(
					server,
					request,
					// With the default deadline (30 s) both are the same: no look at the answer per request.
					streamDeadline > readTimeoutSeconds && response && isEventStream(response)
						? streamDeadline
						: readTimeoutSeconds
				)
			}
		}
	}
}
