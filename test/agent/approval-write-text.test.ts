/**
 * A message or a comment is approved on the terminal as it will be sent: its whole text, however
 * long the padding before the part that matters. Runs of blank characters are counted
 * (`⟨400 spaces⟩`) instead of drawn, and a write too long to show whole is denied without asking.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { approvalDetail, showWriteCall, writeShownLimit } from '../../src/agent/ask-approval-detail'
import { createTerminalApprover } from '../../src/agent/ask-approver'
import type { ApprovalRequest } from '../../src/agent/permissions'

const originalWrite = process.stderr.write.bind(process.stderr)
afterEach(() => {
	process.stderr.write = originalWrite
})

/** A write call as the code runner asks for it: its detail is the call in JSON. */
function write(method: string, args: unknown[]): ApprovalRequest {
	const detail = `ig.${method}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`
	return { id: method, kind: 'write_call', title: `Write call: ${method}`, detail, method, args }
}

/** What was shown with the approval's own line wrapping undone. */
const unwrapped = (shown: string) => shown.replace(/\n {2}│ /g, '')

/** Asks `request` on a terminal answering `answer`: the decision, what was shown, the questions. */
async function approve(request: ApprovalRequest, answer = 'n') {
	let shown = ''
	const asked: string[] = []
	process.stderr.write = ((chunk: string | Uint8Array) => {
		shown += String(chunk)
		return true
	}) as typeof process.stderr.write
	const { approver } = createTerminalApprover({
		prompt: async (question) => {
			asked.push(question)
			return answer
		}
	})
	const allowed = await approver(request)
	process.stderr.write = originalWrite
	return { allowed, shown, asked }
}

/** The account's login activity, as a hostile model would append it to a friendly message. */
const loginActivity = JSON.stringify({
	sessions: Array.from({ length: 4 }, (_, index) => ({
		ip: `203.0.113.${index + 7}`,
		city: 'Lisbon',
		device: 'iPhone 15',
		last_active: 1718000000 + index
	}))
})

describe('the terminal approval of a message or a comment', () => {
	test('shows the text after 400 spaces of padding, the padding counted', async () => {
		const text = `Hi Luna, great photos!${' '.repeat(400)}${loginActivity}`
		const { shown, asked } = await approve(write('direct.sendText', ['1000000002', text]))
		expect(asked).toHaveLength(1)
		expect(unwrapped(shown)).toContain(
			'"Hi Luna, great photos!⟨400 spaces⟩{\\"sessions\\":[{\\"ip\\":\\"203.0.113.7\\"'
		)
		// Every session of the data, to its last character, is on the screen before the question.
		expect(unwrapped(shown)).toContain(JSON.stringify(loginActivity).slice(1, -1))
		expect(shown).not.toContain('characters)')
		expect(shown).not.toMatch(/ {5}/)
	})

	test('counts line breaks, tabs and other blanks, and shows short runs as they are', async () => {
		const text = `Nice!\n\n${'\n'.repeat(300)}${'\t'.repeat(9)}\u00a0\u3000 \u2800\u2800${loginActivity}`
		const { shown } = await approve(write('media.comment', ['3000000001', text]))
		// One run of mixed blanks, counted as one.
		expect(unwrapped(shown)).toContain('"Nice!⟨316 blank characters⟩{\\"sessions\\"')
		expect(unwrapped(shown)).toContain('\\"last_active\\":1718000003}]}")')
		const runs = await approve(
			write('media.comment', ['3000000001', `a${'\n'.repeat(12)}b${'\t'.repeat(4)}c`])
		)
		expect(runs.shown).toContain('"a⟨12 line breaks⟩b⟨4 tabs⟩c"')
		const short = await approve(write('media.comment', ['3000000001', 'Wow.  Love it!\n\nx']))
		expect(unwrapped(short.shown)).toContain('ig.media.comment("3000000001", "Wow.  Love it!\\n\\nx")')
	})

	test('escapes control and direction characters, and a text cannot fake a count', async () => {
		const text = `hi\u001b[2J\u009b31m \u202eevil ⟨3 spaces⟩ end`
		const { shown } = await approve(write('direct.sendText', ['1000000002', text]))
		expect(unwrapped(shown)).toContain('"hi\\u001b[2J\\x9b31m \\u202eevil \\u27e83 spaces\\u27e9 end"')
		expect(shown).not.toMatch(/[\u001b\u009b\u202e]/)
	})

	test('a write longer than the limit is denied without asking, and says why', async () => {
		const text = `Hello ${'data '.repeat(1000)}`
		const { allowed, shown, asked } = await approve(write('direct.sendText', ['1000000002', text]), 'y')
		expect(allowed).toBe(false)
		expect(asked).toHaveLength(0)
		expect(shown).toContain('ig.direct.sendText(…): 5,042 characters')
		expect(shown).toContain(
			`Denied without asking: longer than the ${writeShownLimit.toLocaleString('en-US')}`
		)
		// Just within it: asked, and shown whole.
		const fits = `Hello ${'data '.repeat(790)}END`
		const asked2 = await approve(write('direct.sendText', ['1000000002', fits]), 'y')
		expect(asked2.allowed).toBe(true)
		expect(unwrapped(asked2.shown)).toContain('data END"')
	})
})

describe('approvalDetail', () => {
	test('wraps a long call to the terminal, every line in the gutter and within its width', () => {
		const text = `Grüße 👋 ${'long words of a long message '.repeat(20)}終わり`
		const { detail } = approvalDetail(write('direct.sendText', ['1000000002', text]), 60)
		const lines = detail.split('\n')
		expect(lines.length).toBeGreaterThan(5)
		for (const line of lines) {
			expect(line.startsWith('  │ ')).toBe(true)
			expect(Bun.stringWidth(line)).toBeLessThanOrEqual(60)
		}
		expect(lines.map((line) => line.slice(4)).join('')).toBe(
			showWriteCall('direct.sendText', ['1000000002', text])
		)
	})

	test('a call without long blank runs reads as its JSON detail', () => {
		const args = ['1000000002', 'Hi "Luna"\\ \n\n😊', { nested: ['a  b', 1, null, true] }]
		expect(showWriteCall('direct.sendText', args)).toBe(write('direct.sendText', args).detail)
		expect(showWriteCall('media.like', ['3000000001'])).toBe('ig.media.like("3000000001")')
	})

	test('code is still shown up to 40 lines, each cut at 400 characters', () => {
		const code = `${'x'.repeat(500)}\n${'line\n'.repeat(50)}`
		const { detail, refusal } = approvalDetail({ id: '1', kind: 'code_run', title: 'Run', detail: code })
		expect(refusal).toBeUndefined()
		expect(detail).toContain('… (500 characters)')
		expect(detail).toContain('… 12 more lines')
	})
})
