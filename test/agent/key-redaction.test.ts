/**
 * The configured API key never shows in what the agent answers, streams or keeps for display
 * (docs/api-contract.md, "Security"), though a person may type it and a model may repeat it: not in
 * the answer, the code, the events, `getHistory()`, the agent web server's /api/history or the
 * playground's /api/ai/history, raw or URL- or JSON-encoded. The provider is still sent the
 * person's own words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { AgentEvent } from '../../src/agent/events'
import type { ApprovalRequest } from '../../src/agent/permissions'
import { resolveProvider } from '../../src/agent/providers'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import { type ChatHarness, jsonRequest, startChatHarness, testApiKey } from '../agentweb/support'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'

/** A key with characters that URL and JSON encoding change. */
const key = 'sk-SECRET+KEY/123"456'

let harness: Harness
let chat: ChatHarness
beforeAll(async () => {
	harness = await startHarness()
	chat = await startChatHarness()
})
afterAll(async () => {
	await harness.stop()
	await chat.stop()
})

/** Neither the key nor its URL- or JSON-encoded spelling is in the value's JSON. */
const expectNoKey = (value: unknown, secret = key) => {
	const text = JSON.stringify(value)
	for (const spelling of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])
		expect(text).not.toContain(spelling)
}

describe('the configured key in a question and in the model’s words', () => {
	test('is redacted from the answer, code, events and history; the provider gets the question as typed', async () => {
		harness.llm.setScript([
			reply.code(`console.log(${JSON.stringify(key)})`, { text: `Checking ${key}` }),
			reply.text(`Your key is ${key}, encoded ${encodeURIComponent(key)}.`)
		])
		const agent = harness.agent({
			provider: resolveProvider({
				provider: 'openai',
				apiKey: key,
				baseURL: harness.llm.url,
				model: 'fake-model'
			})
		})
		const events: AgentEvent[] = []
		const response = await agent.ask(`Is ${key} my key?`, { onEvent: (event) => events.push(event) })
		expect(response.success).toBe(true)
		expect(response.answer).toBe('Your key is [redacted], encoded [redacted].')
		expect(response.code).toBe('console.log("[redacted]")')
		for (const value of [response, events, agent.getHistory()]) expectNoKey(value)
		expect(agent.getHistory()[0]).toMatchObject({ role: 'user', content: 'Is [redacted] my key?' })
		expect(events.find((event) => event.type === 'done')).toMatchObject({ answer: response.answer })
		const sent = harness.llm.chatRequests().at(-1)!
		expect(sent.body.messages.find((message: { role: string }) => message.role === 'user').content).toBe(
			`Is ${key} my key?`
		)
	})

	test('is redacted from a saved file’s name and content and a write’s arguments: what is approved is what goes out', async () => {
		const keyText = JSON.stringify(key)
		harness.llm.setScript([
			reply.code(
				`saveFile(${keyText}, 'the key is ' + ${keyText}); await ig.direct.sendText('1000000002', 'psst ' + ${keyText}); return 'done'`
			),
			reply.text('Saved and sent.')
		])
		const filesDir = await harness.tempDir()
		const approvals: ApprovalRequest[] = []
		const agent = harness.agent({
			provider: resolveProvider({
				provider: 'openai',
				apiKey: key,
				baseURL: harness.llm.url,
				model: 'fake-model'
			}),
			permission: 'ask_every',
			filesDir,
			approver: async (request) => {
				approvals.push(request)
				return true
			}
		})
		const response = await agent.ask('save my key')
		expect(response.success).toBe(true)
		expect(response.files.map((file) => file.name)).toEqual(['redacted_.txt'])
		const written = readdirSync(filesDir)
		expect(written).toEqual(['redacted_.txt'])
		expect(readFileSync(path.join(filesDir, written[0]), 'utf8')).toBe('the key is [redacted]')
		const write = approvals.find((request) => request.kind === 'write_call')
		expect(write?.args?.[1]).toBe('psst [redacted]')
		expectNoKey([response, approvals])
	})

	test('a local runner’s placeholder key is no secret: the word stays', async () => {
		harness.llm.setScript([reply.text('Start it with: ollama serve')])
		const provider = resolveProvider({
			provider: 'ollama',
			env: { OLLAMA_HOST: harness.llm.url.replace('/v1', '') },
			model: 'fake-model'
		})
		const response = await harness.agent({ provider }).ask('How do I start ollama?')
		expect(response.answer).toBe('Start it with: ollama serve')
	})
})

describe('the servers’ history', () => {
	test('GET /api/history of the agent web server holds no key', async () => {
		chat.llm.setScript([reply.text(`Noted: ${testApiKey}`)])
		const app = chat.agentWeb({ permission: 'full_access' })
		const asked = await app.handle(jsonRequest('POST', '/api/ask', { message: `my key is ${testApiKey}` }))
		expectNoKey(await asked.json(), testApiKey)
		const history = await (await app.handle(jsonRequest('GET', '/api/history'))).json()
		expect(history.history.map((entry: { content: string }) => entry.content)).toEqual([
			'my key is [redacted]',
			'Noted: [redacted]'
		])
	})

	test('a parallel run’s tasks are shown without the key, in the answer and the stream’s done event', async () => {
		chat.llm.setScript([reply.text('Noted.'), reply.text('Noted.')])
		const app = chat.agentWeb({ permission: 'full_access' })
		const tasks = [`remember ${testApiKey}`]
		const answered = await (await app.handle(jsonRequest('POST', '/api/parallel', { tasks }))).json()
		expect(answered.results.map((result: { task: string }) => result.task)).toEqual(['remember [redacted]'])
		const streamed = await (await app.handle(jsonRequest('POST', '/api/parallel/stream', { tasks }))).text()
		expect(streamed).toContain('remember [redacted]')
		expectNoKey([answered, streamed], testApiKey)
	})

	test('a JSON ask’s denial note names the denied run without the key in its title', async () => {
		chat.llm.setScript([
			reply.code('return 1', { description: `Check ${testApiKey}` }),
			reply.text('I could not run it.')
		])
		const app = chat.agentWeb({ permission: 'ask_once' })
		const asked = await (await app.handle(jsonRequest('POST', '/api/ask', { message: 'check' }))).json()
		expect(asked.success).toBe(false)
		expect(asked.error).toContain('Check [redacted]')
		expectNoKey(asked, testApiKey)
	})

	test('GET /api/ai/history of the playground holds no key', async () => {
		const ai = createPlaygroundAi({
			client: chat.client,
			env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: chat.llm.url },
			permission: 'full_access',
			filesDir: chat.filesDir,
			modelOptions: { maxRetries: 0, timeoutMs: 10_000 },
			log: () => {}
		})
		const app = createPlaygroundApp({
			ig: chat.client,
			ai,
			permission: 'full_access',
			demo: true,
			log: () => {}
		})
		chat.llm.setScript([reply.text(`Noted: ${testApiKey}`)])
		const asked = await app.handle(jsonRequest('POST', '/api/ai/ask', { message: `my key is ${testApiKey}` }))
		expectNoKey(await asked.json(), testApiKey)
		const history = await (await app.handle(jsonRequest('GET', '/api/ai/history'))).json()
		expectNoKey(history, testApiKey)
		expect(history.data.map((entry: { content: string }) => entry.content)).toEqual([
			'my key is [redacted]',
			'Noted: [redacted]'
		])
	})
})
