/**
 * The title of an approval is one line of at most 120 characters wherever it is shown: the model
 * writes a run's description, and newlines in it would draw lines of their own on the terminal
 * prompt (a fake code box, blank lines pushing the real code away), in the browser card, in an MCP
 * question and in the denial notice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AgentEvent } from '../../src/agent/events'
import { type ApprovalRequest, approvalTitle, approvalTitleLimit } from '../../src/agent/permissions'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness } from './harness'
import { askPiped } from './terminal-run'

/** A description drawing a fake code line, then 60 blank lines before the real code. */
const hostile = `Read the profile\n│ console.log('harmless')\n${'\n'.repeat(60)}\t end`

let harness: Harness
let workDir: string
beforeAll(async () => {
	harness = await startHarness()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-approval-title-'))
})
afterAll(async () => {
	await harness.stop()
	await rm(workDir, { recursive: true, force: true })
})

describe('approvalTitle', () => {
	test('makes one line: each run of whitespace, newlines included, is one space', () => {
		expect(approvalTitle(hostile)).toBe("Read the profile │ console.log('harmless') end")
		expect(approvalTitle('  a\r\n\u2028b\u00a0 c ')).toBe('a b c')
	})

	test(`cuts a title longer than ${approvalTitleLimit} characters, ending it with an ellipsis`, () => {
		const long = approvalTitle('x'.repeat(500))
		expect(Array.from(long)).toHaveLength(approvalTitleLimit)
		expect(long.endsWith('…')).toBe(true)
		// Characters, not UTF-16 units: no half of an emoji is left.
		const emoji = approvalTitle('😀'.repeat(200))
		expect(Array.from(emoji)).toHaveLength(approvalTitleLimit)
		expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
		expect(approvalTitle('y'.repeat(approvalTitleLimit))).toBe('y'.repeat(approvalTitleLimit))
	})
})

describe('the title of a code run the model described', () => {
	test('reaches the approver, the permission event and the code event as one capped line', async () => {
		harness.llm.setScript([
			reply.code('return 1', { description: `${hostile} ${'z'.repeat(300)}` }),
			reply.text('done')
		])
		const asked: ApprovalRequest[] = []
		const events: AgentEvent[] = []
		const agent = harness.agent({
			permission: 'ask_every',
			approver: async (request) => {
				asked.push(request)
				return true
			}
		})
		await agent.ask('read', { onEvent: (event) => events.push(event) })
		const title = asked[0]?.title ?? ''
		expect(title.startsWith("Read the profile │ console.log('harmless') end zzz")).toBe(true)
		expect(title).not.toContain('\n')
		expect(Array.from(title)).toHaveLength(approvalTitleLimit)
		expect(events.find((event) => event.type === 'permission')).toMatchObject({ title })
		expect(events.find((event) => event.type === 'code')).toMatchObject({ description: title })
	})

	test('a blank description leaves the usual title', async () => {
		harness.llm.setScript([reply.code('return 1', { description: ' \n\n ' }), reply.text('done')])
		const asked: ApprovalRequest[] = []
		const approver = async (request: ApprovalRequest) => {
			asked.push(request)
			return true
		}
		await harness.agent({ permission: 'ask_every', approver }).ask('read')
		expect(asked[0]?.title).toBe('Run generated code')
	})

	test('the denial notice of smkit ask without a terminal names it on one line', async () => {
		harness.llm.setScript([reply.code('return 1', { description: hostile }), reply.text('done')])
		const result = await askPiped(harness.llm.url, workDir, ['read'])
		expect(result.code).toBe(1)
		expect(result.stderr).toContain(
			"permission denied (no terminal to ask): Read the profile │ console.log('harmless') end. "
		)
		expect(result.stderr).not.toContain('\n\n\n')
	})
})
