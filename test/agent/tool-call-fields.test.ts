/**
 * What of a reply with tool calls the conversation keeps: the calls' own fields (id, type, function
 * name and arguments, and Gemini's thought signature), nothing else. A hostile extra field nested
 * 200,000 levels deep, sent back on every later request, made each of them fail until a reset; a
 * reply that cannot be used at all fails its ask only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

const depth = 200_000

/** A chat completion whose one tool call is `call` (JSON text). */
const completion = (call: string) =>
	`{"id":"x","object":"chat.completion","created":0,"model":"fake-model","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"","tool_calls":[${call}]}}]}`

const runCode = '"function":{"name":"run_code","arguments":"{\\"code\\":\\"console.log(41 + 1)\\"}"}'

describe('tool calls kept in the conversation', () => {
	test('an extra field nested 200,000 deep is not kept: this ask and later ones work', async () => {
		const hostile = completion(
			`{"id":"deep","type":"function",${runCode},"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`
		)
		harness.llm.setScript([{ malformed: hostile }, reply.text('first answer'), reply.text('second answer')])
		const agent = harness.agent()
		expect(await agent.ask('first')).toMatchObject({ success: true, answer: 'first answer' })
		expect(await agent.ask('second')).toMatchObject({ success: true, answer: 'second answer' })
		const sent = harness.llm.chatRequests().at(-1)!.body.messages
		const assistant = sent.find((message: { tool_calls?: unknown }) => message.tool_calls)
		expect(Object.keys(assistant).sort()).toEqual(['content', 'role', 'tool_calls'])
		expect(assistant.tool_calls).toEqual([
			{
				id: 'deep',
				type: 'function',
				function: { name: 'run_code', arguments: '{"code":"console.log(41 + 1)"}' }
			}
		])
		expect(sent.find((message: { role: string }) => message.role === 'tool').content).toContain('42')
	})

	test("Gemini's thought signature is sent back; other extras of the call and the message are not", async () => {
		const call = `{"id":"sig","type":"function",${runCode},"extra_content":{"google":{"thought_signature":"c2lnbmF0dXJl","other":1}},"vendor":{"a":1}}`
		harness.llm.setScript([
			{
				malformed: completion(call).replace('"content":""', '"content":"","refusal":null,"audio":{"id":"a"}')
			},
			reply.text('done')
		])
		expect(await harness.agent().ask('signature')).toMatchObject({ success: true, answer: 'done' })
		const sent = harness.llm.chatRequests().at(-1)!.body.messages
		const assistant = sent.find((message: { tool_calls?: unknown }) => message.tool_calls)
		expect(Object.keys(assistant).sort()).toEqual(['content', 'role', 'tool_calls'])
		expect(assistant.tool_calls).toEqual([
			{
				id: 'sig',
				type: 'function',
				function: { name: 'run_code', arguments: '{"code":"console.log(41 + 1)"}' },
				extra_content: { google: { thought_signature: 'c2lnbmF0dXJl' } }
			}
		])
	})

	test('a reply that cannot be used fails its ask once; the next ask works', async () => {
		const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
		const unusable = completion(
			`{"id":"bad","type":"function","function":{"name":"run_code","arguments":${nested}}}`
		)
		harness.llm.setScript([{ malformed: unusable }, reply.text('second answer')])
		const agent = harness.agent()
		const first = await agent.ask('first')
		expect(first.success).toBe(false)
		expect(first.error).toBe('OpenAI: the reply was not a valid chat completion')
		expect(await agent.ask('second')).toMatchObject({ success: true, answer: 'second answer' })
	})
})
