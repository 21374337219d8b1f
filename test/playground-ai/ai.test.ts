import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { PermissionLevel } from '../../src/agent/permissions'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import {
	type ChatHarness,
	EventReader,
	followLuna,
	lunaPk,
	startChatHarness,
	testApiKey
} from '../agentweb/support'
import { reply } from '../support/fake-llm'

// AI in the playground (docs/api-contract.md, "Chat"): the same agent and approval flow under /api/ai/*,
// the provider
// chosen from the environment's AI keys, ask in the AI ask response shape, the rest envelopes.
let harness: ChatHarness
beforeAll(async () => {
	harness = await startChatHarness()
})
afterAll(() => harness.stop())

function playground(
	permission: PermissionLevel,
	env: Record<string, string> = {},
	approvalTimeoutMs?: number
) {
	const ai = createPlaygroundAi({
		client: harness.client,
		// Only OpenAI's key is set, so OpenAI is chosen; its endpoint is the fake server.
		env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: harness.llm.url, ...env },
		permission,
		approvalTimeoutMs,
		filesDir: harness.filesDir,
		modelOptions: { maxRetries: 0, timeoutMs: 10_000 },
		log: () => {}
	})
	const app = createPlaygroundApp({ ig: harness.client, ai, permission, demo: true, log: () => {} })
	const call = (method: string, path: string, body?: unknown) =>
		app.handle(
			new Request(`http://127.0.0.1${path}`, {
				method,
				headers: body === undefined ? {} : { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body)
			})
		)
	return { ai, app, call }
}

describe('provider choice and status', () => {
	test('the first provider whose key is set is used; /api/status reports it', async () => {
		const { ai, call } = playground('full_access')
		// OPENAI_BASE_URL names another server: the model is the first it lists, asked on the first ask.
		expect(ai).toMatchObject({ available: true, provider: 'openai', model: 'auto' })
		const status = await (await call('GET', '/api/status')).json()
		expect(status.data).toMatchObject({ ai_available: true, ai_provider: 'openai', ai_model: 'auto' })
		expect(JSON.stringify(status)).not.toContain(testApiKey)
		harness.llm.setScript([reply.text('Hi.')])
		expect((await call('POST', '/api/ai/ask', { message: 'hi' })).status).toBe(200)
		const after = await (await call('GET', '/api/status')).json()
		expect(after.data.ai_model).toBe('fake-model')
	})

	test('a gemini key comes first when both are set', () => {
		const ai = createPlaygroundAi({
			client: harness.client,
			env: { OPENAI_API_KEY: 'a', GEMINI_API_KEY: 'b' }
		})
		expect(ai.provider).toBe('gemini')
	})
})

describe('POST /api/ai/ask', () => {
	test('returns the AI ask response plus timestamp', async () => {
		const { call } = playground('full_access')
		harness.llm.setScript([
			reply.code('console.log(40 + 2)', { usage: 10 }),
			reply.text('The answer is 42.', 5)
		])
		const response = await call('POST', '/api/ai/ask', { message: 'What is 40 + 2?' })
		expect(response.status).toBe(200)
		const body = await response.json()
		expect(body).toMatchObject({
			success: true,
			answer: 'The answer is 42.',
			code: 'console.log(40 + 2)',
			files: [],
			steps: 2,
			tokens: 15,
			error: null
		})
		expect(typeof body.duration).toBe('number')
		expect(typeof body.timestamp).toBe('number')
		// The model was asked with the key from the environment, at the configured endpoint.
		expect(harness.llm.chatRequests().at(-1)?.headers.authorization).toBe(`Bearer ${testApiKey}`)
	})

	test('validation failures are 400 envelopes naming the problem', async () => {
		const { call } = playground('full_access')
		for (const [body, message] of [
			[{ message: '' }, 'Message is empty'],
			[{}, "Missing body field 'message'"],
			[{ message: 'z'.repeat(8001) }, 'at most 8000']
		] as const) {
			const response = await call('POST', '/api/ai/ask', body)
			expect(response.status).toBe(400)
			const parsed = await response.json()
			expect(parsed).toMatchObject({ success: false, code: 'bad_request' })
			expect(parsed.error).toContain(message)
		}
	})

	test('under ask_once the JSON ask cannot ask: denied, and the error says where to approve', async () => {
		await harness.client.friendships.unfollow(lunaPk)
		const { call } = playground('ask_once')
		harness.llm.setScript([reply.code(followLuna), reply.text('I could not follow.')])
		const body = await (await call('POST', '/api/ai/ask', { message: 'Follow luna' })).json()
		expect(body.success).toBe(false)
		expect(body.answer).toBe('I could not follow.')
		expect(body.error).toContain("playground's AI Chat panel")
		expect(body.error).toContain('--permission full_access')
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
	})
})

describe('POST /api/ai/ask/stream and approvals', () => {
	test('streams status ... done; approving then denying decides what runs', async () => {
		await harness.client.friendships.unfollow(lunaPk)
		const { call } = playground('ask_every')
		harness.llm.setScript((_request, index) =>
			index === 0 ? reply.code(followLuna) : reply.text('Finished.')
		)
		const response = await call('POST', '/api/ai/ask/stream', { message: 'Follow luna' })
		expect(response.headers.get('content-type')).toStartWith('text/event-stream')
		expect(response.headers.get('x-accel-buffering')).toBe('no')
		const reader = new EventReader(response)
		expect((await reader.next())?.type).toBe('status')
		const codeRequest = await reader.until((event) => event.type === 'permission')
		const approved = await call('POST', '/api/ai/approve', { id: codeRequest.id, allow: true })
		expect(await approved.json()).toMatchObject({ success: true, data: { id: codeRequest.id, allow: true } })
		const writeRequest = await reader.until((event) => event.type === 'permission')
		expect(writeRequest.method).toBe('friendships.follow')
		await call('POST', '/api/ai/approve', { id: writeRequest.id, allow: false })
		const events = await reader.all()
		expect(events.at(-1)).toMatchObject({ type: 'done', success: true, answer: 'Finished.' })
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
		const stale = await call('POST', '/api/ai/approve', { id: writeRequest.id, allow: true })
		expect(stale.status).toBe(404)
		expect((await stale.json()).code).toBe('not_found')
	})

	test('an approval not given in time is denied', async () => {
		const { call } = playground('ask_every', {}, 150)
		harness.llm.setScript([reply.code('console.log(1)'), reply.text('ok')])
		const reader = new EventReader(await call('POST', '/api/ai/ask/stream', { message: 'run' }))
		const events = await reader.all()
		expect(events.find((event) => event.outcome)).toMatchObject({ outcome: 'timed_out' })
		expect(events.some((event) => event.type === 'code')).toBe(false)
	})
})

describe('history and reset', () => {
	test('GET /api/ai/history is an envelope of entries; reset clears it; history polls stay out of the request history', async () => {
		const { call } = playground('full_access')
		harness.llm.setScript([reply.text('Hi!')])
		await call('POST', '/api/ai/ask', { message: 'Hello' })
		const history = await (await call('GET', '/api/ai/history')).json()
		expect(history).toMatchObject({ success: true })
		expect(
			history.data.map((entry: { role: string; content: string }) => [entry.role, entry.content])
		).toEqual([
			['user', 'Hello'],
			['assistant', 'Hi!']
		])
		const reset = await (await call('POST', '/api/ai/reset')).json()
		expect(reset).toMatchObject({ success: true, data: { reset: true } })
		expect((await (await call('GET', '/api/ai/history')).json()).data).toEqual([])
		const requests = (await (await call('GET', '/api/history')).json()).data.map(
			(entry: { path: string }) => entry.path
		)
		expect(requests).toContain('/api/ai/ask')
		expect(requests).not.toContain('/api/ai/history')
	})
})

describe('without a key', () => {
	test('every AI route answers the 503 ai_unavailable envelope', async () => {
		const ai = createPlaygroundAi({ client: harness.client, env: {}, log: () => {} })
		expect(ai).toMatchObject({ available: false, provider: null, model: null })
		const app = createPlaygroundApp({ ig: harness.client, ai, log: () => {} })
		const before = harness.llm.requests.length
		for (const path of ['/api/ai/ask', '/api/ai/ask/stream']) {
			const response = await app.handle(
				new Request(`http://127.0.0.1${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ message: 'hi' })
				})
			)
			expect(response.status).toBe(503)
			const body = await response.json()
			expect(body).toMatchObject({ success: false, code: 'ai_unavailable' })
			expect(Object.keys(body).sort()).toEqual(['code', 'error', 'success', 'timestamp'])
			expect(body.error).toContain('GEMINI_API_KEY')
			// The playground takes no --api-key or --provider: the message does not send people there.
			expect(body.error).not.toContain('--')
			expect(typeof body.timestamp).toBe('number')
		}
		const history = await app.handle(new Request('http://127.0.0.1/api/ai/history'))
		expect(history.status).toBe(503)
		expect((await history.json()).code).toBe('ai_unavailable')
		const reset = await app.handle(new Request('http://127.0.0.1/api/ai/reset', { method: 'POST' }))
		expect((await reset.json()).code).toBe('ai_unavailable')
		expect(harness.llm.requests.length).toBe(before)
	})
})

describe('with a malformed OPENAI_BASE_URL', () => {
	test('the playground starts with AI off, and the 503 names the variable to fix', async () => {
		const ai = createPlaygroundAi({
			client: harness.client,
			env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: 'localhost:8000/v1' },
			log: () => {}
		})
		expect(ai).toMatchObject({ available: false, provider: null, model: null })
		const app = createPlaygroundApp({ ig: harness.client, ai, log: () => {} })
		const before = harness.llm.requests.length
		const response = await app.handle(
			new Request('http://127.0.0.1/api/ai/ask', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'hi' })
			})
		)
		expect(response.status).toBe(503)
		const body = await response.json()
		expect(body).toMatchObject({ success: false, code: 'ai_unavailable' })
		expect(body.error).toContain('OPENAI_BASE_URL is not an http(s) URL')
		expect(JSON.stringify(body)).not.toContain(testApiKey)
		expect(harness.llm.requests.length).toBe(before)
	})
})

describe('security', () => {
	test('a cross-origin text/plain POST to /api/ai/ask is refused before any model call', async () => {
		const { app } = playground('full_access')
		const before = harness.llm.requests.length
		const response = await app.handle(
			new Request('http://127.0.0.1/api/ai/ask/stream', {
				method: 'POST',
				headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
				body: JSON.stringify({ message: 'follow everyone' })
			})
		)
		expect(response.status).toBe(403)
		expect((await response.json()).code).toBe('forbidden')
		expect(harness.llm.requests.length).toBe(before)
	})
})
