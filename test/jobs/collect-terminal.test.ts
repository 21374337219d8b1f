/**
 * `smkit collect` without --out on a (pseudo) terminal: the records and the progress share the
 * screen, so every record starts a line of its own (the progress is one line a page, not a line
 * redrawn in place that a record would be written into), and the summary does not end up on the
 * last CSV row.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from '../support/binary'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-terminal-'))
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** The lines of what `smkit collect ARGS` printed on a 200-column terminal, carriage returns kept. */
async function onTerminal(args: string[]): Promise<string[]> {
	let screen = ''
	const child = Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1', TERM: 'xterm-256color' },
		terminal: {
			cols: 200,
			rows: 50,
			data(_terminal, data) {
				screen += new TextDecoder().decode(data)
			}
		}
	})
	expect(await child.exited).toBe(0)
	// The terminal turns each line end into CR LF.
	return screen.replaceAll('\r\n', '\n').split('\n')
}

test('JSON lines on the terminal: each record on a line of its own, no line redrawn under them', async () => {
	const lines = await onTerminal(['followers', 'luna.explorer', '--limit', '150', '--db', 'lines.db'])
	const records = lines.filter((line) => line.includes('"pk":'))
	expect(records).toHaveLength(150)
	for (const record of records) expect(() => JSON.parse(record)).not.toThrow()
	expect(lines.join('\n')).not.toContain('\x1b[2K')
	expect(lines.some((line) => /^page 1: 150 of 150 collected \(\+150\), /.test(line))).toBe(true)
	expect(lines.some((line) => /^done: 150 records, 1 page, /.test(line))).toBe(true)
})

test('CSV on the terminal: the header and every row whole, the summary on its own line', async () => {
	const lines = await onTerminal([
		'followers',
		'luna.explorer',
		'--limit',
		'3',
		'--format',
		'csv',
		'--db',
		'csv.db'
	])
	const header = lines.findIndex((line) =>
		line.endsWith('pk,username,full_name,is_private,is_verified,profile_pic_url')
	)
	expect(header).toBeGreaterThan(-1)
	const rows = lines.slice(header + 1, header + 4)
	for (const row of rows) expect(row).toMatch(/^\d+,[\w.]+,/)
	expect(lines[header + 4]).toMatch(/^done: 3 records, 1 page, /)
})
