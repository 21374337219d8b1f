/**
 * Which methods an app serves on a path, from Elysia's route table: both servers answer a known
 * path with the wrong method 405 with an `Allow` header (docs/api-contract.md, "Errors"), where
 * Elysia alone would answer 404.
 */

/** A route as Elysia lists it in `app.routes`. */
interface RouteEntry {
	method: string
	path: string
}

const patternCache = new Map<string, RegExp>()

/** `/api/users/username/:username` as a regular expression over one concrete path. */
function routePattern(path: string): RegExp {
	let pattern = patternCache.get(path)
	if (!pattern) {
		const source = path
			.split('/')
			.map((segment) => {
				if (segment === '*') return '.*'
				if (segment.startsWith(':')) return segment.endsWith('?') ? '[^/]*' : '[^/]+'
				return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
			})
			.join('/')
		pattern = new RegExp(`^${source}/?$`)
		patternCache.set(path, pattern)
	}
	return pattern
}

/** Methods the app serves on a concrete path (empty when no route matches it at all). */
export function methodsFor(routes: readonly RouteEntry[], pathname: string): string[] {
	const methods = new Set<string>()
	for (const route of routes) {
		if (route.method === 'ALL' || route.method === 'WS') continue
		if (routePattern(route.path).test(pathname)) methods.add(route.method)
	}
	if (methods.has('GET')) methods.add('HEAD')
	return [...methods]
}
