import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { reply } from '../support/fake-llm'
import { type ChatHarness, EventReader, jsonRequest, lastQuestion, startChatHarness } from './support'

// POST /api/parallel: each task in its own conversation, at most 3 at once (docs/architecture.md, "The
// agent").
let harness: ChatHarness
beforeAll(async () => {
	harness = await startChatHarness()
})
afterAll(() => harness.stop())

const answerEach = () =>
	harness.llm.setScript((request) => ({ text: `answer: ${lastQuestion(request)}`, usage: 30, delayMs: 80 }))

describe('POST /api/parallel', () => {
	test('runs tasks at most 3 at once and returns per-task results in order with totals', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		answerEach()
		const tasks = ['t1', 't2', 't3', 't4', 't5']
		const start = harness.llm.chatRequests().length
		const response = await app.handle(jsonRequest('POST', '/api/parallel', { tasks }))
		expect(response.status).toBe(200)
		const body = await response.json()
		expect(harness.llm.maxInFlight).toBe(3)
		expect(body.success).toBe(true)
		expect(
			body.results.map((result: { task: string; answer: string }) => [result.task, result.answer])
		).toEqual(tasks.map((task) => [task, `answer: ${task}`]))
		for (const result of body.results) {
			expect(result).toMatchObject({ success: true, code: '', files: [], steps: 1, tokens: 30, error: null })
			expect(typeof result.duration).toBe('number')
		}
		expect(body.total_tokens).toBe(150)
		expect(body.total_duration).toBeGreaterThan(0)
		// Each task was its own conversation: no task saw another's question, nor the server's history.
		for (const request of harness.llm.chatRequests().slice(start)) {
			const userMessages = request.body.messages.filter(
				(message: { role: string }) => message.role === 'user'
			)
			expect(userMessages).toHaveLength(1)
		}
		expect((await (await app.handle(jsonRequest('GET', '/api/history'))).json()).history).toEqual([])
	})

	test('each task lists the files it wrote, as an ask response does', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		harness.llm.setScript((request) =>
			request.body.messages.some((message: { role: string }) => message.role === 'tool')
				? reply.text('saved')
				: reply.code(`await saveFile('${lastQuestion(request)}.txt', 'abc')`)
		)
		const body = await (
			await app.handle(jsonRequest('POST', '/api/parallel', { tasks: ['first', 'second'] }))
		).json()
		expect(body.success).toBe(true)
		expect(body.results.map((result: { files: unknown }) => result.files)).toEqual([
			[{ name: 'first.txt', file: expect.stringMatching(/first\.txt$/), size: 3 }],
			[{ name: 'second.txt', file: expect.stringMatching(/second\.txt$/), size: 3 }]
		])
	})

	test('a failing task fails only itself', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		harness.llm.setScript((request) =>
			lastQuestion(request) === 'bad' ? reply.error(500, 'boom') : reply.text(`ok ${lastQuestion(request)}`)
		)
		const body = await (
			await app.handle(jsonRequest('POST', '/api/parallel', { tasks: ['good', 'bad'] }))
		).json()
		expect(body.success).toBe(false)
		expect(body.results[0]).toMatchObject({ task: 'good', success: true, answer: 'ok good' })
		expect(body.results[1]).toMatchObject({ task: 'bad', success: false })
		expect(body.results[1].error).toContain('OpenAI')
	})

	test('validates the task list: 1 to 10 non-empty strings', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const cases: [unknown, string][] = [
			[{ tasks: [] }, 'Give at least one task'],
			[
				{ tasks: Array.from({ length: 11 }, (_, index) => `t${index}`) },
				'Too many tasks: 11 (at most 10 per request)'
			],
			[{ tasks: 'one' }, "'tasks' must be an array"],
			[{ tasks: ['ok', '  '] }, 'Task 2 is empty'],
			[{}, "'tasks' must be an array"]
		]
		for (const [body, message] of cases) {
			for (const path of ['/api/parallel', '/api/parallel/stream']) {
				const response = await app.handle(jsonRequest('POST', path, body))
				expect(response.status).toBe(400)
				expect((await response.json()).error).toContain(message)
			}
		}
		answerEach()
		const ten = await app.handle(
			jsonRequest('POST', '/api/parallel', { tasks: Array.from({ length: 10 }, (_, index) => `t${index}`) })
		)
		expect((await ten.json()).results).toHaveLength(10)
	})

	test('under ask_once a JSON request cannot ask: actions are denied with the how-to', async () => {
		const app = harness.agentWeb({ permission: 'ask_once' })
		harness.llm.setScript((_request, index) =>
			index % 2 === 0 ? reply.code('console.log(1)') : reply.text('done')
		)
		const body = await (await app.handle(jsonRequest('POST', '/api/parallel', { tasks: ['only'] }))).json()
		expect(body.success).toBe(false)
		expect(body.results[0].error).toContain('--permission full_access')
	})
})

describe('POST /api/parallel/stream', () => {
	test('streams each task’s events tagged with its index, approvals included, then the result', async () => {
		const app = harness.agentWeb({ permission: 'ask_every' })
		harness.llm.setScript((request) =>
			request.body.messages.some((message: { role: string }) => message.role === 'tool')
				? reply.text(`done ${lastQuestion(request)}`)
				: reply.code('console.log(2)')
		)
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/parallel/stream', { tasks: ['a', 'b'] }))
		)
		const decided = new Set<string>()
		for (;;) {
			const event = await reader.next()
			if (!event) break
			if (event.type === 'permission' && !decided.has(event.id)) {
				decided.add(event.id)
				expect([0, 1]).toContain(event.task)
				// Approve task 0, deny task 1.
				await app.handle(jsonRequest('POST', '/api/approve', { id: event.id, allow: event.task === 0 }))
			}
		}
		const final = reader.events.at(-1)
		expect(final).toMatchObject({ type: 'done', success: true })
		expect(final?.task).toBeUndefined()
		expect(final?.results.map((result: { answer: string }) => result.answer)).toEqual(['done a', 'done b'])
		const codeEvents = reader.events.filter((event) => event.type === 'code')
		expect(codeEvents.map((event) => event.task)).toEqual([0])
		const taskDone = reader.events.filter((event) => event.type === 'done' && event.task !== undefined)
		expect(taskDone.map((event) => event.task).sort()).toEqual([0, 1])
	})
})
