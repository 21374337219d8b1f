/**
 * A local fake upstream for tests (docs/architecture.md, "Conventions"): `Bun.serve` on 127.0.0.1, an
 * ephemeral port, the
 * given routes and a 404 fallback. Stop it in `afterAll` with `upstream.stop(true)`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Starts the fake upstream with `routes` as `Bun.serve` takes them; `server.url.href` is its base URL. */
export function startUpstream(routes: Record<string, unknown>) {
	return Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		routes: routes as never,
		fetch: () => Response.json({ message: 'no such fixture route', status: 'fail' }, { status: 404 })
	})
}

/** The text of `test/fixtures/<name>` (fixtures are named after the upstream endpoint). */
export function fixtureText(name: string): string {
	return readFileSync(join(import.meta.dir, '..', 'fixtures', name), 'utf8')
}

/** The parsed JSON of `test/fixtures/<name>`. */
export function fixture(name: string): unknown {
	return JSON.parse(fixtureText(name))
}
