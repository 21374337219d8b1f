/**
 * The parsed URL of a request, parsed once: the security guard, the body limits, the request
 * history and the error handler all need it, and parsing it again in each was measurable
 * per-request work on the hot path (`npm run bench`, profile endpoint).
 */

const parsed = new WeakMap<Request, URL>()

/**
 * The request's URL, parsed on first use and shared afterwards. Callers must not modify it
 * (it is the same object for every caller of the same request).
 */
export function urlOf(request: Request): URL {
	let url = parsed.get(request)
	if (url === undefined) {
		url = new URL(request.url)
		parsed.set(request, url)
	}
	return url
}
