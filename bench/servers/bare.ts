/**
 * Reference (b) of the throughput benchmark: a bare `Bun.serve` answering fixed JSON data, the
 * ceiling of what any Bun HTTP server can do on this machine. Run in its own process:
 * `bun bench/servers/bare.ts <port> <bodies.json>`, where the file maps paths to body texts (the
 * playground's own answers, so both send the same bytes).
 */
import { readFileSync } from 'node:fs'

const [portArgument, bodiesPath] = process.argv.slice(2)
if (!portArgument || !bodiesPath) {
	console.error('usage: bun bench/servers/bare.ts <port> <bodies.json>')
	process.exit(2)
}
// Parsed once and serialised per request, as any JSON endpoint does.
const bodies = new Map(
	Object.entries(JSON.parse(readFileSync(bodiesPath, 'utf8')) as Record<string, string>).map(
		([pathAndQuery, text]) => [pathAndQuery, JSON.parse(text) as unknown]
	)
)

Bun.serve({
	port: Number(portArgument),
	hostname: '127.0.0.1',
	fetch(request) {
		const url = new URL(request.url)
		const body = bodies.get(url.pathname + url.search)
		return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body)
	}
})
