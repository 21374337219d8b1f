/**
 * Small helpers of the app's hooks: what a handler's return value means for the request history,
 * and how it is sent.
 */

/** How a handled request went, for the history. */
export interface Outcome {
	status: number
	success: boolean
	message?: string
	error?: string
	/** The response is a success envelope carrying `data` (what `POST /api/save` can keep). */
	isData: boolean
}

/** Reads status, success and message from whatever a handler returned. */
export function outcomeOf(responseValue: unknown, setStatus: unknown): Outcome {
	if (responseValue instanceof Response) {
		const success = responseValue.ok
		const disposition = responseValue.headers.get('content-disposition')
		const fileName = disposition ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined
		const message = fileName ? `Download ${fileName}` : `HTTP ${responseValue.status}`
		return {
			status: responseValue.status,
			success,
			isData: false,
			...(success ? { message } : { error: message })
		}
	}
	const status = typeof setStatus === 'number' ? setStatus : 200
	if (typeof responseValue === 'object' && responseValue !== null && 'success' in responseValue) {
		const body = responseValue as { success: unknown; message?: unknown; error?: unknown; data?: unknown }
		if (body.success === true) {
			return {
				status,
				success: status < 400,
				message: typeof body.message === 'string' ? body.message : '',
				isData: 'data' in body
			}
		}
		return {
			status,
			success: false,
			error: typeof body.error === 'string' ? body.error : 'failed',
			isData: false
		}
	}
	return { status, success: status < 400, message: '', isData: false }
}

/** Content type of an envelope, as Elysia's own mapping sets it. */
const JSON_CONTENT_TYPE = 'application/json;charset=utf-8'

/** What `envelopeResponse` reads and resets of Elysia's `set`. */
interface ResponseSet {
	headers: Record<string, unknown>
	status?: number | string
	cookie?: unknown
}

/**
 * A handler's envelope (a plain object or array) as a response serialised with `JSON.stringify`:
 * Bun's `Response.json`, which Elysia maps objects with, took several times longer for a profile
 * envelope (measured per request on the playground's hot path). The status and headers set by the
 * handler and the hooks move onto the response, and `set` is reset, so Elysia returns the
 * response as it is. Undefined for anything else (Elysia maps it as usual). `serialised` gets the
 * JSON text (the request history keeps it in place of the envelope's objects).
 */
export function envelopeResponse(
	value: unknown,
	set: ResponseSet,
	serialised?: (envelope: object, text: string) => void
): Response | undefined {
	if (typeof value !== 'object' || value === null) return undefined
	const prototype = Object.getPrototypeOf(value)
	if (prototype !== Object.prototype && prototype !== Array.prototype) return undefined
	const status = set.status ?? 200
	if (typeof status !== 'number' || set.cookie !== undefined) return undefined
	const headers = set.headers
	if ('content-type' in headers || 'set-cookie' in headers) return undefined
	const text = JSON.stringify(value)
	serialised?.(value, text)
	const response = new Response(text, {
		status,
		headers: { ...(headers as Record<string, string>), 'content-type': JSON_CONTENT_TYPE }
	})
	set.headers = Object.create(null)
	set.status = 200
	return response
}
