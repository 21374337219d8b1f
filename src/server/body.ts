/**
 * Request bodies for both servers: a size limit checked twice (the declared `Content-Length` before
 * anything is read, and the bytes actually received, for chunked uploads that declare nothing) and
 * a JSON parser that turns malformed JSON into a 400 instead of Elysia's bare "Bad Request".
 */
import { Elysia } from 'elysia'
import { requestBodyRead } from './connection-guard'
import { HttpError } from './envelope'
import { urlOf } from './request-url'

/** One mebibyte, the default body limit (docs/api-contract.md, "Limits"). */
export const MiB = 1024 * 1024

/** Body size limits: `limit` everywhere, `limits[path]` for exact paths that need more or less. */
export interface BodyLimitOptions {
	/** Bytes allowed in a request body (default 1 MiB). */
	limit?: number
	/** Per-path overrides, e.g. `{ '/api/export/csv': 10 * MiB }`. */
	limits?: Record<string, number>
}

/** The limit that applies to a request path. */
export function bodyLimitFor(pathname: string, options: BodyLimitOptions): number {
	return options.limits?.[pathname] ?? options.limit ?? MiB
}

const tooLarge = (limit: number) =>
	new HttpError('payload_too_large', `Request body is larger than ${formatByteLimit(limit)}`)

/** "1 MiB", "10 MiB", "512 bytes": limits in messages. */
export function formatByteLimit(bytes: number): string {
	return bytes >= MiB && bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`
}

/**
 * Reads a body as text, stopping with a 413 `HttpError` as soon as more than `limit` bytes arrive,
 * so an oversized upload is never held in memory whole.
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
	if (!request.body) return ''
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) {
			requestBodyRead(request)
			break
		}
		size += value.byteLength
		if (size > limit) {
			await reader.cancel().catch(() => {})
			throw tooLarge(limit)
		}
		chunks.push(value)
	}
	return new TextDecoder().decode(Buffer.concat(chunks, size))
}

/** Throws the 413 `HttpError` when the declared `Content-Length` exceeds the limit. */
export function checkDeclaredLength(request: Request, limit: number): void {
	const declared = request.headers.get('content-length')
	if (declared !== null && Number(declared) > limit) throw tooLarge(limit)
}

/**
 * Elysia plugin: enforces the body limits and parses every body as JSON. An empty body parses to
 * `null` (routes without a body schema ignore it; routes with one answer 400 naming the body).
 * Malformed JSON throws a 400 `HttpError`; Elysia wraps parser errors in its `ParseError`, so the
 * app's `onError` looks at `error.cause` (see `unwrapParseError`).
 */
export function jsonBody(options: BodyLimitOptions = {}) {
	return new Elysia({ name: 'smkit-json-body', seed: options })
		.onRequest(function declaredLength({ request }) {
			// Not an arrow: Elysia awaits a hook whose source looks like `=> call(`, minified too.
			// Most requests declare no length: no limit to look up.
			if (request.headers.has('content-length'))
				checkDeclaredLength(request, bodyLimitFor(urlOf(request).pathname, options))
		})
		.onParse({ as: 'global' }, async ({ request }) => {
			const text = await readBodyText(request, bodyLimitFor(urlOf(request).pathname, options))
			if (text.trim() === '') return null
			try {
				return JSON.parse(text)
			} catch {
				throw new HttpError('bad_request', 'Request body is not valid JSON')
			}
		})
}

/** Elysia reports errors thrown by a parser as `ParseError` with the parser's own error in `cause`. */
export function unwrapParseError(error: unknown): unknown {
	if (error instanceof Error && (error as { code?: unknown }).code === 'PARSE' && error.cause)
		return error.cause
	return error
}
