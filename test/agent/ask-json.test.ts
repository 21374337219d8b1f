/**
 * `smkit ask --json` agrees with the exit code: an answer made after an action was denied for want
 * of a terminal to ask, or after a file it was allowed to write could not be written, exits 1 and
 * says `success: false`, with the error and the exit code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'
import { unwritableFolder } from './harness'
import { askPiped } from './terminal-run'

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-json-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

/** `smkit ask --demo ARGS` with the fake model, no terminal and nothing on standard input. */
const smkit = (args: string[]) => askPiped(llm.url, workDir, args)

const denial = 'denied for want of a terminal to ask: run code (allow with --full-access)'

/** Code first, then an answer once the code's result (here its denial) came back. */
const codeThenAnswer = (request: { body: { messages: { role: string }[] } }) =>
	request.body.messages.at(-1)?.role === 'tool' ? reply.text('done') : reply.code('return 1')

describe('smkit ask --json after a denial for want of a terminal', () => {
	test('a question prints success false with the error and exit code 1, and exits 1', async () => {
		llm.setScript([reply.code('return 1'), reply.text('done')])
		const result = await smkit(['q', '--json'])
		expect(result.code).toBe(1)
		const response = JSON.parse(result.stdout)
		expect(response).toMatchObject({ success: false, answer: 'done', error: denial, exit_code: 1 })
		expect(result.stderr).toContain(`smkit: exit 1: ${denial}`)
	})

	test('--parallel prints success false with the error and exit code 1, and exits 1', async () => {
		llm.setScript(codeThenAnswer)
		const result = await smkit(['--parallel', 'task one', 'task two', '--json'])
		expect(result.code).toBe(1)
		const response = JSON.parse(result.stdout)
		expect(response).toMatchObject({ success: false, error: denial, exit_code: 1 })
		expect(response.results.map((task: { answer: string }) => task.answer)).toEqual(['done', 'done'])
	})

	test('an ask that needed no permission is unchanged: success true, no exit_code', async () => {
		llm.setScript([reply.text('Hello.')])
		const result = await smkit(['q', '--json'])
		expect(result.code).toBe(0)
		const response = JSON.parse(result.stdout)
		expect(response).toMatchObject({ success: true, error: null })
		expect(response).not.toHaveProperty('exit_code')
	})

	test('a failed ask carries its exit code too', async () => {
		llm.setScript([reply.error(400, 'bad request')])
		const result = await smkit(['q', '--json'])
		expect(result.code).toBe(1)
		expect(JSON.parse(result.stdout)).toMatchObject({ success: false, exit_code: 1 })
	})
})

describe('smkit ask when a file cannot be written', () => {
	// Root may make files anywhere but in /sys, which it is told it may write to: the words differ.
	const reason =
		/^cannot write x\.txt: the (folder output is not writable|file belongs to another user in the shared folder output) \(permission denied\)$/
	/** The rest of the first line of `stderr` that starts with `prefix`. */
	const said = (stderr: string, prefix: string) =>
		stderr
			.split('\n')
			.find((line) => line.startsWith(prefix))
			?.slice(prefix.length)
	/** The code saves x.txt (awaited or not), then the model claims it did. */
	const saveThenClaim = (code: string) => (request: { body: { messages: { role: string }[] } }) =>
		request.body.messages.at(-1)?.role === 'tool' ? reply.text('Saved x.txt.') : reply.code(code)

	test('exits 1 and says why on stderr, in --json too, awaited or not', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-unwritable-'))
		try {
			await unwritableFolder(dir)
			for (const code of [`await saveFile('x.txt', 'hi')`, `saveFile('x.txt', 'hi'); return 'saved'`]) {
				llm.setScript(saveThenClaim(code))
				const plain = await askPiped(llm.url, dir, ['q', '--full-access'])
				expect(plain.code).toBe(1)
				expect(plain.stdout).toBe('Saved x.txt.\n')
				expect(said(plain.stderr, 'smkit: exit 1: ')).toMatch(reason)
				expect(plain.stderr).not.toContain(dir)
				llm.setScript(saveThenClaim(code))
				const json = await askPiped(llm.url, dir, ['q', '--full-access', '--json'])
				expect(json.code).toBe(1)
				expect(JSON.parse(json.stdout)).toMatchObject({
					success: false,
					error: expect.stringMatching(reason),
					files: [],
					exit_code: 1
				})
			}
		} finally {
			await rm(dir, { recursive: true, force: true })
		}
	})

	test('--parallel fails the task that could not write, and says which', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-unwritable-'))
		try {
			await unwritableFolder(dir)
			llm.setScript((request) =>
				request.body.messages.findLast((message: { role: string }) => message.role === 'user')?.content ===
				'save'
					? saveThenClaim(`await saveFile('x.txt', 'hi')`)(request)
					: reply.text('Hello.')
			)
			const result = await askPiped(llm.url, dir, ['--parallel', 'save', 'hello', '--full-access', '--json'])
			expect(result.code).toBe(1)
			const response = JSON.parse(result.stdout)
			expect(response).toMatchObject({ success: false, error: '1 of 2 tasks failed', exit_code: 1 })
			expect(response.results).toMatchObject([
				{ task: 'save', success: false, error: expect.stringMatching(reason), files: [] },
				{ task: 'hello', success: true, error: null, files: [] }
			])
			expect(said(result.stderr, 'smkit: exit 1: task 1: ')).toMatch(reason)
		} finally {
			await rm(dir, { recursive: true, force: true })
		}
	})
})

test('ask --json without a question is bad usage in JSON, not a conversation in plain text', async () => {
	llm.setScript([reply.text('a plain answer')])
	const asked = llm.requests.length
	const result = await smkit(['--json'])
	expect(result.code).toBe(2)
	expect(JSON.parse(result.stdout)).toMatchObject({
		success: false,
		exit_code: 2,
		error: 'The question is missing: smkit ask "QUESTION" --json (a conversation, -i, has no JSON form).'
	})
	expect(llm.requests).toHaveLength(asked)
})
