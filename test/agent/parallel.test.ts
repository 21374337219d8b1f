import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Agent } from '../../src/agent/agent'
import { ParallelTaskError, runParallel, validateTasks } from '../../src/agent/parallel'
import { resolveProvider } from '../../src/agent/providers'
import { InstagramClient } from '../../src/client/client'
import { type FakeLlm, startFakeLlm } from '../support/fake-llm'

let llm: FakeLlm
beforeAll(async () => {
	llm = await startFakeLlm()
})
afterAll(() => llm.stop())

// Tasks here only talk to the model; the client is never called.
const client = new InstagramClient({ baseURL: 'http://127.0.0.1:9' })
const provider = () => resolveProvider({ provider: 'openai', apiKey: 'k', baseURL: llm.url, model: 'fake' })
const createAgent = () =>
	new Agent({ client, provider: provider(), modelOptions: { maxRetries: 0 }, permission: 'full_access' })

function lastUser(body: { messages: { role: string; content: string }[] }): string {
	return body.messages.findLast((message) => message.role === 'user')?.content ?? ''
}

describe('parallel tasks', () => {
	test('runs at most the configured number at once, each in its own conversation, results in input order', async () => {
		const fresh = await startFakeLlm({
			script: (request) => ({ text: `answer to ${lastUser(request.body)}`, usage: 10, delayMs: 150 })
		})
		try {
			const tasks = ['t1', 't2', 't3', 't4', 't5']
			const make = () =>
				new Agent({
					client,
					provider: resolveProvider({ provider: 'openai', apiKey: 'k', baseURL: fresh.url, model: 'fake' }),
					modelOptions: { maxRetries: 0 }
				})
			const done: number[] = []
			const result = await runParallel(tasks, {
				createAgent: make,
				concurrency: 3,
				onTaskDone: (index) => done.push(index)
			})
			expect(fresh.maxInFlight).toBe(3)
			expect(result.success).toBe(true)
			expect(result.results.map((task) => task.answer)).toEqual(tasks.map((task) => `answer to ${task}`))
			expect(result.results.map((task) => task.task)).toEqual(tasks)
			expect(result.total_tokens).toBe(50)
			expect(result.total_duration).toBeGreaterThan(0)
			expect(done.sort()).toEqual([0, 1, 2, 3, 4])
			for (const request of fresh.chatRequests()) {
				expect(request.body.messages.map((message: { role: string }) => message.role)).toEqual([
					'system',
					'user'
				])
			}
			expect(Object.keys(result.results[0]).sort()).toEqual(
				['answer', 'code', 'duration', 'error', 'files', 'steps', 'success', 'task', 'tokens'].sort()
			)
		} finally {
			await fresh.stop()
		}
	})

	test('one failed task makes the whole result unsuccessful; totals add up', async () => {
		llm.setScript((request) =>
			lastUser(request.body) === 'bad'
				? { status: 500, body: { error: { message: 'x' } } }
				: { text: 'fine', usage: 7 }
		)
		const result = await runParallel(['good', 'bad', 'good again'], { createAgent })
		expect(result.success).toBe(false)
		expect(result.results.map((task) => task.success)).toEqual([true, false, true])
		expect(result.results[1].error).toContain('OpenAI')
		expect(result.total_tokens).toBe(14)
	})

	test('accepts 1 to 10 non-empty tasks', () => {
		expect(() => validateTasks([])).toThrow(ParallelTaskError)
		expect(() => validateTasks(Array.from({ length: 11 }, (_, index) => `task ${index}`))).toThrow(
			'At most 10'
		)
		expect(() => validateTasks(['ok', '  '])).toThrow('Task 2 is empty')
		expect(validateTasks([' a '])).toEqual(['a'])
	})
})
