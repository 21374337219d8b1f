import { describe, expect, test } from 'bun:test'
import {
	AgentConfigError,
	describeProvider,
	missingKeyMessage,
	resolveProvider
} from '../../src/agent/providers'

describe('resolveProvider', () => {
	test('defaults to gemini with its OpenAI-compatible endpoint when no key is set', () => {
		const config = resolveProvider({ env: {} })
		expect(config.name).toBe('gemini')
		expect(config.baseURL).toBe('https://generativelanguage.googleapis.com/v1beta/openai/')
		expect(config.apiKey).toBeNull()
		expect(config.keySource).toBe('none')
		expect(missingKeyMessage(config)).toContain('GEMINI_API_KEY')
	})

	test('picks the first provider in table order whose key is set', () => {
		const config = resolveProvider({ env: { GROQ_API_KEY: 'g-1', OPENAI_API_KEY: 'o-1' } })
		expect(config.name).toBe('openai')
		expect(config.apiKey).toBe('o-1')
		expect(config.keySource).toBe('environment')
	})

	test('--api-key wins over the environment and aliases resolve', () => {
		const config = resolveProvider({
			provider: 'Anthropic',
			apiKey: 'explicit',
			env: { ANTHROPIC_API_KEY: 'env' }
		})
		expect(config.name).toBe('claude')
		expect(config.baseURL).toBe('https://api.anthropic.com/v1/')
		expect(config.apiKey).toBe('explicit')
		expect(config.keySource).toBe('option')
	})

	test('an unknown provider is a usage error listing the choices', () => {
		let caught: unknown
		try {
			resolveProvider({ provider: 'nope' })
		} catch (error) {
			caught = error
		}
		expect(caught).toBeInstanceOf(AgentConfigError)
		expect((caught as AgentConfigError).exitCode).toBe(2)
		expect((caught as Error).message).toContain('gemini')
	})

	test('model auto is the provider default; an explicit model is kept', () => {
		expect(resolveProvider({ provider: 'openai', model: 'auto', env: {} }).model).toBe('gpt-4.1-mini')
		expect(resolveProvider({ provider: 'openai', model: 'gpt-x', env: {} }).model).toBe('gpt-x')
		expect(describeProvider(resolveProvider({ provider: 'deepseek', env: {} }))).toBe(
			'DeepSeek (deepseek-chat)'
		)
	})

	test('base URL: --base-url beats OPENAI_BASE_URL, which only applies to openai', () => {
		const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }
		expect(resolveProvider({ provider: 'openai', env }).baseURL).toBe('http://127.0.0.1:9/v1')
		expect(resolveProvider({ provider: 'openai', env, baseURL: 'http://127.0.0.1:8/v1' }).baseURL).toBe(
			'http://127.0.0.1:8/v1'
		)
		expect(resolveProvider({ provider: 'groq', env }).baseURL).toBe('https://api.groq.com/openai/v1')
	})

	test('a malformed OPENAI_BASE_URL is a configuration error naming the variable, not a failed ask later', () => {
		for (const value of ['notaurl', 'localhost:8000/v1', 'ftp://host/v1', 'http://']) {
			let caught: unknown
			try {
				resolveProvider({ provider: 'openai', env: { OPENAI_BASE_URL: value, OPENAI_API_KEY: 'k' } })
			} catch (error) {
				caught = error
			}
			expect(caught).toBeInstanceOf(AgentConfigError)
			expect((caught as AgentConfigError).exitCode).toBe(1)
			expect((caught as Error).message).toContain('OPENAI_BASE_URL is not an http(s) URL')
		}
		// --base-url wins, and other providers never read the variable.
		const env = { OPENAI_BASE_URL: 'notaurl' }
		expect(resolveProvider({ provider: 'openai', env, baseURL: 'http://127.0.0.1:8/v1' }).baseURL).toBe(
			'http://127.0.0.1:8/v1'
		)
		expect(resolveProvider({ provider: 'groq', env }).baseURL).toBe('https://api.groq.com/openai/v1')
	})

	test('model auto with another base URL is left for the server to name; the provider own URL keeps the default', () => {
		const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }
		expect(resolveProvider({ provider: 'openai', env }).model).toBe('auto')
		expect(resolveProvider({ provider: 'groq', baseURL: 'http://127.0.0.1:8/v1', env: {} }).model).toBe(
			'auto'
		)
		expect(
			resolveProvider({ provider: 'openai', baseURL: 'http://127.0.0.1:8/v1', model: 'm1', env: {} }).model
		).toBe('m1')
		expect(
			resolveProvider({ provider: 'openai', baseURL: 'https://api.openai.com/v1/', env: {} }).model
		).toBe('gpt-4.1-mini')
	})

	test('ollama needs no key, resolves auto later, and honours OLLAMA_HOST forms', () => {
		const plain = resolveProvider({ provider: 'ollama', env: {} })
		expect(plain.apiKey).toBe('ollama')
		expect(plain.keySource).toBe('local')
		expect(plain.model).toBe('auto')
		expect(plain.baseURL).toBe('http://127.0.0.1:11434/v1')
		expect(resolveProvider({ provider: 'ollama', env: { OLLAMA_HOST: '0.0.0.0' } }).baseURL).toBe(
			'http://127.0.0.1:11434/v1'
		)
		expect(resolveProvider({ provider: 'ollama', env: { OLLAMA_HOST: 'https://box.local' } }).baseURL).toBe(
			'https://box.local/v1'
		)
		expect(resolveProvider({ provider: 'ollama', env: { OLLAMA_HOST: '10.1.2.3:9000' } }).baseURL).toBe(
			'http://10.1.2.3:9000/v1'
		)
	})
})
