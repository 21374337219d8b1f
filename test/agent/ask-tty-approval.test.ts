/**
 * Approval prompts of `smkit ask` on a (pseudo) terminal: what "always" covers, and that an answer
 * counts only when typed after its prompt is shown.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, type FakeReply, type RecordedRequest, reply, startFakeLlm } from '../support/fake-llm'
import { runOnTerminal, visible } from './terminal-run'

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-tty-approval-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

const mediaPk = '3842790443716764595'
const userPk = '1000000002'
// Each write on its own, so a refusal of one does not skip the others.
const fourWrites = [
	`ig.media.like('${mediaPk}')`,
	`ig.friendships.follow('${userPk}')`,
	`ig.media.comment('${mediaPk}', 'nice')`,
	`ig.direct.sendText('${userPk}', 'hello')`
]
	.map((call) => `try { await ${call} } catch (error) { console.log(error.message) }`)
	.join('\n')

/**
 * Scripts the model: its first reply (a code block) waits until the returned function is called,
 * so the test can type while the agent works; the later replies come from `then`.
 */
function holdCodeReply(code: string, then: (request: RecordedRequest) => FakeReply) {
	let release = () => {}
	const held = new Promise<void>((resolve) => {
		release = resolve
	})
	llm.setScript(async (request, index) => {
		if (index > 0) return then(request)
		await held
		return reply.code(code)
	})
	return () => release()
}

describe('approvals on a terminal', () => {
	test('"always" to a like does not approve a follow, a comment or a message', async () => {
		llm.setScript([reply.code(fourWrites), reply.text('All done.')])
		const run = runOnTerminal(llm.url, workDir, ['like, follow, comment and write'])
		await run.waitFor('Allow?')
		run.type('y\r')
		await run.waitFor('Write call: media.like')
		// Typed only once the question is shown: what comes before it is discarded, as it should be.
		await run.waitFor('Allow?', 2)
		run.type('a\r')
		for (const [count, method] of ['friendships.follow', 'media.comment', 'direct.sendText'].entries()) {
			await run.waitFor(`Write call: ${method}`)
			await run.waitFor('Allow?', count + 3)
			run.type('y\r')
		}
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('All done.')
		// The comment and the message offer no "always".
		expect(shown.split('Allow? [y]es / [n]o / [a]lways:').length - 1).toBe(3)
		expect(shown.split('Allow? [y]es / [n]o:').length - 1).toBe(2)
	})

	test('in -i, a line typed while the agent works does not answer the next approval prompt', async () => {
		const readLuna = `const user = await ig.users.getByUsername('luna.explorer'); console.log('followers=' + user.follower_count)`
		const release = holdCodeReply(readLuna, (request) => {
			const tool = request.body.messages.findLast((message: { role: string }) => message.role === 'tool')
			return reply.text(`Model saw: ${tool?.content}`)
		})
		const before = llm.chatRequests().length
		const run = runOnTerminal(llm.url, workDir, ['-i'])
		await run.waitFor('Type /help')
		run.type('followers of luna?\r')
		await run.waitFor('Step 1')
		// Typed while the model thinks, before any prompt: the echo says the reader has the line.
		run.type('yes\r')
		await run.waitFor('yes')
		release()
		await run.waitFor('Allow?')
		run.type('n\r')
		await run.waitFor('Model saw:')
		run.type('exit\r')
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('ignored a line typed before this question')
		expect(shown).toContain('You denied: run code')
		// The code did not run: the model was told it was denied.
		expect(shown).toContain('Model saw: <tool_output')
		expect(shown).toContain('Permission denied')
		expect(shown).not.toMatch(/followers=\d/)
		// Not kept as a question either: the model was asked the question only.
		const sent = llm.chatRequests().slice(before)
		expect(sent).toHaveLength(2)
		const asked = sent.flatMap((request) =>
			request.body.messages.filter((message: { role: string }) => message.role === 'user')
		)
		expect(asked.map((message: { content: string }) => message.content)).toEqual([
			'followers of luna?',
			'followers of luna?'
		])
	})

	test('in -i, an answer typed ahead but entered only at the prompt does not count', async () => {
		const release = holdCodeReply('console.log("ran " + 6 * 7)', () => reply.text('Answered.'))
		const run = runOnTerminal(llm.url, workDir, ['-i'])
		await run.waitFor('Type /help')
		run.type('compute it\r')
		await run.waitFor('Step 1')
		run.type('yes')
		await run.waitFor('yes')
		release()
		await run.waitFor('Allow?')
		// Enter alone, after the prompt: an empty answer, which denies.
		run.type('\r')
		await run.waitFor('Answered.')
		run.type('exit\r')
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('You denied: run code')
		expect(shown).not.toContain('ran 42')
	})

	test('a line typed while a one-shot ask works does not answer its approval prompt', async () => {
		const release = holdCodeReply('console.log("ran " + 6 * 7)', () => reply.text('Answered.'))
		const run = runOnTerminal(llm.url, workDir, ['compute it'])
		await run.waitFor('Step 1')
		// The terminal echoes the line: it waits, unread, for whoever reads next.
		run.type('yes\r')
		await run.waitFor('yes')
		release()
		await run.waitFor('Allow?')
		run.type('n\r')
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('You denied: run code')
		expect(shown).not.toContain('ran 42')
	})
})
