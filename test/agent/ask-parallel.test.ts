/**
 * `smkit ask --parallel` judges each task as one ask: a task whose action was denied for want of a
 * terminal to ask failed, in the summary and in `--json`. On a terminal each approval prompt names
 * its task, and a task that finishes meanwhile is reported once the prompt is answered.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type FakeLlm, type RecordedRequest, reply, startFakeLlm } from '../support/fake-llm'
import { askPiped, runOnTerminal, visible } from './terminal-run'

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-parallel-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

/** `smkit ask --demo --parallel ARGS` with the fake model, no terminal and nothing on standard input. */
const smkit = (args: string[]) => askPiped(llm.url, workDir, ['--parallel', ...args])

const question = (request: RecordedRequest): string =>
	request.body.messages.findLast((message: { role: string }) => message.role === 'user')?.content ?? ''
const answered = (request: RecordedRequest) => request.body.messages.at(-1)?.role === 'tool'

/** `code` tasks run code first (denied without a terminal), then answer; the others just answer. */
function script(request: RecordedRequest) {
	const task = question(request)
	if (task.startsWith('code') && !answered(request)) return reply.code('return 1')
	return reply.text(`${task} answered`)
}

const denial = 'denied for want of a terminal to ask: run code (allow with --full-access)'

describe('--parallel without a terminal to ask', () => {
	test('a task whose code was denied is a failure in the summary, not a green check', async () => {
		llm.setScript(script)
		const result = await smkit(['code one', 'plain two'])
		expect(result.code).toBe(1)
		expect(result.stderr).toContain(`❌ Task 1: failed: ${denial}`)
		expect(result.stderr).toContain('✅ Task 2: done')
		expect(result.stderr).toContain('Task 1: permission denied (no terminal to ask): Run generated code')
		expect(result.stdout).toContain('❌ Task 1: code one answered')
		expect(result.stdout).toContain('✅ Task 2: plain two answered')
		expect(result.stderr).toContain(`smkit: exit 1: ${denial}`)
	})

	test('--json marks each denied task success false with the denial as its error', async () => {
		llm.setScript(script)
		const result = await smkit(['code one', 'plain two', 'code three', '--json'])
		expect(result.code).toBe(1)
		const response = JSON.parse(result.stdout)
		expect(response).toMatchObject({ success: false, error: denial, exit_code: 1 })
		expect(response.results).toMatchObject([
			{ task: 'code one', success: false, error: denial, answer: 'code one answered' },
			{ task: 'plain two', success: true, error: null, answer: 'plain two answered' },
			{ task: 'code three', success: false, error: denial, answer: 'code three answered' }
		])
	})

	test('a failure of another kind is named as before, a denial beside it still fails its task', async () => {
		llm.setScript((request) =>
			question(request) === 'broken' ? reply.error(400, 'bad request') : script(request)
		)
		const result = await smkit(['broken', 'code two', '--json'])
		expect(result.code).toBe(1)
		const response = JSON.parse(result.stdout)
		expect(response.error).toBe('2 of 2 tasks failed')
		expect(response.results[0]).toMatchObject({ success: false })
		expect(response.results[0].error).toContain('OpenAI')
		expect(response.results[1]).toMatchObject({ success: false, error: denial })
	})
})

describe('--parallel on a terminal', () => {
	test('the prompt names its task; a task done meanwhile is reported after the answer, not into it', async () => {
		let releaseOne = () => {}
		let releaseThree = () => {}
		const one = new Promise<void>((resolve) => {
			releaseOne = resolve
		})
		const three = new Promise<void>((resolve) => {
			releaseThree = resolve
		})
		let fourAsked = () => {}
		const four = new Promise<void>((resolve) => {
			fourAsked = resolve
		})
		llm.setScript(async (request) => {
			const task = question(request)
			if (task === 'task one') await one
			if (task === 'task three') await three
			// A worker is free for task four only once task one has finished and been reported.
			if (task === 'task four') fourAsked()
			if (task === 'code two' && !answered(request)) return reply.code('return 2')
			return reply.text(`${task} answered`)
		})
		const run = runOnTerminal(llm.url, workDir, [
			'--parallel',
			'task one',
			'code two',
			'task three',
			'task four'
		])
		await run.waitFor('Allow task 2?')
		releaseOne()
		await four
		run.type('y\r')
		await run.waitFor('Task 2: done')
		releaseThree()
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toContain('⚠ Task 2 wants to run code: Run generated code')
		const prompt = 'Allow task 2? [y]es / [n]o / [a]lways: '
		expect(shown).toContain(`${prompt}y\n`)
		expect(shown.indexOf('✅ Task 1: done')).toBeGreaterThan(shown.indexOf(`${prompt}y`))
		expect(shown).toContain('✅ Task 4: task four answered')
	})
})
