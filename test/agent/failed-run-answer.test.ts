/**
 * A model that gives no answer of its own after code that failed: the ask falls back on the run's
 * output, but that output is an error, so the ask fails (success false, an error saying so, exit 1)
 * in `smkit ask` (--json and plain), on the agent web server, and at the step cap too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type ChatHarness, jsonRequest, startChatHarness } from '../agentweb/support'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'
import { askPiped } from './terminal-run'

const missingUser = 'await ig.users.getByUsername("does.not.exist.zzz")'
const noAnswer = 'The model gave no answer and its last code run failed.'

let harness: Harness
let workDir: string
beforeAll(async () => {
	harness = await startHarness()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-failed-run-'))
})
afterAll(async () => {
	await harness.stop()
	await rm(workDir, { recursive: true, force: true })
})

describe('an empty reply after a failed code run', () => {
	test('fails the ask, keeping the run output as the partial answer', async () => {
		harness.llm.setScript([reply.code(missingUser), reply.text('')])
		const response = await harness.agent().ask('who is does.not.exist.zzz?')
		expect(response).toMatchObject({ success: false, code: missingUser, steps: 2, error: noAnswer })
		expect(response.answer).toContain('not found')
	})

	test('after a failed fenced block too (models without tool calls)', async () => {
		harness.llm.setScript([reply.text(`\`\`\`javascript\n${missingUser}\n\`\`\``), reply.text('  ')])
		const response = await harness.agent().ask('who?')
		expect(response).toMatchObject({ success: false, error: noAnswer })
	})

	test('an empty reply after a run that worked still answers with its output', async () => {
		harness.llm.setScript([reply.code("console.log('fine')"), reply.text('')])
		const response = await harness.agent().ask('print')
		expect(response).toMatchObject({ success: true, error: null })
		expect(response.answer).toContain('fine')
	})

	test('at the step cap, a failed last run is named as the reason, not shown as the answer', async () => {
		harness.llm.setScript([reply.code(missingUser)])
		const response = await harness.agent({ maxSteps: 1 }).ask('who?')
		expect(response.success).toBe(false)
		expect(response.error).toBe(
			'Step limit reached (1 steps) before a final answer; the model gave no answer and its last code run failed.'
		)
		harness.llm.setScript([reply.code("console.log('fine')")])
		const worked = await harness.agent({ maxSteps: 1 }).ask('print')
		expect(worked.error).toContain('the answer may be incomplete')
	})

	test('smkit ask --json says success false with the error and exits 1; plain exits 1 too', async () => {
		harness.llm.setScript([reply.code(missingUser), reply.text(''), reply.code(missingUser), reply.text('')])
		const json = await askPiped(harness.llm.url, workDir, ['who?', '--full-access', '--json'])
		expect(json.code).toBe(1)
		expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error: noAnswer, exit_code: 1 })
		const plain = await askPiped(harness.llm.url, workDir, ['who?', '--full-access'])
		expect(plain.code).toBe(1)
		expect(plain.stderr).toContain(`smkit: ${noAnswer}`)
	})
})

describe('on the agent web server', () => {
	let chat: ChatHarness
	beforeAll(async () => {
		chat = await startChatHarness()
	})
	afterAll(() => chat.stop())

	test('POST /api/ask answers success false with the error', async () => {
		chat.llm.setScript([reply.code(missingUser), reply.text('')])
		const app = chat.agentWeb({ permission: 'full_access' })
		const response = await app.handle(jsonRequest('POST', '/api/ask', { message: 'who?' }))
		expect(await response.json()).toMatchObject({ success: false, error: noAnswer })
	})
})
