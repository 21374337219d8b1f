/**
 * Request handling behind the simulator's `fetch`: routing with the session and CSRF checks, JSON
 * replies with exact 64-bit numbers, and the fault answers (429, 5xx, challenge, login, hang).
 */
import type { ActiveFault } from './faults'
import { fail, hasCsrf, hasSession, loginRequired, type Reply, type RouteContext, Router } from './http'
import { toJsonText } from './json'
import { accountRoutes } from './routes/account'
import { directRoutes } from './routes/direct'
import { feedRoutes } from './routes/feed'
import { friendshipsRoutes } from './routes/friendships'
import { graphqlRoutes } from './routes/graphql'
import { mediaRoutes } from './routes/media'
import { notificationsRoutes } from './routes/notifications'
import { notFoundPage, publicHtmlRoutes } from './routes/public-html'
import { searchRoutes } from './routes/search'
import { storiesRoutes } from './routes/stories'
import { usersRoutes } from './routes/users'
import type { SessionSwitch } from './session-switch'
import type { SimulatorState } from './state'

/** Callbacks that end pending waits (latency, hang) when the simulator stops. */
export type Waiters = Set<() => void>

/** The largest request body accepted (Instagram's forms are small). */
const MAX_BODY_BYTES = 1024 * 1024

const router = new Router([
	...usersRoutes,
	...searchRoutes,
	...mediaRoutes,
	...feedRoutes,
	...storiesRoutes,
	...friendshipsRoutes,
	...accountRoutes,
	...notificationsRoutes,
	...directRoutes,
	...graphqlRoutes,
	// Last: its `/{username}/` pattern would shadow other one-segment paths.
	...publicHtmlRoutes
])

/** A {@link Reply} as an HTTP response with Instagram's JSON content type. */
export function replyResponse(reply: Reply): Response {
	return new Response(toJsonText(reply.body), {
		status: reply.status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers }
	})
}

async function readForm(request: Request): Promise<URLSearchParams | Reply> {
	const type = request.headers.get('content-type') ?? ''
	const length = Number(request.headers.get('content-length') ?? 0)
	if (length > MAX_BODY_BYTES) return fail(413, 'Request body too large')
	if (type.includes('multipart/form-data')) {
		const form = await request.formData()
		const fields = new URLSearchParams()
		form.forEach((value, key) => {
			if (typeof value === 'string') fields.append(key, value)
		})
		return fields
	}
	const text = await request.text()
	if (text.length > MAX_BODY_BYTES) return fail(413, 'Request body too large')
	// Instagram's endpoints read form bodies (also when the content type is missing), never JSON.
	return type === '' || type.includes('application/x-www-form-urlencoded')
		? new URLSearchParams(text)
		: new URLSearchParams()
}

/** The request without its cookies: how a session the simulator no longer accepts is treated. */
function withoutCookies(request: Request): Request {
	const headers = new Headers(request.headers)
	headers.delete('cookie')
	return new Request(request, { headers })
}

/** What Instagram sends to a browser whose session it no longer accepts: the session cookie, emptied. */
export const ENDED_SESSION_COOKIE =
	'sessionid=""; Domain=.instagram.com; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; Secure; HttpOnly'

/** Shared state of the routes. */
interface RouteShared {
	state: SimulatorState
	origin: string
	session?: SessionSwitch
}

/**
 * Routes one upstream request: 404/405, the session and CSRF checks, then the handler. A session
 * the simulator no longer accepts is answered as an anonymous visitor (or refused on session
 * routes), and every such answer empties the session cookie, as Instagram does.
 */
export async function routeRequest(incoming: Request, url: URL, shared: RouteShared): Promise<Response> {
	const rejected = Boolean(shared.session && shared.session.state !== 'valid' && hasSession(incoming))
	const response = await answer(rejected ? withoutCookies(incoming) : incoming, url, shared, rejected)
	if (rejected) response.headers.append('set-cookie', ENDED_SESSION_COOKIE)
	return response
}

async function answer(request: Request, url: URL, shared: RouteShared, rejected: boolean): Promise<Response> {
	const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`
	const matched = router.match(request.method, path)
	if (matched === 'wrong-method') return replyResponse(fail(405, 'Method not allowed'))
	if (matched === null)
		return path.startsWith('/api/') ? replyResponse(fail(404, 'Page not found')) : notFoundPage()
	const { route, params } = matched
	const authenticated = hasSession(request)
	if (route.access === 'session' && rejected && shared.session)
		return replyResponse(shared.session.refusal(shared.origin))
	if (route.access === 'session' && (!authenticated || (route.method === 'POST' && !hasCsrf(request)))) {
		return replyResponse(loginRequired())
	}
	const form = route.method === 'POST' ? await readForm(request) : new URLSearchParams()
	if (!(form instanceof URLSearchParams)) return replyResponse(form)
	const context: RouteContext = {
		request,
		url,
		params,
		query: url.searchParams,
		form,
		state: shared.state,
		origin: shared.origin,
		viewerPk: authenticated ? shared.state.viewerPk : null,
		now: Math.floor(Date.now() / 1000)
	}
	try {
		const result = await route.handle(context)
		return result instanceof Response ? result : replyResponse(result)
	} catch (error) {
		// A simulator bug: answer like Instagram's generic failure and say what broke on stderr.
		console.error(
			`simulator: ${request.method} ${url.pathname} failed:`,
			error instanceof Error ? error.message : error
		)
		return replyResponse(fail(500, 'Oops, an error occurred.'))
	}
}

/** Waits `ms`, ending early when the client goes away or the simulator stops. */
export function delay(ms: number, request: Request, waiters: Waiters): Promise<void> {
	return new Promise((resolve) => {
		const finish = () => {
			clearTimeout(timer)
			waiters.delete(finish)
			resolve()
		}
		const timer = setTimeout(finish, ms)
		waiters.add(finish)
		request.signal.addEventListener('abort', finish, { once: true })
	})
}

const ERROR_PAGE =
	'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error • Instagram</title></head>' +
	'<body><h1>Oops, an error occurred.</h1><p>Please try again later.</p></body></html>'

/** The answer of a terminal fault; null for `latency` and `malformed`, which change a normal answer. */
export async function applyFault(
	fault: ActiveFault,
	request: Request,
	url: URL,
	origin: string,
	waiters: Waiters
): Promise<Response | null> {
	switch (fault.kind) {
		case 'rate_limit': {
			const response = replyResponse(fail(429, 'Please wait a few minutes before you try again.'))
			response.headers.set('retry-after', String(fault.retryAfter ?? 1))
			return response
		}
		case 'server_error': {
			const status = fault.status ?? 500
			const format = fault.format ?? (status === 500 ? 'json' : 'html')
			if (format === 'json') return replyResponse(fail(status, 'Oops, an error occurred.'))
			return new Response(ERROR_PAGE, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
		}
		case 'challenge':
			return replyResponse(
				fail(400, 'challenge_required', {
					challenge: {
						url: `${origin}/challenge/?next=${encodeURIComponent(url.pathname)}`,
						api_path: '/challenge/',
						hide_webview_header: true,
						lock: true,
						logout: false,
						native_flow: true
					}
				})
			)
		case 'login':
			return replyResponse(loginRequired())
		case 'hang':
			// Answer nothing until the client gives up (the answer then goes nowhere) or the simulator stops.
			await delay(2 ** 31 - 1, request, waiters)
			return replyResponse(fail(503, 'Simulator stopped'))
		default:
			return null
	}
}
