/**
 * `smkit watch run` on a (pseudo) terminal: a watch's follower list shows its progress on a line
 * redrawn in place, as `smkit collect` does, cleared before the run's own line; piped (cron), no
 * progress at all.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-terminal-'))
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

const environment = () => ({
	...process.env,
	SMKIT_UPSTREAM_URL: simulator.url,
	NO_COLOR: '1',
	TERM: 'xterm-256color'
})
const store = (name: string) => ['--demo', '--db', name, '--env', 'none.env']

/** What `smkit watch ARGS` printed on a 200-column terminal. */
async function onTerminal(args: string[]): Promise<string> {
	let screen = ''
	const child = Bun.spawn([binary, 'watch', ...args], {
		cwd: folder,
		env: environment(),
		terminal: {
			cols: 200,
			rows: 50,
			data(_terminal, data) {
				screen += new TextDecoder().decode(data)
			}
		}
	})
	expect(await child.exited).toBe(0)
	return screen
}

test('a follower list shows its progress on a terminal, then the run line', async () => {
	const add = await runProcess([binary, 'watch', 'add', 'mega.travel', '--followers', ...store('t.db')], {
		cwd: folder,
		env: environment()
	})
	expect(add.code).toBe(0)
	const screen = await onTerminal(['run', ...store('t.db')])
	expect(screen).toMatch(/watch 1 @mega\.travel followers {2}\[#+\.*\] {2}[\d,]+\/5,400 {2}\d+%/)
	expect(screen).toContain('\r\x1b[2K')
	expect(screen).toMatch(/ok {6}watch 1 @mega\.travel: snapshot 1, 5,400 followers \(list of 5,400\)/)
}, 60_000)

test('piped, watch run prints only its run lines', async () => {
	expect(
		(
			await runProcess([binary, 'watch', 'add', 'mega.travel', '--followers', ...store('p.db')], {
				cwd: folder,
				env: environment()
			})
		).code
	).toBe(0)
	const run = await runProcess([binary, 'watch', 'run', ...store('p.db')], {
		cwd: folder,
		env: environment()
	})
	expect(run.code).toBe(0)
	expect(run.stderr).toBe('')
	expect(run.stdout.trim()).toMatch(
		/^ok {6}watch 1 @mega\.travel: snapshot 1, 5,400 followers \(list of 5,400\)$/
	)
}, 60_000)
