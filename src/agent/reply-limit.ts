/**
 * A cap on the size of a provider's reply. Replies are not streamed: the SDK reads a whole body
 * before parsing it, with no limit of its own, so an endpoint that never ends its reply would fill
 * the memory of the process (a server, for every person using it). Every body the SDK reads (chat
 * completions, the model list, error bodies) goes through `limitReplySize`, which stops reading
 * past `MAX_REPLY_BYTES` and fails the read with a `ReplyTooLargeError`.
 */

/**
 * The largest reply read from a provider, in bytes (decompressed). Generous: a chat completion or a
 * model list is a few kilobytes to a few hundred, and a reply this big is of no use to the agent.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024

/** A provider's reply was larger than the cap; its body was not read to the end. */
export class ReplyTooLargeError extends Error {
	override name = 'ReplyTooLargeError'
	readonly limit: number

	constructor(limit: number) {
		super(`the reply was larger than ${describeBytes(limit)}`)
		this.limit = limit
	}
}

/** `16 MiB`, `512 KiB` or `100 bytes`. */
export function describeBytes(bytes: number): string {
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
	if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
	return `${bytes} bytes`
}

/** A body that fails once more than `limit` bytes went through it, cancelling the rest. */
function limitedBody(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
	const reader = body.getReader()
	let read = 0
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			const { done, value } = await reader.read()
			if (done) {
				controller.close()
				return
			}
			read += value.byteLength
			if (read > limit) {
				// Stops the transfer: nothing more of the reply is received.
				reader.cancel().catch(() => undefined)
				controller.error(new ReplyTooLargeError(limit))
				return
			}
			controller.enqueue(value)
		},
		cancel(reason) {
			return reader.cancel(reason)
		}
	})
}

/**
 * `fetch` whose responses' bodies fail past `limit` bytes. A declared length over the limit fails
 * before anything is read. The failure comes from reading the body, not from `fetch`, so the SDK
 * does not take it for a connection failure and ask again.
 */
export function limitReplySize(inner: () => typeof fetch, limit = MAX_REPLY_BYTES) {
	return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		const response = await inner()(input, init)
		// A response of these statuses cannot be given a body.
		if (!response.body || [101, 204, 205, 304].includes(response.status)) return response
		const declared = Number(response.headers.get('content-length'))
		let body: ReadableStream<Uint8Array>
		if (Number.isFinite(declared) && declared > limit) {
			response.body.cancel().catch(() => undefined)
			body = new ReadableStream({ start: (controller) => controller.error(new ReplyTooLargeError(limit)) })
		} else {
			body = limitedBody(response.body, limit)
		}
		const limited = new Response(body, {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers
		})
		Object.defineProperty(limited, 'url', { value: response.url })
		return limited
	}
}
