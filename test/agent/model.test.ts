import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createChatModel, resolveModel } from '../../src/agent/model'
import { AgentProviderError } from '../../src/agent/provider-error'
import { resolveProvider } from '../../src/agent/providers'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'

const secretKey = 'sk-test-SECRET-0123456789abcdef'
let llm: FakeLlm

beforeAll(async () => {
	llm = await startFakeLlm({ models: ['qwen3:8b', 'llama3.2'] })
})
afterAll(() => llm.stop())

function model(options: { timeoutMs?: number } = {}) {
	const config = resolveProvider({
		provider: 'openai',
		apiKey: secretKey,
		baseURL: llm.url,
		model: 'fake-model'
	})
	return createChatModel(config, { maxRetries: 0, timeoutMs: options.timeoutMs ?? 5000 })
}

async function failure(promise: Promise<unknown>): Promise<AgentProviderError> {
	try {
		await promise
	} catch (error) {
		expect(error).toBeInstanceOf(AgentProviderError)
		return error as AgentProviderError
	}
	throw new Error('expected a provider failure')
}

const ask = { messages: [{ role: 'user' as const, content: 'hi', timestamp: 0 }] }

describe('chat model over the openai SDK', () => {
	test('returns text, tool calls and usage; sends no temperature and the key only as a header', async () => {
		llm.setScript([reply.code('return 1', { text: 'checking', usage: 30 })])
		const result = await model().complete({
			...ask,
			tools: [{ name: 'run_code', description: 'run', parameters: { type: 'object' } }]
		})
		expect(result.content).toBe('checking')
		expect(result.toolCalls).toHaveLength(1)
		expect(JSON.parse(result.toolCalls[0].arguments).code).toBe('return 1')
		expect(result.usage.totalTokens).toBe(30)
		const sent = llm.chatRequests().at(-1)!
		expect(sent.body.temperature).toBeUndefined()
		expect(sent.body.tools[0].function.name).toBe('run_code')
		expect(sent.headers.authorization).toBe(`Bearer ${secretKey}`)
		expect(JSON.stringify(sent.body)).not.toContain(secretKey)
	})

	test('tool call arguments sent as an object (some compatible servers) are kept, not emptied', async () => {
		const body = {
			id: 'c1',
			object: 'chat.completion',
			model: 'fake-model',
			choices: [
				{
					index: 0,
					finish_reason: 'tool_calls',
					message: {
						role: 'assistant',
						content: null,
						tool_calls: [
							{ id: 't1', type: 'function', function: { name: 'run_code', arguments: { code: 'return 2' } } }
						]
					}
				}
			]
		}
		llm.setScript([{ malformed: JSON.stringify(body) }])
		const result = await model().complete(ask)
		expect(JSON.parse(result.toolCalls[0]?.arguments as string)).toEqual({ code: 'return 2' })
	})

	const cases: [string, Parameters<typeof llm.setScript>[0], string][] = [
		['401', [reply.error(401, `Incorrect API key provided: ${secretKey}`)], 'auth'],
		['429', [reply.error(429, 'quota')], 'rate_limited'],
		['500', [reply.error(500, 'boom')], 'server_error'],
		['malformed JSON', [{ malformed: '{"choices": [' }], 'malformed'],
		['a body that is not a completion', [{ malformed: '{"hello": 1}' }], 'malformed']
	]
	for (const [name, script, kind] of cases) {
		test(`${name} becomes a typed error naming the provider, never the key`, async () => {
			llm.setScript(script)
			const error = await failure(model().complete(ask))
			expect(error.kind as string).toBe(kind)
			expect(error.message.startsWith('OpenAI: ')).toBe(true)
			expect(error.message).not.toContain(secretKey)
			expect(error.message).not.toContain('SECRET')
		})
	}

	test('a hanging provider times out as a named error', async () => {
		llm.setScript([{ hang: true }])
		const error = await failure(model({ timeoutMs: 300 }).complete(ask))
		expect(error.kind).toBe('timeout')
		expect(error.message).toContain('OpenAI')
	})

	test('a model that never answers fails once at the call limit, retries included, naming only the host', async () => {
		llm.setScript([{ hang: true }, { hang: true }])
		const config = resolveProvider({
			provider: 'openai',
			apiKey: secretKey,
			baseURL: llm.url,
			model: 'fake-model'
		})
		const before = llm.chatRequests().length
		const error = await failure(createChatModel(config, { maxRetries: 1, timeoutMs: 300 }).complete(ask))
		expect(error.kind).toBe('timeout')
		expect(error.message).toBe(
			`OpenAI: no answer from the model endpoint ${new URL(llm.url).host} within 0.3 s`
		)
		// The time was spent: no second attempt of the same wait.
		expect(llm.chatRequests().length - before).toBe(1)
	})

	test('an unreachable provider is a network error', async () => {
		const config = resolveProvider({ provider: 'groq', apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' })
		const error = await failure(createChatModel(config, { maxRetries: 0 }).complete(ask))
		expect(error.kind).toBe('network')
		expect(error.message).toContain('Groq')
	})

	test('model auto with ollama picks the first model the server lists', async () => {
		const config = resolveProvider({ provider: 'ollama', env: { OLLAMA_HOST: llm.url.replace('/v1', '') } })
		expect(config.model).toBe('auto')
		const resolved = await resolveModel(config)
		expect(resolved.model).toBe('qwen3:8b')
		expect(llm.requests.some((request) => request.path === '/v1/models')).toBe(true)
	})

	test('model auto with a base URL takes the first chat model, skipping embeddings and speech', async () => {
		const server = await startFakeLlm({
			models: ['text-embedding-3-small', 'whisper-1', 'tts-1', 'mistral-small', 'gpt-4o']
		})
		try {
			const config = resolveProvider({ provider: 'openai', apiKey: secretKey, baseURL: server.url, env: {} })
			expect(config.model).toBe('auto')
			expect((await resolveModel(config)).model).toBe('mistral-small')
		} finally {
			await server.stop()
		}
	})

	test('listing the models for auto has one deadline, retries included, and says it as a chat call does', async () => {
		let listings = 0
		const hanging = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			fetch(request) {
				listings++
				return new Promise<Response>((resolve) =>
					request.signal.addEventListener('abort', () => resolve(new Response('', { status: 499 })))
				)
			}
		})
		try {
			const baseURL = `http://127.0.0.1:${hanging.port}/v1`
			const config = resolveProvider({ provider: 'openai', apiKey: secretKey, baseURL, env: {} })
			expect(config.model).toBe('auto')
			const started = performance.now()
			const error = await failure(resolveModel(config, { maxRetries: 1, timeoutMs: 400 }))
			expect(performance.now() - started).toBeLessThan(700)
			expect(error.kind).toBe('timeout')
			expect(error.message).toBe(
				`OpenAI: no answer from the model endpoint 127.0.0.1:${hanging.port} within 0.4 s`
			)
			expect(listings).toBe(1)
		} finally {
			hanging.stop(true)
		}
	})

	test('a server listing no chat model is an error that says to name one', async () => {
		const server = await startFakeLlm({ models: ['nomic-embed-text'] })
		try {
			const config = resolveProvider({ provider: 'openai', apiKey: secretKey, baseURL: server.url, env: {} })
			const error = await failure(resolveModel(config))
			expect(error.message).toContain('lists no chat models')
			expect(error.message).toContain('--model')
		} finally {
			await server.stop()
		}
	})
})
