/**
 * Reference (c) of the throughput benchmark: the least a Bun server can do to answer the
 * playground's profile and followers endpoints. For each request it fetches the same upstream URL
 * with the same headers as the client, `JSON.parse`s the answer, picks the same fields (the
 * client's own normalisers) and `JSON.stringify`s the envelope; no routing framework, checks,
 * history, stats, budgets or retries. Run in its own process:
 * `bun bench/servers/minimal.ts <port> <upstream origin>` (the simulator, with the demo session).
 */
import { authenticatedHeaders } from '../../src/client/headers'
import { normalizeUser, normalizeUserShort } from '../../src/client/normalize/user'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'

const [portArgument, upstream] = process.argv.slice(2)
if (!portArgument || !upstream) {
	console.error('usage: bun bench/servers/minimal.ts <port> <upstream origin>')
	process.exit(2)
}
const headers = authenticatedHeaders({ ...DEMO_CREDENTIALS }, upstream)
const PROFILE = /^\/api\/users\/username\/([^/]+)$/
const FOLLOWERS = /^\/api\/friendships\/followers\/(\d+)$/

const envelope = (data: unknown, message: string, extra: Record<string, unknown> = {}) =>
	new Response(JSON.stringify({ success: true, message, data, timestamp: Date.now() / 1000, ...extra }), {
		headers: { 'content-type': 'application/json' }
	})

async function upstreamJson(path: string): Promise<Record<string, unknown>> {
	const answer = await fetch(upstream + path, { headers })
	return JSON.parse(await answer.text()) as Record<string, unknown>
}

Bun.serve({
	port: Number(portArgument),
	hostname: '127.0.0.1',
	async fetch(request) {
		const url = new URL(request.url)
		const profile = PROFILE.exec(url.pathname)
		if (profile) {
			const username = profile[1] as string
			const body = await upstreamJson(`/api/v1/users/web_profile_info/?username=${username}`)
			const user = (body.data as { user?: unknown } | undefined)?.user
			return envelope(normalizeUser(user), `Profile: @${username}`)
		}
		const followers = FOLLOWERS.exec(url.pathname)
		if (followers) {
			const pk = followers[1] as string
			const count = url.searchParams.get('count') ?? '50'
			const body = await upstreamJson(`/api/v1/friendships/${pk}/followers/?count=${count}`)
			const users = Array.isArray(body.users) ? body.users.map(normalizeUserShort) : []
			return envelope(users, `Followers of ${pk}: ${users.length} users`, {
				next_cursor: typeof body.next_max_id === 'string' ? body.next_max_id : null
			})
		}
		return new Response('not found', { status: 404 })
	}
})
