import { describe, expect, test } from 'bun:test'
import { estimateTokens, fitHistory, toBlocks } from '../../src/agent/history'
import type { ConversationMessage } from '../../src/agent/model'

let counter = 0
function turn(
	question: string,
	toolRounds: number,
	outputSize: number,
	callsPerRound = 1
): ConversationMessage[] {
	const messages: ConversationMessage[] = [{ role: 'user', content: question, timestamp: 1 }]
	for (let round = 0; round < toolRounds; round++) {
		const ids = Array.from({ length: callsPerRound }, () => `call_${counter++}`)
		messages.push({
			role: 'assistant',
			content: round === 0 ? 'Let me look.' : '',
			toolCalls: ids.map((id) => ({ id, name: 'run_code', arguments: JSON.stringify({ code: 'return 1' }) })),
			timestamp: 1
		})
		for (const id of ids) {
			messages.push({
				role: 'tool',
				toolCallId: id,
				name: 'run_code',
				content: 'x'.repeat(outputSize),
				timestamp: 1
			})
		}
	}
	messages.push({ role: 'assistant', content: `Answer to ${question}`, timestamp: 1 })
	return messages
}

/** The invariants a provider needs: every tool call answered right after it, no orphan results. */
function assertWellFormed(messages: ConversationMessage[]) {
	expect(messages[0]?.role).toBe('user')
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index]
		if (message.role === 'assistant' && message.toolCalls?.length) {
			const ids = message.toolCalls.map((call) => call.id)
			const following = messages.slice(index + 1, index + 1 + ids.length)
			expect(following.map((item) => (item.role === 'tool' ? item.toolCallId : item.role))).toEqual(ids)
		}
		if (message.role === 'tool') {
			const opener = messages.slice(0, index).findLast((item) => item.role !== 'tool') as Extract<
				ConversationMessage,
				{ role: 'assistant' }
			>
			expect(opener?.role).toBe('assistant')
			expect(opener.toolCalls?.some((call) => call.id === message.toolCallId)).toBe(true)
		}
	}
}

describe('history trimming', () => {
	test('a conversation within budget is returned unchanged (system messages left out)', () => {
		const messages = turn('q1', 1, 100)
		expect(fitHistory([{ role: 'system', content: 'sys' }, ...messages], 10_000)).toEqual(messages)
	})

	test('groups an assistant tool-call message with all of its results', () => {
		const blocks = toBlocks(turn('q', 2, 10, 3))
		expect(blocks.map((block) => block.length)).toEqual([1, 4, 4, 1])
	})

	test('never separates a tool call from its result, at every budget', () => {
		const conversation = [
			...turn('first question', 2, 400),
			...turn('second question', 3, 300, 2),
			...turn('third question', 1, 800),
			...turn('current question', 2, 200, 2)
		]
		const total = estimateTokens(conversation)
		for (let budget = 20; budget <= total + 50; budget += 37) {
			const fitted = fitHistory(conversation, budget)
			assertWellFormed(fitted)
			// The current question and its final answer are always kept.
			expect(
				fitted.some((message) => message.role === 'user' && message.content === 'current question')
			).toBe(true)
			expect(fitted.at(-1)).toEqual(conversation.at(-1)!)
		}
	})

	test('drops the oldest turns first and leaves a summary naming them', () => {
		const conversation = [...turn('how many followers has luna?', 1, 2000), ...turn('and her posts?', 1, 40)]
		const fitted = fitHistory(conversation, 200)
		assertWellFormed(fitted)
		expect(estimateTokens(fitted)).toBeLessThanOrEqual(200)
		expect(fitted[0].content).toContain('how many followers has luna?')
		expect(fitted[1].role).toBe('assistant')
		expect(fitted.some((message) => message.content === 'x'.repeat(2000))).toBe(false)
		expect(
			fitted.find((message) => message.role === 'user' && message.content === 'and her posts?')
		).toBeDefined()
	})

	test('trimming again carries the earlier summary over instead of summarising it as a question', () => {
		let conversation = [...turn('question one', 1, 2000), ...turn('question two', 1, 2000)]
		conversation = fitHistory(conversation, 700)
		conversation = fitHistory([...conversation, ...turn('question three', 1, 2000)], 700)
		const summary = conversation[0].content
		expect(summary).toContain('User asked: question one')
		expect(summary).toContain('User asked: question two')
		expect(summary).not.toContain('User asked: [Summary')
		expect(summary).not.toContain('Noted')
		expect(summary.match(/\[Summary of/g)).toHaveLength(1)
		assertWellFormed(conversation)
	})

	test('a current turn too big on its own blanks older outputs but keeps every pair and the latest output', () => {
		const conversation = turn('big question', 5, 1000)
		const fitted = fitHistory(conversation, 600)
		assertWellFormed(fitted)
		expect(fitted).toHaveLength(conversation.length)
		const outputs = fitted.filter((message) => message.role === 'tool').map((message) => message.content)
		expect(outputs.at(-1)).toBe('x'.repeat(1000))
		expect(outputs[0]).toContain('removed')
		expect(estimateTokens(fitted)).toBeLessThanOrEqual(600)
	})

	test('a code-block result fed back as a user message is not mistaken for the question', () => {
		const conversation: ConversationMessage[] = [
			...turn('old', 1, 3000),
			{ role: 'user', content: 'the real question', timestamp: 2 },
			{ role: 'assistant', content: '```javascript\nreturn 1\n```', timestamp: 2 },
			{ role: 'user', content: `Output: ${'y'.repeat(50)}`, timestamp: 2, codeResult: true },
			{ role: 'assistant', content: 'It is 1.', timestamp: 2 }
		]
		const fitted = fitHistory(conversation, 300)
		expect(fitted.some((message) => message.content === 'the real question')).toBe(true)
		expect(fitted.at(-1)?.content).toBe('It is 1.')
	})
})
