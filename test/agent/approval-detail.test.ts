/**
 * What a person approves is the whole write: a long message is not cut, and a file write shows the
 * file's content, not only its name.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { ApprovalRequest } from '../../src/agent/permissions'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

test('the approval request carries the whole message and the file content', async () => {
	const message = `${'a long message '.repeat(200)}THE END`
	const content = `name,followers\n${'luna.explorer,263\n'.repeat(100)}LAST LINE`
	const asked: ApprovalRequest[] = []
	harness.llm.setScript((_request, index) =>
		index === 0
			? reply.code(
					`try { await ig.direct.sendText('1000000002', ${JSON.stringify(message)}) } catch {}\ntry { await saveFile('report.csv', ${JSON.stringify(content)}) } catch {}`
				)
			: reply.text('done')
	)
	await harness
		.agent({
			permission: 'ask_every',
			filesDir: await harness.tempDir(),
			approver: async (request) => {
				asked.push(request)
				return request.kind === 'code_run'
			}
		})
		.ask('write to luna and save a report')
	const write = asked.find((request) => request.kind === 'write_call')
	const file = asked.find((request) => request.kind === 'file_write')
	expect(write?.detail).toContain(JSON.stringify(message))
	expect(file?.detail).toContain('report.csv')
	expect(file?.detail).toContain(content)
})
