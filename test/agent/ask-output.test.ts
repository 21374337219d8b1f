/**
 * What `smkit ask` prints around its answer: where `saveFile` wrote (a path the person can type,
 * and the size), and nothing but text under NO_COLOR on a terminal.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { formatSize, savedLine } from '../../src/agent/ask-terminal'
import { type FakeLlm, type RecordedRequest, reply, startFakeLlm } from '../support/fake-llm'
import { askPiped, runOnTerminal, visible } from './terminal-run'

let llm: FakeLlm
let workDir: string
beforeAll(async () => {
	llm = await startFakeLlm()
	workDir = await mkdtemp(path.join(tmpdir(), 'smkit-ask-output-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(workDir, { recursive: true, force: true })
})

/** `smkit ask --demo ARGS` with the fake model, its output piped. */
const smkit = (args: string[]) => askPiped(llm.url, workDir, args)

/** 1,204 bytes of CSV saved under `name`, then an answer. */
const saveReport = (name: string) => [
	reply.code(`await saveFile('${name}', 'a,b\\n' + 'x'.repeat(1200)); return 'saved'`),
	reply.text('The report is ready.')
]

/** Each task saves `part.txt` (one byte), then answers `done`. */
const savePart = (request: RecordedRequest) =>
	request.body.messages.at(-1)?.role === 'tool'
		? reply.text('done')
		: reply.code(`await saveFile('part.txt', 'x'); return 'saved'`)

describe('files saved by an ask', () => {
	test('each file written is named by the path it has from here, with its size', async () => {
		llm.setScript(saveReport('report.csv'))
		const first = await smkit(['save a report', '--full-access'])
		expect(first.code).toBe(0)
		expect((await stat(path.join(workDir, 'output/report.csv'))).size).toBe(1204)
		// The answer alone on standard output; where the file went beside the footer, on stderr.
		expect(first.stdout).toBe('The report is ready.\n')
		expect(first.stderr).toContain('Saved output/report.csv (1.2 KB)\n')
		llm.setScript(saveReport('report.csv'))
		const second = await smkit(['save it again', '--full-access'])
		expect(second.stderr).toContain('Saved output/report-2.csv (1.2 KB)\n')
		llm.setScript(saveReport('report.csv'))
		const quiet = await smkit(['save it quietly', '--full-access', '--quiet'])
		expect(quiet.stderr).not.toContain('Saved')
	})

	test('on a terminal the saved file is listed under the answer', async () => {
		llm.setScript(saveReport('summary.json'))
		const run = runOnTerminal(llm.url, workDir, ['save a summary', '--full-access'])
		expect(await run.exited).toBe(0)
		const shown = visible(run.screen)
		expect(shown).toMatch(/The report is ready\.\n\nSaved output\/summary\.json \(1\.2 KB\)\n\n─── /)
	})

	test('--parallel piped: the task lines on standard output, files and totals on stderr, as one ask', async () => {
		llm.setScript(savePart)
		const result = await smkit(['--parallel', 'one', 'two', '--full-access'])
		expect(result.code).toBe(0)
		expect(result.stdout).not.toContain('Saved')
		expect(result.stdout).not.toContain('Total:')
		expect(result.stdout).toContain('✅ Task 1: done\n✅ Task 2: done\n')
		const saved = result.stderr.split('\n').filter((line) => line.includes('Saved output/part'))
		expect(saved.map((line) => line.replace(/^Task \d: /, '')).sort()).toEqual([
			'Saved output/part-2.txt (1 byte)',
			'Saved output/part.txt (1 byte)'
		])
		expect(result.stderr).toMatch(/Total: [\d.]+s \| 4 steps/)
	})

	test('--parallel on a terminal lists each task’s files under its line', async () => {
		llm.setScript(savePart)
		const run = runOnTerminal(llm.url, workDir, ['--parallel', 'one', '--full-access'])
		expect(await run.exited).toBe(0)
		expect(visible(run.screen)).toMatch(
			/✅ Task 1: done\n {3}Saved output\/part-\d+\.txt \(1 byte\)\nTotal: /
		)
	})

	test('--parallel --json gives each task the files it wrote, as one ask’s JSON does', async () => {
		llm.setScript(savePart)
		const result = await smkit(['--parallel', 'one', 'two', '--full-access', '--json'])
		expect(result.code).toBe(0)
		const tasks: { files: { name: string; file: string; size: number }[] }[] = JSON.parse(
			result.stdout
		).results
		for (const task of tasks) {
			expect(task.files).toEqual([{ name: expect.any(String), file: expect.any(String), size: 1 }])
			expect(task.files[0].file).toStartWith('output/part')
		}
		expect(new Set(tasks.map((task) => task.files[0].file)).size).toBe(2)
	})

	test('sizes read as the file limits do: bytes, then KB and MB of 1,024', () => {
		expect(formatSize(0)).toBe('0 bytes')
		expect(formatSize(1)).toBe('1 byte')
		expect(formatSize(1023)).toBe('1023 bytes')
		expect(formatSize(1024)).toBe('1 KB')
		expect(formatSize(1229)).toBe('1.2 KB')
		expect(formatSize(10 * 1024 * 1024)).toBe('10 MB')
		expect(savedLine({ name: 'r.csv', file: 'output/r.csv', size: 2048 })).toBe('Saved output/r.csv (2 KB)')
	})
})

describe('NO_COLOR on a terminal', () => {
	const answer = [
		'Plain answer with **bold**, *italic*, `code` and a [post](https://example.com/p/1).',
		'',
		'- first\n- second',
		'',
		'| post | likes |\n| --- | --- |\n| DQx1 | 242 |',
		'',
		'```json\n{ "top": "DQx1", "likes": 242 }\n```'
	].join('\n')

	for (const value of ['1', 'false']) {
		test(`NO_COLOR=${value}: no escape code at all, the answer's words and link kept`, async () => {
			llm.setScript([reply.text(answer)])
			// Hyperlinks forced on: without colour a link is still its text and address, not an escape.
			const run = runOnTerminal(llm.url, workDir, ['hello'], { NO_COLOR: value, FORCE_HYPERLINK: '1' })
			expect(await run.exited).toBe(0)
			expect(run.screen).not.toContain('\u001b')
			expect(run.screen).toContain(
				'Plain answer with bold, italic, code and a post (https://example.com/p/1).'
			)
			expect(run.screen).toContain('│ DQx1 │ 242   │')
			expect(run.screen).toContain('{ "top": "DQx1", "likes": 242 }')
		})
	}

	test('an empty NO_COLOR does not turn colour off', async () => {
		llm.setScript([reply.text(answer)])
		const run = runOnTerminal(llm.url, workDir, ['hello'], { NO_COLOR: '' })
		expect(await run.exited).toBe(0)
		expect(run.screen).toContain('\u001b[1mbold\u001b[22m')
	})
})
