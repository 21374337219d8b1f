/**
 * `smkit ask` on a real (pseudo) terminal: the Markdown answer as rendered for a person, and what
 * the person sees when they deny an approval or press Ctrl-C at the prompt; and, for contrast, what
 * a denial looks like when there is no terminal to ask.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'
import { bun, main, runOnTerminal as runOn, visible } from './terminal-run'

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-tty-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

const runOnTerminal = (args: string[]) => runOn(llm.url, workDir, args)

const readLuna = `const user = await ig.users.getByUsername('luna.explorer'); console.log('followers=' + user.follower_count)`

describe('smkit ask on a terminal', () => {
	test('renders bold, italic and code inside the list items of an answer', async () => {
		llm.setScript([reply.text('Top posts:\n\n1. **DVUVYxwAOOz** with *242* likes\n2. `DQx1` with 180 likes')])
		const run = runOnTerminal(['top posts?'])
		expect(await run.exited).toBe(0)
		expect(run.screen).toContain('\u001b[1mDVUVYxwAOOz\u001b[22m')
		expect(run.screen).toContain('\u001b[3m242\u001b[23m')
		expect(run.screen).toContain('\u001b[33mDQx1\u001b[39m')
		const shown = visible(run.screen)
		expect(shown).toContain('1. DVUVYxwAOOz with 242 likes')
		expect(shown).not.toContain('**')
	})

	test('without a terminal to ask, a denial says why once and does not claim the person denied it', async () => {
		llm.setScript([reply.code(readLuna), reply.text('I could not read the profile.')])
		const env: Record<string, string> = {}
		for (const [key, value] of Object.entries(process.env))
			if (value !== undefined && !/_API_KEY$|^OPENAI_BASE_URL$|^OLLAMA_HOST$/.test(key)) env[key] = value
		const child = Bun.spawn(
			[bun, main, 'ask', '--provider', 'openai', '--api-key', 'sk-pipe-test', '--base-url', llm.url].concat([
				'--env',
				path.join(workDir, 'missing.env'),
				'--demo',
				'followers of luna?'
			]),
			{ cwd: workDir, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' }
		)
		const [code, stdout, stderr] = await Promise.all([
			child.exited,
			new Response(child.stdout).text(),
			new Response(child.stderr).text()
		])
		expect(code).toBe(1)
		expect(stdout).toContain('I could not read the profile.')
		expect(stderr).toContain('permission denied (no terminal to ask): ')
		expect(stderr).not.toContain('You denied')
	})

	test('a denial shows "You denied: run code"; the instruction goes to the model only', async () => {
		llm.setScript([reply.code(readLuna), reply.text('I could not read the profile.')])
		const run = runOnTerminal(['followers of luna?'])
		await run.waitFor('Allow?')
		run.type('n\r')
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('You denied: run code')
		expect(shown).not.toContain('Do not retry')
		expect(shown).not.toContain('Permission denied')
		expect(shown).toContain('I could not read the profile.')
		const toModel = llm
			.chatRequests()
			.at(-1)
			?.body.messages.findLast((message: { role: string }) => message.role === 'tool')
		expect(toModel?.content).toContain('Do not retry it')
	})

	test('escape sequences from the model or the data are shown as text, never sent to the terminal', async () => {
		// Cursor up 5 lines and erase: it would hide the unfollow above it in the approval prompt.
		const hide = '\u001b[5A\u001b[2K'
		const retitle = '\u001b]0;pwned\u0007'
		const code = `await ig.users.getByUsername('luna.explorer')\n${hide}console.log('${retitle}')`
		llm.setScript([
			reply.code(code, { description: `Read a profile ${retitle}` }),
			reply.text(`Done ${hide}${retitle}`)
		])
		const run = runOnTerminal(['followers of luna?'])
		await run.waitFor('Allow?')
		run.type('y\r')
		expect(await run.exited).toBe(0)
		expect(run.screen).not.toContain('\u001b[5A')
		expect(run.screen).not.toContain('\u001b]0;')
		expect(run.screen).not.toContain('\u0007')
		const shown = visible(run.screen)
		expect(shown).toContain('\\x1b[5A\\x1b[2Kconsole.log(')
		expect(shown).toContain('Read a profile \\x1b]0;pwned\\x07')
		expect(shown).toContain('Done \\x1b[5A')
	})

	test('Ctrl-C at the approval prompt prints only "Cancelled" and exits 130', async () => {
		llm.setScript([reply.code(readLuna), reply.text('never asked')])
		const before = llm.chatRequests().length
		const run = runOnTerminal(['followers of luna?'])
		await run.waitFor('Allow?')
		run.type('\u0003')
		expect(await run.exited).toBe(130)
		const shown = visible(run.screen)
		expect(shown).toContain('Cancelled')
		expect(shown).not.toContain('denied')
		expect(shown).not.toContain('Permission')
		expect(llm.chatRequests().length - before).toBe(1)
	})
})
