import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAgentWeb } from '../../src/agentweb/app'
import { reply } from '../support/fake-llm'
import { type ChatHarness, EventReader, jsonRequest, startChatHarness, testApiKey } from './support'

let harness: ChatHarness
let app: ReturnType<ChatHarness['agentWeb']>
const bodies: string[] = []

const send = async (request: Request) => {
	const response = await app.handle(request)
	if (!response.headers.get('content-type')?.includes('event-stream'))
		bodies.push(await response.clone().text())
	return response
}

const readLuna = `const user = await ig.users.getByUsername('luna.explorer')
console.log('followers:', user.follower_count)`

beforeAll(async () => {
	harness = await startChatHarness()
	app = harness.agentWeb({ permission: 'full_access' })
})
afterAll(() => harness.stop())

describe('POST /api/ask', () => {
	test('answers with the ask response after running code against the simulator', async () => {
		const followers = (await harness.client.users.getByUsername('luna.explorer')).follower_count
		harness.llm.setScript([
			reply.code(readLuna, { usage: 40 }),
			reply.text(`She has **${followers}** followers.`, 20)
		])
		const response = await send(jsonRequest('POST', '/api/ask', { message: 'How many followers has luna?' }))
		expect(response.status).toBe(200)
		const body = await response.json()
		expect(body).toMatchObject({
			success: true,
			answer: `She has **${followers}** followers.`,
			code: readLuna,
			files: [],
			steps: 2,
			tokens: 60,
			error: null
		})
		expect(typeof body.duration).toBe('number')
	})

	test('rejects an empty, missing, non-string or too long message with a clear 400', async () => {
		const cases: [unknown, string][] = [
			[{ message: '   ' }, 'Message is empty'],
			[{}, "Missing body field 'message'"],
			[{ message: 42 }, "'message' must be a string"],
			[{ message: 'x'.repeat(8001) }, 'at most 8000'],
			[[1, 2], 'expected a JSON object']
		]
		for (const [body, message] of cases) {
			const response = await send(jsonRequest('POST', '/api/ask', body))
			expect(response.status).toBe(400)
			const parsed = await response.json()
			expect(parsed.success).toBe(false)
			expect(parsed.error).toContain(message)
		}
		const malformed = await send(jsonRequest('POST', '/api/ask', '{"message": '))
		expect(malformed.status).toBe(400)
		expect((await malformed.json()).error).toBe('Request body is not valid JSON')
		// 8000 characters exactly is accepted.
		harness.llm.setScript([reply.text('ok')])
		const longest = await send(jsonRequest('POST', '/api/ask', { message: 'y'.repeat(8000) }))
		expect((await longest.json()).success).toBe(true)
	})
})

describe('POST /api/ask/stream', () => {
	test('streams status, steps, code, calls, results and done as data-only events', async () => {
		harness.llm.setScript([reply.code(readLuna), reply.text('Done reading.')])
		const response = await send(jsonRequest('POST', '/api/ask/stream', { message: 'Read luna' }))
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toStartWith('text/event-stream')
		expect(response.headers.get('cache-control')).toBe('no-cache')
		expect(response.headers.get('x-accel-buffering')).toBe('no')
		const reader = new EventReader(response)
		const events = await reader.all()
		expect(events.map((event) => event.type)).toEqual([
			'status',
			'step',
			'tool_call',
			'code',
			'tool_call',
			'tool_result',
			'tool_result',
			'step',
			'done'
		])
		expect(events.at(-1)).toMatchObject({ type: 'done', success: true, answer: 'Done reading.', steps: 2 })
		expect(events.find((event) => event.type === 'code')?.code).toBe(readLuna)
		// Each event is exactly one `data: <json>` block: no `event:` or `id:` lines.
		expect(reader.raw).not.toMatch(/^(event|id):/m)
		expect(
			reader.raw
				.split('\n\n')
				.filter(Boolean)
				.every((block) => block.startsWith('data: '))
		).toBe(true)
	})

	test('refuses an invalid message with a JSON 400 instead of a stream', async () => {
		const response = await send(jsonRequest('POST', '/api/ask/stream', { message: '' }))
		expect(response.status).toBe(400)
		expect(await response.json()).toEqual({ success: false, error: 'Message is empty' })
	})

	test('a provider failure ends the stream with error then done, naming the provider', async () => {
		harness.llm.setScript([reply.error(401, 'invalid api key')])
		const events = await new EventReader(
			await send(jsonRequest('POST', '/api/ask/stream', { message: 'hi' }))
		).all()
		expect(events.slice(-2).map((event) => event.type)).toEqual(['error', 'done'])
		expect(events.at(-1)).toMatchObject({ success: false })
		expect(String(events.at(-1)?.error)).toContain('OpenAI')
		expect(JSON.stringify(events)).not.toContain(testApiKey)
	})
})

describe('history and reset', () => {
	test('GET /api/history lists the conversation; POST /api/reset clears it', async () => {
		await send(jsonRequest('POST', '/api/reset'))
		harness.llm.setScript([reply.text('Hello there.')])
		await send(jsonRequest('POST', '/api/ask', { message: 'Say hello' }))
		const history = await (await send(jsonRequest('GET', '/api/history'))).json()
		expect(
			history.history.map((entry: { role: string; content: string }) => [entry.role, entry.content])
		).toEqual([
			['user', 'Say hello'],
			['assistant', 'Hello there.']
		])
		expect(typeof history.history[0].timestamp).toBe('number')
		// The next ask sends the earlier turn to the model: one conversation per server.
		harness.llm.setScript([reply.text('Again.')])
		await send(jsonRequest('POST', '/api/ask', { message: 'Once more' }))
		const sent = harness.llm
			.chatRequests()
			.at(-1)
			?.body.messages.map((message: { content: string }) => message.content)
		expect(sent).toContain('Say hello')

		const reset = await send(jsonRequest('POST', '/api/reset'))
		expect(await reset.json()).toEqual({ success: true })
		expect((await (await send(jsonRequest('GET', '/api/history'))).json()).history).toEqual([])
	})
})

describe('without a provider key', () => {
	test('asks answer 503 saying which variable to set; status says unavailable', async () => {
		const before = harness.llm.requests.length
		const keyless = createAgentWeb({ client: harness.client, env: {}, log: () => {} })
		for (const path of ['/api/ask', '/api/ask/stream']) {
			const response = await keyless.handle(jsonRequest('POST', path, { message: 'hi' }))
			expect(response.status).toBe(503)
			const body = await response.json()
			expect(body).toMatchObject({ success: false, answer: '', steps: 0, tokens: 0 })
			expect(body.error).toContain('GEMINI_API_KEY')
			expect(body.error).toContain('--api-key')
		}
		const parallel = await keyless.handle(jsonRequest('POST', '/api/parallel', { tasks: ['a'] }))
		expect(parallel.status).toBe(503)
		expect((await parallel.json()).error).toContain('GEMINI_API_KEY')
		const status = await (await keyless.handle(jsonRequest('GET', '/api/status'))).json()
		expect(status).toMatchObject({ available: false, provider: 'gemini' })
		expect((await (await keyless.handle(jsonRequest('GET', '/api/history'))).json()).history).toEqual([])
		expect(harness.llm.requests.length).toBe(before)
	})
})

describe('status, page and unknown routes', () => {
	test('GET /api/status names provider, model and permission, never the key', async () => {
		const body = await (await send(jsonRequest('GET', '/api/status'))).json()
		expect(body).toMatchObject({
			available: true,
			provider: 'openai',
			label: 'OpenAI',
			model: 'fake-model',
			permission: 'full_access',
			approval_timeout_seconds: 120,
			demo: false,
			busy: false
		})
	})

	test('GET / serves the chat page with a strict CSP, and its script', async () => {
		const page = await send(jsonRequest('GET', '/'))
		expect(page.status).toBe(200)
		expect(page.headers.get('content-type')).toContain('text/html')
		expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'")
		const html = await page.text()
		const script = /src="\.?\/?([^"]+\.js)"/.exec(html)?.[1]
		expect(script).toBeDefined()
		const asset = await send(jsonRequest('GET', `/${script}`))
		expect(asset.status).toBe(200)
		expect(await asset.text()).toContain('ask/stream')
	})

	test('unknown routes answer a JSON 404', async () => {
		const response = await send(jsonRequest('GET', '/api/nothing'))
		expect(response.status).toBe(404)
		expect(await response.json()).toEqual({ success: false, error: 'Not found: GET /api/nothing' })
	})

	test('a known route with another method answers 405 naming the allowed ones, as the playground does', async () => {
		for (const [method, path, allowed] of [
			['GET', '/api/ask', 'POST'],
			['DELETE', '/api/status', 'GET, HEAD'],
			['PUT', '/api/approve', 'POST']
		] as const) {
			const response = await send(jsonRequest(method, path))
			expect(`${method} ${path}: ${response.status} ${response.headers.get('allow')}`).toBe(
				`${method} ${path}: 405 ${allowed}`
			)
			expect(await response.json()).toEqual({
				success: false,
				error: `Method ${method} not allowed on ${path}`
			})
		}
	})

	test('no response body carried the provider key', () => {
		expect(bodies.length).toBeGreaterThan(10)
		for (const body of bodies) expect(body).not.toContain(testApiKey)
	})
})
