/**
 * Downloads from the playground API (CSV exports, job records): the file the server answers with,
 * named as its Content-Disposition says (reduced to a plain base name), or the error envelope as
 * an ApiResult.
 */
import { requestHeaders } from '../../common/request'
import { type ApiResult, reached } from './api'

/** A file the server sent as a download. */
export interface Download {
	blob: Blob
	fileName: string
}

/**
 * POSTs JSON (or GETs, when `body` is undefined) and returns the file the server answers with, or
 * the error envelope as an ApiResult.
 */
export async function apiDownload(
	path: string,
	body: unknown,
	fallbackName: string
): Promise<Download | ApiResult> {
	const started = performance.now()
	const method = body === undefined ? 'GET' : 'POST'
	try {
		const response = await fetch(path, {
			method,
			headers: requestHeaders({ json: body !== undefined }),
			body: body === undefined ? undefined : JSON.stringify(body),
			cache: 'no-store'
		})
		reached(true)
		const type = response.headers.get('Content-Type') ?? ''
		const disposition = response.headers.get('Content-Disposition')
		// A JSON file is a download too when the server sends it as an attachment.
		if (response.ok && (!type.includes('application/json') || /^\s*attachment/i.test(disposition ?? ''))) {
			const fileName = fileNameFromDisposition(disposition) ?? fallbackName
			return { blob: await response.blob(), fileName }
		}
		const envelope = (await response.json().catch(() => ({}))) as Record<string, unknown>
		return {
			ok: false,
			status: response.status,
			error: typeof envelope.error === 'string' ? envelope.error : `Export failed (HTTP ${response.status}).`,
			code: typeof envelope.code === 'string' ? envelope.code : 'bad_response',
			durationMs: performance.now() - started,
			sizeBytes: 0,
			method,
			path
		}
	} catch (error) {
		const message = `The playground server did not answer (${error instanceof Error ? error.message : String(error)}).`
		reached(false, message)
		return {
			ok: false,
			status: 0,
			error: message,
			code: 'network_error',
			durationMs: performance.now() - started,
			sizeBytes: 0,
			method,
			path
		}
	}
}

/**
 * The file name from a Content-Disposition header (`filename*=UTF-8''…` or `filename="…"`),
 * reduced to a plain base name so it can only name a download, never a path.
 */
export function fileNameFromDisposition(header: string | null): string | null {
	if (!header) return null
	let name: string | null = null
	const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
	if (extended) {
		try {
			name = decodeURIComponent(extended[1].trim())
		} catch {
			name = null
		}
	}
	if (!name) {
		const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(header)
		name = plain ? (plain[1] ?? plain[2] ?? null) : null
	}
	if (!name) return null
	const base = name.split(/[\\/]/).pop() ?? ''
	return base.replace(/[^\w.\- ]/g, '_').slice(0, 150) || null
}
