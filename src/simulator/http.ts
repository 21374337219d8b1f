/**
 * The small HTTP layer of the simulator: route tables, Instagram-style replies, the session cookie
 * check and form/query helpers. Routes return a {@link Reply}; the server writes it as JSON text with
 * exact 64-bit numbers (see json.ts).
 */
import { DEMO_CREDENTIALS } from './credentials'
import type { SimulatorState } from './state'
import type { ViewContext } from './views-user'

/** A JSON answer: the body is serialised with bigint support. */
export interface Reply {
	status: number
	body: unknown
	headers?: Record<string, string>
}

/** Who may call a route: `session` needs the demo session cookie; `public` also answers anonymously. */
export type Access = 'session' | 'public'

/** What a route handler receives. */
export interface RouteContext extends ViewContext {
	request: Request
	url: URL
	params: Record<string, string>
	query: URLSearchParams
	/** The form body of a POST (empty for GET). */
	form: URLSearchParams
	state: SimulatorState
}

/** One served upstream path. `path` uses `:name` for one segment and always ends with `/`. */
export interface Route {
	method: 'GET' | 'POST'
	path: string
	access: Access
	handle(context: RouteContext): Reply | Response | Promise<Reply | Response>
}

/** A success body: Instagram adds `status: "ok"` to every one. */
export function ok(body: Record<string, unknown>, status = 200): Reply {
	return { status, body: { ...body, status: 'ok' } }
}

/** A failure body `{message, status: "fail"}` plus extra fields. */
export function fail(status: number, message: string, extra: Record<string, unknown> = {}): Reply {
	return { status, body: { message, ...extra, status: 'fail' } }
}

/** Instagram's answer to a request without a valid session. */
export const loginRequired = (): Reply => fail(403, 'login_required', { require_login: true })
/** Unknown account. */
export const userNotFound = (): Reply => fail(404, 'User not found')
/** Unknown (or hidden) post. */
export const mediaNotFound = (): Reply => fail(404, 'Media not found or unavailable')
/** A private account the viewer does not follow. */
export const notAuthorized = (): Reply => fail(400, 'Not authorized to view user')

/** Cookies of a request, values as sent (not decoded; Instagram's own values carry `%3A`). */
export function parseCookies(header: string | null): Map<string, string> {
	const cookies = new Map<string, string>()
	for (const part of (header ?? '').split(';')) {
		const separator = part.indexOf('=')
		if (separator > 0) cookies.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim())
	}
	return cookies
}

function sameToken(sent: string | undefined, expected: string): boolean {
	if (sent === undefined) return false
	if (sent === expected) return true
	try {
		return decodeURIComponent(sent) === decodeURIComponent(expected)
	} catch {
		return false
	}
}

/** Whether the request carries the demo session cookie. */
export function hasSession(request: Request): boolean {
	return sameToken(parseCookies(request.headers.get('cookie')).get('sessionid'), DEMO_CREDENTIALS.sessionId)
}

/** Whether a POST carries the csrftoken cookie and a matching `x-csrftoken` header, as Instagram requires. */
export function hasCsrf(request: Request): boolean {
	const cookie = parseCookies(request.headers.get('cookie')).get('csrftoken')
	const header = request.headers.get('x-csrftoken') ?? undefined
	return sameToken(cookie, DEMO_CREDENTIALS.csrfToken) && sameToken(header, DEMO_CREDENTIALS.csrfToken)
}

interface CompiledRoute {
	route: Route
	pattern: RegExp
	names: string[]
}

/** A route table: first registered match wins. */
export class Router {
	private readonly compiled: CompiledRoute[] = []

	constructor(routes: readonly Route[]) {
		for (const route of routes) {
			const names: string[] = []
			const source = route.path
				.split('/')
				.map((segment) => {
					if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
					names.push(segment.slice(1))
					return '([^/]+)'
				})
				.join('/')
			this.compiled.push({ route, pattern: new RegExp(`^${source}$`), names })
		}
	}

	/** The route for a method and path (normalised to end with `/`), or whether only the method is wrong. */
	match(
		method: string,
		path: string
	): { route: Route; params: Record<string, string> } | 'wrong-method' | null {
		let wrongMethod = false
		for (const { route, pattern, names } of this.compiled) {
			const found = pattern.exec(path)
			if (!found) continue
			if (route.method !== method && !(route.method === 'GET' && method === 'HEAD')) {
				wrongMethod = true
				continue
			}
			const params: Record<string, string> = {}
			names.forEach((name, index) => {
				params[name] = safeDecode(found[index + 1] as string)
			})
			return { route, params }
		}
		return wrongMethod ? 'wrong-method' : null
	}
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text)
	} catch {
		return text
	}
}

/** A JSON value from a query or form field, or undefined when it is missing or not JSON. */
export function parseJsonField(text: string | null): unknown {
	if (text === null || text === '') return undefined
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}
