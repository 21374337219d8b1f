import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type FakeReply, reply } from '../support/fake-llm'
import { type ChatHarness, EventReader, gate, jsonRequest, lastQuestion, startChatHarness } from './support'

// One conversation per server: asks are served one at a time in arrival order, GET requests never
// wait behind an ask, and a client that goes away cancels its ask (docs/architecture.md, "Chat on the
// servers").
let harness: ChatHarness
beforeAll(async () => {
	harness = await startChatHarness()
})
afterAll(() => harness.stop())

/** Waits until the fake model has received `count` chat requests. */
async function modelRequests(count: number): Promise<void> {
	while (harness.llm.chatRequests().length < count) await Bun.sleep(5)
}

describe('one ask at a time', () => {
	test('a second ask waits for the first; GET /api/history and /api/status answer meanwhile', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const held = gate()
		const start = harness.llm.chatRequests().length
		harness.llm.setScript(async (request): Promise<FakeReply> => {
			const question = lastQuestion(request)
			if (question === 'first') await held.promise
			return reply.text(`answer to ${question}`)
		})
		const first = app.handle(jsonRequest('POST', '/api/ask', { message: 'first' }))
		await modelRequests(start + 1)
		const secondReader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'second' }))
		)
		const waiting = await secondReader.next()
		expect(waiting).toMatchObject({
			type: 'status',
			message: 'Waiting for the previous question to finish...'
		})

		// The first ask is still held: reads answer at once instead of waiting behind it.
		const history = await (await app.handle(jsonRequest('GET', '/api/history'))).json()
		expect(history.history.map((entry: { content: string }) => entry.content)).toEqual(['first'])
		const status = await (await app.handle(jsonRequest('GET', '/api/status'))).json()
		expect(status).toMatchObject({ busy: true, waiting: 1 })
		expect(harness.llm.chatRequests().length).toBe(start + 1)

		held.open()
		expect((await (await first).json()).answer).toBe('answer to first')
		const events = await secondReader.all()
		expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'answer to second' })
		const questions = harness.llm.chatRequests().slice(start).map(lastQuestion)
		expect(questions).toEqual(['first', 'second'])
	})

	test('asks are answered in arrival order', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const held = gate()
		const start = harness.llm.chatRequests().length
		harness.llm.setScript(async (request): Promise<FakeReply> => {
			if (lastQuestion(request) === 'q0') await held.promise
			return reply.text(`a:${lastQuestion(request)}`)
		})
		const pending = [app.handle(jsonRequest('POST', '/api/ask', { message: 'q0' }))]
		await modelRequests(start + 1)
		for (const index of [1, 2, 3]) {
			pending.push(app.handle(jsonRequest('POST', '/api/ask', { message: `q${index}` })))
			// Let each request reach the lock before the next one is sent.
			while ((await (await app.handle(jsonRequest('GET', '/api/status'))).json()).waiting < index)
				await Bun.sleep(2)
		}
		held.open()
		await Promise.all(pending)
		expect(harness.llm.chatRequests().slice(start).map(lastQuestion)).toEqual(['q0', 'q1', 'q2', 'q3'])
	})
})

describe('a client that goes away cancels its ask', () => {
	test('closing the stream aborts the model call and frees the conversation', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		harness.llm.setScript((request) =>
			lastQuestion(request) === 'hang' ? { hang: true } : reply.text('next one')
		)
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'hang' }))
		)
		await reader.until((event) => event.type === 'step')
		await reader.cancel()
		// Were the first ask still running, this one would wait behind the hanging model call.
		const next = await (await app.handle(jsonRequest('POST', '/api/ask', { message: 'after' }))).json()
		expect(next).toMatchObject({ success: true, answer: 'next one' })
		const history = (await (await app.handle(jsonRequest('GET', '/api/history'))).json()).history
		expect(history.map((entry: { content: string }) => entry.content)).toContain('after')
	})

	test('closing the stream while an approval waits denies it and ends the ask', async () => {
		const app = harness.agentWeb({ permission: 'ask_every' })
		harness.llm.setScript([reply.code('console.log(1)'), reply.text('never')])
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'run' }))
		)
		const request = await reader.until((event) => event.type === 'permission')
		await reader.cancel()
		for (;;) {
			const status = await (await app.handle(jsonRequest('GET', '/api/status'))).json()
			if (!status.busy) break
			await Bun.sleep(5)
		}
		const late = await app.handle(jsonRequest('POST', '/api/approve', { id: request.id, allow: true }))
		expect(late.status).toBe(404)
	})

	test('over a real connection: aborting the fetch cancels the run', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
		try {
			const base = `http://127.0.0.1:${server.port}`
			harness.llm.setScript((request) =>
				lastQuestion(request) === 'hang' ? { hang: true } : reply.text('fine')
			)
			const controller = new AbortController()
			const response = await fetch(`${base}/api/ask/stream`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'hang' }),
				signal: controller.signal
			})
			const reader = new EventReader(response)
			await reader.until((event) => event.type === 'step')
			controller.abort()
			const next = await fetch(`${base}/api/ask`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'after abort' })
			})
			expect((await next.json()).answer).toBe('fine')
		} finally {
			await server.stop(true)
		}
	})

	test('a waiting ask whose client leaves is dropped from the queue', async () => {
		const app = harness.agentWeb({ permission: 'full_access' })
		const held = gate()
		const start = harness.llm.chatRequests().length
		harness.llm.setScript(async (request): Promise<FakeReply> => {
			if (lastQuestion(request) === 'slow') await held.promise
			return reply.text(`a:${lastQuestion(request)}`)
		})
		const first = app.handle(jsonRequest('POST', '/api/ask', { message: 'slow' }))
		await modelRequests(start + 1)
		const leaver = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'gone' }))
		)
		await leaver.next()
		await leaver.cancel()
		held.open()
		await first
		const last = await (await app.handle(jsonRequest('POST', '/api/ask', { message: 'stayed' }))).json()
		expect(last.answer).toBe('a:stayed')
		expect(harness.llm.chatRequests().slice(start).map(lastQuestion)).toEqual(['slow', 'stayed'])
	})
})

describe('the keep-alive', () => {
	test('a quiet stream sends comment lines, which carry no event', async () => {
		const app = harness.agentWeb({ permission: 'full_access', heartbeatMs: 20 })
		harness.llm.setScript([{ text: 'slow answer', delayMs: 120 }])
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'slow' }))
		)
		const events = await reader.all()
		expect(reader.raw).toContain(': keep-alive\n\n')
		expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'slow answer' })
	})
})
