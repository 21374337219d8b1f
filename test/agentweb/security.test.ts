import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { reply } from '../support/fake-llm'
import { type ChatHarness, jsonRequest, startChatHarness } from './support'

// The guards of docs/api-contract.md, "Security", on the agent web server: another site cannot make
// it run a question (not even with a text/plain post), Host must name us, and a server bound
// beyond loopback wants its token.
let harness: ChatHarness
beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript(() => reply.text('should never be asked'))
})
afterAll(() => harness.stop())

const question = JSON.stringify({ message: 'Follow everyone' })

describe('cross-site requests', () => {
	test('a cross-origin text/plain POST is refused before any model call', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const before = harness.llm.requests.length
		for (const path of ['/api/ask', '/api/ask/stream', '/api/parallel', '/api/reset', '/api/approve']) {
			const response = await app.handle(
				new Request(`http://127.0.0.1${path}`, {
					method: 'POST',
					headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
					body: question
				})
			)
			expect(response.status).toBe(403)
			expect((await response.json()).success).toBe(false)
		}
		expect(harness.llm.requests.length).toBe(before)
	})

	test('a same-site text/plain POST is refused too (JSON only), and a cross-origin JSON POST', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const before = harness.llm.requests.length
		const plain = await app.handle(
			new Request('http://127.0.0.1/api/ask', {
				method: 'POST',
				headers: { 'content-type': 'text/plain' },
				body: question
			})
		)
		expect(plain.status).toBe(403)
		const crossJson = await app.handle(
			new Request('http://127.0.0.1/api/ask', {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
				body: question
			})
		)
		expect(crossJson.status).toBe(403)
		expect(harness.llm.requests.length).toBe(before)
	})

	test('a body over 1 MiB is refused with the failure envelope, declared, chunked or to an unknown path', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const before = harness.llm.requests.length
		const big = JSON.stringify({ message: 'x'.repeat(1024 * 1024 + 10) })
		const declared = { 'content-type': 'application/json', 'content-length': String(big.length) }
		const chunked = () =>
			new ReadableStream({
				start(controller) {
					controller.enqueue(new TextEncoder().encode(big))
					controller.close()
				}
			})
		const requests = [
			new Request('http://127.0.0.1/api/ask', { method: 'POST', headers: declared, body: big }),
			new Request('http://127.0.0.1/api/ask', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: chunked()
			}),
			new Request('http://127.0.0.1/api/nowhere', {
				method: 'POST',
				headers: declared,
				body: big
			})
		]
		for (const request of requests) {
			const response = await app.handle(request)
			expect(response.status).toBe(413)
			const body = await response.json()
			expect(body).toMatchObject({ success: false, code: 'payload_too_large' })
			expect(typeof body.timestamp).toBe('number')
			expect(body.error).toContain('1 MiB')
		}
		expect(harness.llm.requests.length).toBe(before)
	})

	test('a foreign Host (DNS rebinding) is refused, even for GET', async () => {
		const app = harness.agentWeb()
		const response = await app.handle(new Request('http://rebound.example/api/history'))
		expect(response.status).toBe(403)
	})

	test('no CORS headers unless an origin is configured', async () => {
		const app = harness.agentWeb()
		const plain = await app.handle(
			new Request('http://127.0.0.1/api/status', { headers: { origin: 'http://localhost:5173' } })
		)
		expect(plain.headers.get('access-control-allow-origin')).toBeNull()
		const allowed = harness.agentWeb({ security: { corsOrigin: 'http://localhost:5173' } })
		const cors = await allowed.handle(
			new Request('http://127.0.0.1/api/status', { headers: { origin: 'http://localhost:5173' } })
		)
		expect(cors.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
	})
})

describe('beyond loopback', () => {
	test('every API request needs the token; the page itself does not', async () => {
		const token = 'agent-web-token-123'
		const app = harness.agentWeb({ permission: 'full_access', security: { host: '0.0.0.0', token } })
		const before = harness.llm.requests.length
		expect((await app.handle(jsonRequest('POST', '/api/ask', { message: 'hi' }))).status).toBe(403)
		expect((await app.handle(jsonRequest('GET', '/api/history'))).status).toBe(403)
		expect(harness.llm.requests.length).toBe(before)
		expect((await app.handle(jsonRequest('GET', '/'))).status).toBe(200)
		const withBearer = await app.handle(
			new Request('http://127.0.0.1/api/history', { headers: { authorization: `Bearer ${token}` } })
		)
		expect(withBearer.status).toBe(200)
		const withQuery = await app.handle(jsonRequest('POST', `/api/ask?token=${token}`, { message: 'hi' }))
		expect((await withQuery.json()).answer).toBe('should never be asked')
	})

	test('building the app for a public address without a token fails closed', () => {
		expect(() => harness.agentWeb({ security: { host: '0.0.0.0' } })).toThrow('access token is required')
	})
})

describe('hostile bodies', () => {
	test('a body nested 20,000 levels deep is a 400 on every chat route, not a 500 with a stack in the log', async () => {
		const logged: string[] = []
		const app = harness.agentWeb({ permission: 'full_access', log: (line) => logged.push(line) })
		const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`
		for (const [path, body] of [
			['/api/ask', `{"message":${deep}}`],
			['/api/ask/stream', `{"message":${deep}}`],
			['/api/approve', `{"id":${deep},"allow":true}`],
			['/api/parallel', `{"tasks":${deep}}`]
		] as const) {
			const response = await app.handle(jsonRequest('POST', path, body))
			expect({ path, status: response.status }).toEqual({ path, status: 400 })
			expect((await response.json()).error).toContain('nested')
		}
		expect(logged).toEqual([])
	})
})
