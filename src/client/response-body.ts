/**
 * Reading an upstream answer's body with a size limit (docs/instagram.md, "Errors"). The origin is
 * whatever `SMKIT_UPSTREAM_URL` or a proxy makes it, so an answer may be endless or a compression
 * bomb (fetch inflates gzip, deflate, br and zstd on its own): read whole, one such answer held
 * gigabytes in the server's memory. Instagram's largest answers (a profile page's HTML, a feed page)
 * are a few MiB; past the limit the read stops and the request fails.
 */
import { IgApiError } from './errors'

/** The largest upstream body read, after decompression: several times Instagram's largest answer. */
export const MAX_UPSTREAM_BODY_BYTES = 16 * 1024 * 1024

/** The limit as it reads in messages. */
const limitText = (maxBytes: number) =>
	maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`

/**
 * The body of `response` as text, or an `upstream_error` naming `endpoint` once more than
 * `maxBytes` arrive (or are declared). The body is cancelled then, so nothing more is read.
 */
export async function readUpstreamText(
	response: Response,
	endpoint: string,
	maxBytes = MAX_UPSTREAM_BODY_BYTES
): Promise<string> {
	const tooLarge = () =>
		new IgApiError(
			'upstream_error',
			`Instagram's answer is larger than ${limitText(maxBytes)} (HTTP ${response.status} from ${endpoint})`,
			{ upstreamStatus: response.status, endpoint }
		)
	const declared = Number(response.headers.get('content-length') ?? Number.NaN)
	const encoded = (response.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity'
	if (!encoded && declared > maxBytes) {
		await response.body?.cancel().catch(() => {})
		throw tooLarge()
	}
	// A declared length that fits, not inflated: the body cannot grow past it, and the native read
	// is the fastest (the simulator's answers, on the playground's hot path).
	if (!encoded && Number.isFinite(declared)) return response.text()
	const reader = response.body?.getReader()
	if (!reader) return ''
	const decoder = new TextDecoder()
	const parts: string[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > maxBytes) {
			await reader.cancel().catch(() => {})
			throw tooLarge()
		}
		parts.push(decoder.decode(value, { stream: true }))
	}
	parts.push(decoder.decode())
	return parts.join('')
}
