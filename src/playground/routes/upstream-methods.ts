/**
 * Routes that call Instagram answer GET only (docs/api-contract.md, "Errors"). A HEAD there would
 * run the whole GET, spending a request of the client's budgets and risking Instagram's limits for
 * a body nobody reads, and a server cannot know the GET's status or length without making the call:
 * HEAD, like any method but GET, is a 405 envelope with `Allow: GET`, answered before routing and
 * without reaching Instagram. Other routes (status, history, jobs, saved files) keep HEAD.
 */
import { Elysia } from 'elysia'
import { failureResponse } from '../../server/envelope'
import { urlOf } from '../../server/request-url'
import { methodsFor } from '../../server/route-methods'

/** What the guard needs of the app. */
export interface UpstreamMethodOptions {
	/** The app's route table (Elysia's `app.routes`), read when a request needs it. */
	routes: () => readonly { method: string; path: string }[]
	/** Whether a path is one of the API groups' (or analytics') routes, which call Instagram. */
	isDataPath: (pathname: string) => boolean
	/** Told of each refusal (the request history records it, as any other answered request). */
	refused?: (request: Request, refusal: Response, error: string) => void
}

/** A list's comparison calls Instagram for each member too. */
const listComparePath = /^\/api\/lists\/[^/]+\/compare\/?$/

/** Whether a path's routes call Instagram. */
const callsInstagram = (options: UpstreamMethodOptions, pathname: string) =>
	options.isDataPath(pathname) || listComparePath.test(pathname)

/**
 * The refusal of a request for `pathname` with `method`, or undefined: a path that calls Instagram
 * and has a GET route refuses every other method its routes do not serve, HEAD included.
 */
export function upstreamMethodRefusal(
	options: UpstreamMethodOptions,
	method: string,
	pathname: string
): { response: Response; reason: string } | undefined {
	if (!callsInstagram(options, pathname)) return undefined
	const served = methodsFor(options.routes(), pathname).filter((served) => served !== 'HEAD')
	if (!served.includes('GET') || served.includes(method)) return undefined
	const allow = served.join(', ')
	const reason =
		method === 'HEAD'
			? `Method HEAD not allowed on ${pathname}: it would call Instagram for nothing; use GET`
			: `Method ${method} not allowed on ${pathname}`
	return { response: failureResponse(reason, 'method_not_allowed', { allow }), reason }
}

/**
 * The guard as an Elysia plugin; `.use` it after the security guard (which answers the CORS
 * preflights it allows) and before anything that records or handles requests. A GET (nearly every
 * request) goes on at once; the route table is only read for another method on a path that calls
 * Instagram.
 */
export function upstreamMethodGuard(options: UpstreamMethodOptions) {
	// A plain function, not an arrow, that only returns a value: Elysia does not await it per request.
	return new Elysia({ name: 'smkit-upstream-methods' }).onRequest(function refuseUpstreamMethod({ request }) {
		if (request.method === 'GET') return
		const refusal = upstreamMethodRefusal(options, request.method, urlOf(request).pathname)
		if (refusal === undefined) return
		options.refused?.(request, refusal.response, refusal.reason)
		return refusal.response
	})
}
