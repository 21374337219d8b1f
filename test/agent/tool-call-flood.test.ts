/**
 * A reply with a flood of tool calls: only `toolCallsKeptPerReply` of them join the conversation
 * (each answered, the model told how many were dropped) and get events, and fitting the history is
 * linear in its length, so one hostile reply cannot hold a server's event loop.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AgentEvent } from '../../src/agent/events'
import { fitHistory } from '../../src/agent/history'
import type { ConversationMessage } from '../../src/agent/model'
import { toolCallsKeptPerReply, toolCallsPerReply } from '../../src/agent/tool-calls'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

const flood = 5000

describe('a reply with thousands of tool calls', () => {
	test(`keeps ${toolCallsKeptPerReply} calls, each answered, and says how many were dropped`, async () => {
		harness.llm.setScript([
			{
				toolCalls: Array.from({ length: flood }, (_, index) => ({
					name: index % 2 ? 'nope' : 'run_code',
					id: `flood_${index}`,
					arguments: { code: `console.log('ran ${index}')` }
				}))
			},
			reply.text('done'),
			reply.text('second ask answered')
		])
		const events: AgentEvent[] = []
		const agent = harness.agent()
		const response = await agent.ask('flood', { onEvent: (event) => events.push(event) })
		expect(response).toMatchObject({ success: true, answer: 'done' })

		// Events only for the kept calls.
		expect(events.filter((event) => event.type === 'tool_call')).toHaveLength(toolCallsKeptPerReply)
		expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(toolCallsKeptPerReply)

		// The model is sent the kept calls, each with its answer, and nothing of the dropped ones.
		const sent = harness.llm.chatRequests().at(-1)!.body.messages as {
			role: string
			tool_calls?: { id: string }[]
			tool_call_id?: string
			content: string
		}[]
		const assistant = sent.find((message) => message.tool_calls)!
		const kept = Array.from({ length: toolCallsKeptPerReply }, (_, index) => `flood_${index}`)
		expect(assistant.tool_calls!.map((call) => call.id)).toEqual(kept)
		const results = sent.filter((message) => message.role === 'tool')
		expect(results.map((message) => message.tool_call_id)).toEqual(kept)
		const dropped = flood - toolCallsKeptPerReply
		expect(results.at(-1)!.content).toContain(
			`your reply had ${flood} tool calls; only the first ${toolCallsKeptPerReply} were kept and answered, the other ${dropped} were neither run nor kept`
		)
		expect(results.filter((message) => message.content.includes('were neither run'))).toHaveLength(1)
		// Still at most `toolCallsPerReply` of them ran.
		expect(results.filter((message) => /ran \d+/.test(message.content))).toHaveLength(toolCallsPerReply)
		expect(JSON.stringify(sent)).not.toContain(`flood_${toolCallsKeptPerReply}"`)

		expect(await agent.ask('again')).toMatchObject({ success: true, answer: 'second ask answered' })
	})
})

/**
 * Messages whose `content` counts its reads: a history fitted in linear time reads each a bounded
 * number of times, where counting the whole conversation again after each change reads it once per
 * change (quadratic).
 */
function countingMessages(build: (index: number) => ConversationMessage, count: number) {
	const reads = { count: 0 }
	const messages = Array.from({ length: count }, (_, index) => {
		const message = build(index)
		const content = message.content
		return Object.defineProperty({ ...message }, 'content', {
			enumerable: true,
			get() {
				reads.count++
				return content
			}
		}) as ConversationMessage
	})
	return { messages, reads }
}

describe('fitHistory works in linear time', () => {
	test('blanking thousands of tool outputs of the current turn', () => {
		const outputs = 4000
		const { messages, reads } = countingMessages((index) => {
			if (index === 0) return { role: 'user', content: 'question', timestamp: 0 }
			if (index === 1) {
				const toolCalls = Array.from({ length: outputs }, (_, call) => ({
					id: `c${call}`,
					name: 'run_code',
					arguments: '{}'
				}))
				return { role: 'assistant', content: '', toolCalls, timestamp: 0 }
			}
			return {
				role: 'tool',
				toolCallId: `c${index - 2}`,
				name: 'run_code',
				content: 'x'.repeat(400),
				timestamp: 0
			}
		}, outputs + 2)
		const fitted = fitHistory(messages, 20_000)
		expect(fitted).toHaveLength(outputs + 2)
		expect(fitted.filter((message) => message.content.startsWith('[output removed')).length).toBeGreaterThan(
			0
		)
		expect(reads.count).toBeLessThan(10 * messages.length)
	})

	test('dropping a thousand older turns', () => {
		const turns = 1000
		const { messages, reads } = countingMessages(
			(index) =>
				index % 2
					? { role: 'assistant', content: `answer ${index} ${'y'.repeat(200)}`, timestamp: index }
					: { role: 'user', content: `question ${index}`, timestamp: index },
			2 * turns
		)
		const fitted = fitHistory(messages, 2000)
		expect(fitted[0].content).toStartWith('[Summary of the earlier conversation')
		expect(fitted.at(-1)?.content).toBe(messages.at(-1)?.content)
		expect(reads.count).toBeLessThan(20 * messages.length)
	})
})
