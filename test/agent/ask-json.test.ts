/**
 * `smkit ask --json` agrees with the exit code: an answer made after an action was denied for want
 * of a terminal to ask exits 1 and says `success: false`, with the error and the exit code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'
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
