/**
 * Guards the simulator's own routes (everything under `/__sim/`, including routes added later),
 * so a web page that scans loopback ports cannot inject faults or read and clear the request log:
 * - Host must name the simulator (DNS rebinding);
 * - a request from another origin (a foreign `Origin`, or `Sec-Fetch-Site: cross-site`) is refused,
 *   except for the placeholder pictures and videos other pages show;
 * - a body must be `application/json`, so cross-site forms and `text/plain` posts fail;
 * - with a control token (demo mode's in-process simulator), every request but health checks and
 *   media needs it as `Authorization: Bearer`.
 * Instagram's own paths are not guarded here: they mimic Instagram, cookies and all.
 */
import { hasBody, hostCheck, presentedToken, sameSecret, unsafeMethods } from '../server/security'

/** Options of `controlGuard`. */
export interface ControlGuardOptions {
	/** The host the simulator is bound to. */
	host: string
	/** The port it listens on (known once listening). */
	port: () => number | undefined
	/** When set, control requests must carry it. */
	token?: string
}

/** Media other origins embed: readable by anyone who can reach the simulator. */
const mediaPath = /^\/__sim\/(img|video)\//
/** Paths served without the control token (GET only). */
const openPath = /^\/__sim\/(health\/?$|img\/|video\/)/

const refuse = (reason: string) =>
	new Response(JSON.stringify({ message: `Forbidden: ${reason}`, status: 'fail' }), {
		status: 403,
		headers: { 'content-type': 'application/json; charset=utf-8' }
	})

/** Builds the check; it returns a 403 response for a refused `/__sim/` request, else undefined. */
export function controlGuard(
	options: ControlGuardOptions
): (request: Request, url: URL) => Response | undefined {
	const hostAllowed = hostCheck(options.host, options.port)
	return (request, url) => {
		if (!hostAllowed(request, url)) return refuse('unknown Host header')
		if (!mediaPath.test(url.pathname)) {
			const origin = request.headers.get('origin')
			if (origin !== null && origin !== url.origin) return refuse('cross-origin request')
			if (request.headers.get('sec-fetch-site') === 'cross-site') return refuse('cross-site request')
		}
		if (unsafeMethods.has(request.method) && hasBody(request)) {
			const mediaType = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase()
			if (mediaType !== 'application/json') return refuse('a request body must be sent as application/json')
		}
		if (options.token && !(request.method === 'GET' && openPath.test(url.pathname))) {
			const given = presentedToken(request, url)
			if (given === undefined || !sameSecret(given, options.token))
				return refuse('missing or wrong control token')
		}
		return undefined
	}
}
