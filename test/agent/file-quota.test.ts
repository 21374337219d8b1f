/**
 * saveFile limits: 20 files and 10 MB per run, 100 MB per conversation, one file at a time (so
 * the host holds at most one file's content), and a write still waiting when the run ends is
 * cancelled, never written later.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { ConversationFileQuota, FileQuotaError } from '../../src/agent/file-quota'
import { reply } from '../support/fake-llm'
import { type Harness, lastToolOutput, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

/** Runs `code` once through the agent and returns what the model was shown, and the files on disk. */
async function runOnce(code: string, options: Parameters<Harness['agent']>[0] = {}) {
	const dir = await harness.tempDir()
	let shown = ''
	harness.llm.setScript((request, index) => {
		if (index === 0) return reply.code(code)
		shown = lastToolOutput(request.body)
		return reply.text('done')
	})
	const response = await harness.agent({ filesDir: dir, ...options }).ask('write files')
	const files = readdirSync(dir)
	const bytes = files.reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0)
	return { response, shown, files, bytes, dir }
}

describe('saveFile quotas', () => {
	test('a run writes at most 20 files', async () => {
		const { shown, files } = await runOnce(
			`let written = 0
for (let index = 0; index < 30; index++) {
	try { await saveFile('file-' + index + '.txt', 'x'); written++ } catch (error) { console.log(String(error)); break }
}
console.log('written', written)`
		)
		expect(files).toHaveLength(20)
		expect(shown).toContain('written 20')
		expect(shown).toContain('at most 20 files')
	})

	test('a run writes at most 10 MB in all', async () => {
		const { shown, bytes } = await runOnce(
			`const chunk = 'y'.repeat(4 * 1024 * 1024)
for (let index = 0; index < 4; index++) {
	try { await saveFile('big-' + index + '.txt', chunk) } catch (error) { console.log(String(error)) }
}`
		)
		expect(bytes).toBe(8 * 1024 * 1024)
		expect(shown).toContain('at most 10 MB')
	})

	test('files are written one at a time', async () => {
		const { shown, files } = await runOnce(
			`const results = await Promise.allSettled([saveFile('a.txt', 'a'), saveFile('b.txt', 'b'), saveFile('c.txt', 'c')])
console.log(results.map((result) => result.status).join(','))
console.log(results.filter((result) => result.status === 'rejected').map((result) => String(result.reason)).join('|'))`
		)
		expect(files).toEqual(['a.txt'])
		expect(shown).toContain('fulfilled,rejected,rejected')
		expect(shown).toContain('one file at a time')
	})

	test('a write whose approval is still pending when the run times out is never written', async () => {
		let approvals = 0
		let approved: Promise<void> = Promise.resolve()
		const { dir } = await runOnce(`await saveFile('late.txt', 'written after the run?')`, {
			permission: 'ask_once',
			timeoutSeconds: 1,
			// The person approves 2 s later, after the run's 1 s limit.
			approver: async (request) => {
				if (request.kind === 'code_run') return true
				approvals++
				approved = Bun.sleep(2000)
				await approved
				return true
			}
		})
		await approved
		// Give a write that was not cancelled the time to happen.
		await Bun.sleep(500)
		expect(approvals).toBe(1)
		expect(readdirSync(dir)).toEqual([])
	}, 20_000)
})

describe('ConversationFileQuota', () => {
	test('a conversation writes at most its limit over many runs, until reset', () => {
		const quota = new ConversationFileQuota({ filesPerRun: 20, bytesPerRun: 10, bytesPerConversation: 25 })
		quota.startRun().reserve('a', 10)
		quota.startRun().reserve('b', 10)
		const third = quota.startRun()
		expect(() => third.reserve('c', 10)).toThrow(FileQuotaError)
		expect(() => third.reserve('c', 10)).toThrow('a conversation may write at most')
		third.reserve('c', 5)
		quota.reset()
		quota.startRun().reserve('d', 10)
	})

	test('a denied or failed write gives its share back', () => {
		const quota = new ConversationFileQuota({ filesPerRun: 1, bytesPerRun: 10, bytesPerConversation: 100 })
		const run = quota.startRun()
		const release = run.reserve('a', 10)
		expect(() => run.reserve('b', 1)).toThrow('at most 1 files')
		release()
		release()
		run.reserve('b', 10)
		expect(quota.used).toBe(10)
	})
})
