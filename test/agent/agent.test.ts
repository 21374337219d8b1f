import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { AgentEvent } from '../../src/agent/events'
import { resolveProvider } from '../../src/agent/providers'
import { createDemoClient } from '../../src/demo'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { reply } from '../support/fake-llm'
import { type Harness, lastToolOutput, startHarness, testApiKey } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

const readLuna = `const user = await ig.users.getByUsername('luna.explorer')
console.log('followers:', user.follower_count)`

describe('agent against the simulator', () => {
	test('runs code over several steps and quotes the value it read', async () => {
		const expected = (await harness.client.users.getByUsername('luna.explorer')).follower_count
		harness.llm.setScript((request, index) => {
			if (index === 0) return reply.code(readLuna, { usage: 120, description: 'Read the profile' })
			const count = /followers: (\d+)/.exec(lastToolOutput(request.body))?.[1] ?? 'unknown'
			return reply.text(`**luna.explorer** has ${count} followers.`, 80)
		})
		const events: AgentEvent[] = []
		const response = await harness.agent().ask('How many followers does luna.explorer have?', {
			onEvent: (event) => events.push(event)
		})
		expect(response).toMatchObject({
			success: true,
			answer: `**luna.explorer** has ${expected} followers.`,
			code: readLuna,
			files: [],
			steps: 2,
			tokens: 200,
			error: null
		})
		expect(response.duration).toBeGreaterThanOrEqual(0)
		expect(events.map((event) => event.type)).toEqual([
			'status',
			'step',
			'tool_call',
			'code',
			'tool_call',
			'tool_result',
			'tool_result',
			'step',
			'done'
		])
		const codeCall = events.find((event) => event.type === 'tool_call' && event.source === 'code')
		expect(codeCall).toMatchObject({ name: 'users.getByUsername', arguments: ['luna.explorer'] })
		// Neither the Instagram session nor the provider key is ever part of what the model is sent.
		const sent = JSON.stringify(harness.llm.chatRequests().map((request) => request.body))
		expect(sent).not.toContain(DEMO_CREDENTIALS.sessionId)
		expect(sent).not.toContain(DEMO_CREDENTIALS.csrfToken)
		expect(sent).not.toContain(testApiKey)
	})

	test('a fenced javascript block runs in the sandbox for models without tool calls', async () => {
		harness.llm.setScript((request, index) =>
			index === 0
				? reply.text(`\`\`\`javascript\n${readLuna}\n\`\`\``)
				: reply.text(`Answer: ${/followers: (\d+)/.exec(lastToolOutput(request.body))?.[1]}`)
		)
		const response = await harness.agent().ask('followers of luna?')
		expect(response.success).toBe(true)
		expect(response.answer).toMatch(/^Answer: \d+$/)
		expect(response.code).toBe(readLuna)
	})

	test('errors from the code and from Instagram reach the model as text, output printed before them kept', async () => {
		const code = `console.log('before')
const followers = await ig.friendships.getFollowers('1000000003')
console.log(followers.items.length)`
		harness.llm.setScript((request, index) =>
			index === 0 ? reply.code(code) : reply.text(lastToolOutput(request.body))
		)
		const response = await harness.agent().ask('followers of private.pat?')
		expect(response.answer).toContain('Output:\nbefore')
		expect(response.answer).toMatch(/Error: .*private/i)
		expect(response.answer).not.toContain('Error: Error:')
	})

	test('tokens count this ask only, and the history carries the earlier turn', async () => {
		const agent = harness.agent()
		harness.llm.setScript([
			reply.code('console.log(1)', { usage: 100 }),
			reply.text('one', 50),
			reply.text('two', 70)
		])
		expect((await agent.ask('first')).tokens).toBe(150)
		const second = await agent.ask('second')
		expect(second.tokens).toBe(70)
		expect(second.steps).toBe(1)
		const sentRoles = harness.llm
			.chatRequests()
			.at(-1)!
			.body.messages.map((message: { role: string }) => message.role)
		expect(sentRoles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user'])
		const history = agent.getHistory()
		expect(history.map((entry) => entry.role)).toEqual([
			'user',
			'assistant',
			'tool',
			'assistant',
			'user',
			'assistant'
		])
		expect(history[2].content).not.toContain('<tool_output')
		expect(history[2].success).toBe(true)
		expect(history[0].success).toBeUndefined()
		agent.reset()
		expect(agent.getHistory()).toEqual([])
	})

	test('a long conversation is trimmed to the token budget without splitting tool calls from results', async () => {
		const agent = harness.agent({ historyTokenBudget: 3500 })
		const turn = (label: string) => [
			reply.code(`console.log('${label}'.repeat(700))`),
			reply.text(`answer ${label}`)
		]
		harness.llm.setScript([...turn('aaaa'), ...turn('bbbb'), ...turn('cccc')])
		await agent.ask('first question')
		await agent.ask('second question')
		await agent.ask('third question')
		const last = harness.llm.chatRequests().at(-1)!.body.messages as {
			role: string
			content: string | null
			tool_calls?: { id: string }[]
			tool_call_id?: string
		}[]
		const text = JSON.stringify(last)
		expect(text).not.toContain('aaaa'.repeat(10))
		expect(text).toContain('first question')
		expect(last[1].content).toContain('Summary of the earlier conversation')
		for (const [index, message] of last.entries()) {
			if (message.role === 'tool') {
				const opener = last.slice(0, index).findLast((item) => item.role !== 'tool')
				expect(opener?.tool_calls?.some((call) => call.id === message.tool_call_id)).toBe(true)
			}
			if (message.tool_calls) expect(last[index + 1].role).toBe('tool')
		}
		expect(agent.getHistory().some((entry) => entry.content.includes('aaaa'.repeat(10)))).toBe(false)
	})

	test('the step cap ends the ask with success false, a clear error and the partial answer', async () => {
		harness.llm.setScript(() => reply.code('console.log(2)', { text: 'Counting so far: 2' }))
		const response = await harness.agent({ maxSteps: 2 }).ask('count forever')
		expect(response.success).toBe(false)
		expect(response.steps).toBe(2)
		expect(response.error).toContain('Step limit reached (2 steps)')
		expect(response.answer).toBe('Counting so far: 2')
	})

	const failures: [string, Parameters<Harness['llm']['setScript']>[0], string][] = [
		['401 bad key', [reply.error(401, `Incorrect API key provided: ${testApiKey}`)], 'API key was rejected'],
		['429 rate limit', [reply.error(429, 'Rate limit reached')], 'HTTP 429'],
		['500 server error', [reply.error(500, 'internal')], 'HTTP 500'],
		['malformed reply', [{ malformed: 'not json at all' }], 'not a valid chat completion'],
		['empty reply', [reply.text('')], 'empty reply'],
		[
			'reply without content',
			[{ malformed: '{"choices":[{"message":{"role":"assistant","content":null}}]}' }],
			'empty reply'
		],
		['timeout', [{ hang: true }], 'no answer from the model endpoint 127.0.0.1:']
	]
	for (const [name, script, phrase] of failures) {
		test(`provider failure (${name}) is success false with an error naming the provider, never an answer`, async () => {
			harness.llm.setScript(script)
			const response = await harness.agent({ modelOptions: { maxRetries: 0, timeoutMs: 400 } }).ask('hello')
			expect(response.success).toBe(false)
			expect(response.answer).toBe('')
			expect(response.error).toStartWith('OpenAI: ')
			expect(response.error).toContain(phrase)
			expect(response.error).not.toContain(testApiKey)
		})
	}

	test('files lists files actually written, with relative paths', async () => {
		const dir = await harness.tempDir()
		const code = `const user = await ig.users.getByUsername('luna.explorer')
const saved = await saveFile('../luna.json', JSON.stringify({ followers: user.follower_count }))
console.log(saved.file)`
		harness.llm.setScript([reply.code(code), reply.text('Saved.')])
		const response = await harness.agent({ filesDir: path.join(dir, 'output') }).ask('save luna')
		expect(response.files).toHaveLength(1)
		expect(response.files[0].name).toBe('luna.json')
		expect(path.isAbsolute(response.files[0].file)).toBe(false)
		const written = path.join(dir, 'output', 'luna.json')
		expect(JSON.parse(readFileSync(written, 'utf8')).followers).toBeGreaterThan(200)
		expect(response.files[0].size).toBe(readFileSync(written).length)
	})

	test('model auto with ollama asks the server and uses the first listed model', async () => {
		const provider = resolveProvider({
			provider: 'ollama',
			env: { OLLAMA_HOST: harness.llm.url.replace(/\/v1$/, '') }
		})
		harness.llm.setScript([reply.text('hi')])
		const agent = harness.agent({ provider })
		expect(agent.describe().model).toBe('auto')
		const response = await agent.ask('hello')
		expect(response.success).toBe(true)
		expect(harness.llm.chatRequests().at(-1)!.body.model).toBe('first-listed:7b')
		expect(agent.describe().model).toBe('first-listed:7b')
	})

	test('an empty message is refused without calling the model', async () => {
		const before = harness.llm.chatRequests().length
		const response = await harness.agent().ask('   ')
		expect(response).toMatchObject({ success: false, error: 'Message is empty', steps: 0 })
		expect(harness.llm.chatRequests()).toHaveLength(before)
	})

	test('a cancelled ask stops with success false', async () => {
		harness.llm.setScript([{ hang: true }])
		const controller = new AbortController()
		const pending = harness.agent().ask('slow', { signal: controller.signal })
		setTimeout(() => controller.abort(), 50)
		const response = await pending
		expect(response).toMatchObject({ success: false, error: 'Cancelled' })
	})

	test('an ask cancelled while a tool call waits leaves every tool call answered for the next ask', async () => {
		harness.llm.setScript([
			{
				toolCalls: [
					{ name: 'run_code', arguments: { code: 'return 1' } },
					{ name: 'run_code', arguments: { code: 'return 2' } }
				]
			},
			reply.text('fresh answer')
		])
		const controller = new AbortController()
		const agent = harness.agent({
			permission: 'ask_every',
			// The person closes the page while the approval waits.
			approver: async () => {
				controller.abort()
				return false
			}
		})
		const cancelled = await agent.ask('first', { signal: controller.signal })
		expect(cancelled).toMatchObject({ success: false, error: 'Cancelled' })
		const next = await agent.ask('second')
		expect(next).toMatchObject({ success: true, answer: 'fresh answer' })
		// Providers reject a conversation whose tool call has no result (OpenAI: HTTP 400).
		const sent: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] = harness.llm
			.chatRequests()
			.at(-1)!.body.messages
		const called = sent.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? [])
		const answered = sent.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : []))
		expect(called).toHaveLength(2)
		expect(answered).toEqual(called)
		expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'second' })
	})

	test('a denied or failing tool call is kept as failed, so a reloaded page does not show it as a success', async () => {
		harness.llm.setScript([reply.code('return 1'), reply.text('not allowed')])
		const agent = harness.agent({ permission: 'ask_every', approver: async () => false })
		await agent.ask('denied')
		const denied = agent.getHistory().filter((entry) => entry.role === 'tool')
		expect(denied.map((entry) => entry.success)).toEqual([false])
		harness.llm.setScript([reply.code('throw new Error("boom")'), reply.text('it failed')])
		const ran = harness.agent()
		await ran.ask('failing')
		const failing = ran.getHistory().filter((entry) => entry.role === 'tool')
		expect(failing.map((entry) => entry.success)).toEqual([false])
	})

	test('each ask tells the model whether the client is logged in now (an account connected while it runs)', async () => {
		const client = createDemoClient(harness.simulatorUrl)
		client.setCredentials(undefined)
		const agent = harness.agent({ client })
		harness.llm.setScript(() => reply.text('ok'))
		const systemPrompt = () => harness.llm.chatRequests().at(-1)!.body.messages[0].content as string
		await agent.ask('before')
		expect(systemPrompt()).toContain('NOT logged in')
		// The playground's "Connect account" sets credentials on the same client.
		client.setCredentials({ ...DEMO_CREDENTIALS })
		await agent.ask('after')
		expect(systemPrompt()).toContain('The client is logged in')
		expect(systemPrompt()).not.toContain('NOT logged in')
	})

	test('asks on one agent run one at a time', async () => {
		harness.llm.setScript(() => ({ text: 'ok', delayMs: 60 }))
		const agent = harness.agent()
		const before = harness.llm.maxInFlight
		const [first, second] = await Promise.all([agent.ask('a'), agent.ask('b')])
		expect(first.success && second.success).toBe(true)
		expect(harness.llm.maxInFlight).toBe(Math.max(before, 1))
	})
})
