import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import type { AgentEvent } from '../../src/agent/events'
import { type CodeBlockRunner, EMPTY_REPLY_NOTE, extractCodeBlock, runAgent } from '../../src/agent/loop'
import { type ConversationMessage, createChatModel } from '../../src/agent/model'
import { resolveProvider } from '../../src/agent/providers'
import type { AgentTool } from '../../src/agent/tools'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'

let llm: FakeLlm
beforeAll(async () => {
	llm = await startFakeLlm()
})
afterAll(() => llm.stop())

const model = () =>
	createChatModel(resolveProvider({ provider: 'openai', apiKey: 'k', baseURL: llm.url, model: 'fake' }), {
		maxRetries: 0
	})

/** A stand-in run_code tool that echoes the code it was given. */
const echoTool: AgentTool = {
	name: 'run_code',
	description: 'echo',
	parameters: Type.Object({ code: Type.String({ minLength: 1 }), description: Type.Optional(Type.String()) }),
	async execute(args) {
		const code = (args as { code: string }).code
		return { success: true, output: `ran: ${code}`, code }
	}
}

function start(question: string): ConversationMessage[] {
	return [{ role: 'user', content: question, timestamp: 1 }]
}

describe('agent loop', () => {
	test('a tool call then text: two steps, summed tokens, results marked as untrusted data', async () => {
		llm.setScript([reply.code('return 42', { usage: 100 }), reply.text('The value is 42.', 50)])
		const messages = start('what is it?')
		const events: AgentEvent[] = []
		const result = await runAgent({
			model: model(),
			tools: [echoTool],
			system: 'sys',
			messages,
			files: [],
			onEvent: (event) => events.push(event)
		})
		expect(result).toMatchObject({
			finishReason: 'answer',
			answer: 'The value is 42.',
			steps: 2,
			tokens: 150
		})
		expect(result.code).toBe('return 42')
		expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
		const second = llm.chatRequests().at(-1)!.body.messages
		expect(second[0]).toEqual({ role: 'system', content: 'sys' })
		expect(second.at(-1).role).toBe('tool')
		expect(second.at(-1).content).toContain('<tool_output')
		expect(second.at(-1).content).toContain('ran: return 42')
		expect(events.map((event) => event.type)).toEqual(['step', 'tool_call', 'tool_result', 'step'])
	})

	test('an empty final reply: the last output is the answer; the conversation keeps a note, not the output', async () => {
		llm.setScript([reply.code('return 42'), reply.text('')])
		const messages = start('what is it?')
		const result = await runAgent({ model: model(), tools: [echoTool], system: 's', messages, files: [] })
		expect(result).toMatchObject({ finishReason: 'answer', answer: 'ran: return 42' })
		// Not empty (the next request would send an empty assistant turn), and not the output (data
		// from Instagram would reach the next turns as the model's own words).
		expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: EMPTY_REPLY_NOTE })
	})

	test('stops at the step cap and keeps the best partial answer', async () => {
		llm.setScript(() => reply.code('return 1', { text: 'Still collecting followers...' }))
		const before = llm.chatRequests().length
		const result = await runAgent({
			model: model(),
			tools: [echoTool],
			system: 's',
			messages: start('q'),
			files: [],
			maxSteps: 3
		})
		expect(result.finishReason).toBe('max_steps')
		expect(result.steps).toBe(3)
		expect(result.answer).toBe('Still collecting followers...')
		expect(llm.chatRequests().length - before).toBe(3)
	})

	test('invalid tool arguments and unknown tools go back to the model as text', async () => {
		llm.setScript([
			{
				toolCalls: [
					{ name: 'run_code', arguments: { code: '' } },
					{ name: 'delete_account', arguments: {} }
				]
			},
			reply.text('done')
		])
		const messages = start('q')
		await runAgent({ model: model(), tools: [echoTool], system: 's', messages, files: [] })
		const toolMessages = messages
			.filter((message) => message.role === 'tool')
			.map((message) => message.content)
		expect(toolMessages[0]).toContain('Invalid arguments for run_code: /code')
		expect(toolMessages[1]).toContain('Unknown tool: delete_account')
	})

	test('a fenced javascript block is run and fed back as a user message, without orphan tool messages', async () => {
		llm.setScript([reply.text('```javascript\nconsole.log(7)\n```'), reply.text('It printed 7.')])
		const ran: string[] = []
		const events: AgentEvent[] = []
		const runCodeBlock: CodeBlockRunner = async (code) => {
			ran.push(code)
			return { success: true, output: 'Output:\n7', ran: true }
		}
		const messages = start('q')
		const result = await runAgent({
			model: model(),
			tools: [echoTool],
			system: 's',
			messages,
			files: [],
			runCodeBlock,
			onEvent: (event) => events.push(event)
		})
		expect(events.map((event) => event.type)).toEqual(['step', 'tool_call', 'tool_result', 'step'])
		expect(ran).toEqual(['console.log(7)'])
		expect(result).toMatchObject({ answer: 'It printed 7.', code: 'console.log(7)', steps: 2 })
		const sent = llm.chatRequests().at(-1)!.body.messages as { role: string; content: string }[]
		expect(sent.some((message) => message.role === 'tool')).toBe(false)
		expect(sent.at(-1)?.role).toBe('user')
		expect(sent.at(-1)?.content).toContain('Output:\n7')
	})

	test('a reply that mostly explains code is an answer, not a run', () => {
		const prose = 'Here is how you could do it yourself. '.repeat(20)
		expect(extractCodeBlock(`${prose}\n\`\`\`js\nreturn 1\n\`\`\``, true)).toBeUndefined()
		expect(extractCodeBlock(`${prose}\n\`\`\`js\nreturn 1\n\`\`\``, false)).toBe('return 1')
		expect(extractCodeBlock('```python\nprint(1)\n```', true)).toBeUndefined()
	})

	test('an endpoint without tool support is retried without tools in the same step', async () => {
		llm.setScript([reply.error(400, 'tools are not supported by this model'), reply.text('plain answer')])
		const result = await runAgent({
			model: model(),
			tools: [echoTool],
			system: 's',
			messages: start('q'),
			files: []
		})
		expect(result).toMatchObject({ finishReason: 'answer', answer: 'plain answer', steps: 1 })
		const [first, second] = llm.chatRequests().slice(-2)
		expect(first.body.tools).toBeDefined()
		expect(second.body.tools).toBeUndefined()
	})

	test('a provider failure after a tool step ends the run with the error and no answer', async () => {
		llm.setScript([reply.code('return 1', { text: 'partial' }), reply.error(500, 'down')])
		const result = await runAgent({
			model: model(),
			tools: [echoTool],
			system: 's',
			messages: start('q'),
			files: []
		})
		expect(result.finishReason).toBe('error')
		expect(result.error?.message).toContain('OpenAI')
		expect(result.tokens).toBe(15)
	})
})
