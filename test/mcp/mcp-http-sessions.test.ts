/**
 * `smkit mcp --http` sessions do not pile up: one unused for the idle limit is closed and its id
 * answers 404 (an MCP client then starts a new session), and past the cap a new session closes
 * the one unused the longest. The app is driven in process with a clock the tests move.
 */
import { describe, expect, it } from 'bun:test'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { mcpHttpApp } from '../../src/mcp/serve'

const MINUTE = 60_000

function setUp(limits: { idleMs?: number; maxSessions?: number }) {
	const clock = { now: Date.UTC(2026, 10, 25, 12, 0, 0) }
	let servers = 0
	const app = mcpHttpApp(
		{ port: 8866 },
		() => {
			servers++
			return new Server({ name: 'test', version: '1.0.0' }, { capabilities: { tools: {} } })
		},
		{ ...limits, now: () => clock.now }
	)
	const send = async (body: object, sessionId?: string) => {
		const response = await app.handle(
			new Request('http://127.0.0.1:8866/mcp', {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {})
				},
				body: JSON.stringify(body)
			})
		)
		return {
			status: response.status,
			session: response.headers.get('mcp-session-id'),
			text: await response.text()
		}
	}
	const open = async () => {
		const answer = await send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } }
		})
		expect(answer.status).toBe(200)
		expect(answer.session).toBeString()
		await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, answer.session as string)
		return answer.session as string
	}
	const ping = (sessionId: string) => send({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionId)
	return { app, clock, open, ping, servers: () => servers }
}

describe('mcp --http sessions', () => {
	it('a session used within the idle limit stays open; one idle past it answers 404 and a new one works', async () => {
		const { clock, open, ping } = setUp({ idleMs: 30 * MINUTE })
		const session = await open()
		clock.now += 29 * MINUTE
		const alive = await ping(session)
		expect(alive.status).toBe(200)
		expect(alive.text).toContain('"result":{}')
		// Each request counts as use: 29 more minutes are still within the limit.
		clock.now += 29 * MINUTE
		expect((await ping(session)).status).toBe(200)
		clock.now += 30 * MINUTE
		const gone = await ping(session)
		expect(gone.status).toBe(404)
		expect(gone.text).toContain('Session not found')
		const renewed = await open()
		expect(renewed).not.toBe(session)
		expect((await ping(renewed)).status).toBe(200)
	})

	it('idle sessions are closed when any request comes in, not only their own', async () => {
		const { clock, open, ping } = setUp({ idleMs: 10 * MINUTE })
		const idle = await open()
		clock.now += 6 * MINUTE
		const busy = await open()
		clock.now += 5 * MINUTE
		// This request sweeps: `idle` is 11 minutes old and closed now, `busy` 5 minutes and kept.
		expect((await ping(busy)).status).toBe(200)
		clock.now -= 2 * MINUTE // even if the clock stepped back, the closed session stays closed
		expect((await ping(idle)).status).toBe(404)
		expect((await ping(busy)).status).toBe(200)
	})

	it('past the cap, a new session closes the one unused the longest', async () => {
		const { clock, open, ping, servers } = setUp({ maxSessions: 2 })
		const first = await open()
		clock.now += MINUTE
		const second = await open()
		clock.now += MINUTE
		expect((await ping(first)).status).toBe(200) // `second` is now the one unused the longest
		clock.now += MINUTE
		const third = await open()
		expect((await ping(second)).status).toBe(404)
		expect((await ping(first)).status).toBe(200)
		expect((await ping(third)).status).toBe(200)
		expect(servers()).toBe(3)
	})

	it('another path answers a JSON 404 naming it, as the other servers do, and opens no session', async () => {
		const { app, servers } = setUp({})
		for (const [method, path] of [
			['GET', '/'],
			['POST', '/mcp/extra'],
			['GET', '/api/status']
		] as const) {
			const response = await app.handle(new Request(`http://127.0.0.1:8866${path}`, { method }))
			expect(`${method} ${path}: ${response.status} ${response.headers.get('content-type')}`).toStartWith(
				`${method} ${path}: 404 application/json`
			)
			expect(await response.json()).toMatchObject({
				success: false,
				error: `Not found: ${method} ${path}`,
				code: 'not_found'
			})
		}
		expect(servers()).toBe(0)
	})
})
