/**
 * How many tool calls of a model's replies run: at most `toolCallsPerReply` of one reply, and at
 * most the step cap's worth of code runs in an ask. Each call not run still gets a tool result
 * (the provider rejects a conversation without one) saying why, so one reply full of endless loops
 * cannot hold the ask for its number of calls times the run's time-out.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AgentEvent, ToolResultEvent } from '../../src/agent/events'
import { toolCallsPerReply } from '../../src/agent/tool-calls'
import { type FakeReply, type RecordedRequest, reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

/** One reply with `count` run_code calls of `code`, their ids `NAME_0`, `NAME_1`, ... */
const manyCalls = (name: string, count: number, code: (index: number) => string): FakeReply => ({
	toolCalls: Array.from({ length: count }, (_, index) => ({
		name: 'run_code',
		id: `${name}_${index}`,
		arguments: { code: code(index) }
	}))
})

/** The tool messages the model was sent in `request`, by call id. */
const toolResults = (request: RecordedRequest) =>
	new Map<string, string>(
		request.body.messages
			.filter((message: { role: string }) => message.role === 'tool')
			.map((message: { tool_call_id: string; content: string }) => [message.tool_call_id, message.content])
	)

describe('tool calls run per reply and per ask', () => {
	test('a reply of 20 endless loops runs one with --max-steps 1, not 20 times the time-out', async () => {
		harness.llm.setScript([manyCalls('loop', 20, () => 'while (true) {}')])
		const events: AgentEvent[] = []
		const started = performance.now()
		const response = await harness
			.agent({ maxSteps: 1, timeoutSeconds: 1 })
			.ask('loop', { onEvent: (event) => events.push(event) })
		expect((performance.now() - started) / 1000).toBeLessThan(5)
		expect(response.success).toBe(false)
		const results = events.filter(
			(event): event is ToolResultEvent => event.type === 'tool_result' && event.source === 'model'
		)
		// Every call is answered; one ran (and timed out), the others say they were not run.
		expect(results).toHaveLength(20)
		expect(events.filter((event) => event.type === 'code')).toHaveLength(1)
		const notRun = results.filter((event) => event.output.startsWith('Not run:'))
		expect(notRun).toHaveLength(19)
		expect(notRun.every((event) => !event.success)).toBe(true)
	})

	test(`one reply runs at most ${toolCallsPerReply} calls; the rest are answered as not run`, async () => {
		harness.llm.setScript([
			manyCalls('many', 8, (index) => `console.log('ran ${index}')`),
			reply.text('done'),
			reply.text('second ask answered')
		])
		const agent = harness.agent()
		const response = await agent.ask('many')
		expect(response).toMatchObject({ success: true, answer: 'done' })
		const results = toolResults(harness.llm.chatRequests().at(-1)!)
		expect(results.size).toBe(8)
		for (let index = 0; index < 8; index++) {
			const content = results.get(`many_${index}`) ?? ''
			if (index < toolCallsPerReply) expect(content).toContain(`ran ${index}`)
			else expect(content).toContain(`Not run: at most ${toolCallsPerReply} tool calls of one reply are run`)
		}
		// The fake server, like OpenAI, refuses a conversation with a call left unanswered.
		expect(await agent.ask('again')).toMatchObject({ success: true, answer: 'second ask answered' })
	})

	test('an ask runs code at most --max-steps times in all; later calls are told so', async () => {
		harness.llm.setScript([
			manyCalls('first', 2, (index) => `console.log('first ${index}')`),
			manyCalls('second', 2, (index) => `console.log('second ${index}')`),
			reply.text('done')
		])
		const response = await harness.agent({ maxSteps: 3 }).ask('budget')
		expect(response).toMatchObject({ success: true, answer: 'done' })
		const results = toolResults(harness.llm.chatRequests().at(-1)!)
		expect(results.get('first_0')).toContain('first 0')
		expect(results.get('first_1')).toContain('first 1')
		expect(results.get('second_0')).toContain('second 0')
		expect(results.get('second_1')).toContain('Not run: this request may run code at most 3 times')
	})
})
