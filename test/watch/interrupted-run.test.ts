/**
 * After Ctrl-C or SIGTERM stops `smkit watch run`, the advice names the watches to run by id:
 * `smkit watch run` alone runs only due watches, so a watch run by id when it was not due was never
 * continued. The same when the run was waiting for another process's run of the watch; and `smkit
 * jobs show` of the stopped follower list names the watch whose run continues it.
 */
import { Database } from 'bun:sqlite'
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
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-interrupted-'))
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

const environment = () => ({ ...process.env, SMKIT_UPSTREAM_URL: simulator.url })
const store = ['--demo', '--db', 'i.db', '--env', 'none.env']
const watch = (...args: string[]) =>
	runProcess([binary, 'watch', ...args, ...store], { cwd: folder, env: environment() })

/** `smkit watch ARGS` started in the background, its standard error read whole. */
function start(...args: string[]) {
	const child = Bun.spawn([binary, 'watch', ...args, ...store], {
		cwd: folder,
		env: environment(),
		stdout: 'ignore',
		stderr: 'pipe'
	})
	return { child, stderr: new Response(child.stderr).text() }
}

test('a watch run by id when not due is named in the advice, and in jobs show of its list', async () => {
	expect((await watch('add', 'luna.explorer')).code).toBe(0)
	expect((await watch('add', 'mega.travel', '--followers')).code).toBe(0)
	// Both run once: neither is due any more.
	expect((await watch('run')).code).toBe(0)

	simulator.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: 'followers' })
	const before = simulator.requests.count(/followers/)
	const run = start('run', '2')
	while (simulator.requests.count(/followers/) < before + 2) await Bun.sleep(10)
	run.child.kill('SIGINT')
	expect(await run.child.exited).toBe(130)
	simulator.faults.clear()
	expect(await run.stderr).toContain(
		'Interrupted: run smkit watch run 2 --demo --db i.db --env none.env to finish watch 2 (a follower list continues where it stopped'
	)

	const jobs = JSON.parse(
		(await runProcess([binary, 'jobs', '--json', '--db', 'i.db'], { cwd: folder })).stdout
	) as { id: number; status: string }[]
	const stopped = jobs.find((job) => job.status === 'paused')
	expect(stopped).toBeDefined()
	const shown = await runProcess([binary, 'jobs', 'show', String(stopped?.id), '--db', 'i.db'], {
		cwd: folder
	})
	expect(shown.stdout).toContain(
		'Stopped when a watch run ended: it continues when watch 2 runs again (smkit watch run 2 --demo, same --db)'
	)
	expect(shown.stdout).not.toContain('starts again on this store')

	// The advice works: the list is finished though the watch is not due.
	const again = await watch('run', '2')
	expect(again.code).toBe(0)
	expect(again.stdout).toMatch(/ok +watch 2 @mega\.travel: snapshot \d+/)
}, 60_000)

test('a watch run waiting for another process, stopped, names the watch too', async () => {
	// The test process stands for another process running watch 1 (its pid is alive).
	const db = new Database(join(folder, 'i.db'))
	const setRunner = db.query('UPDATE watches SET runner = ? WHERE id = 1')
	try {
		setRunner.run(`${process.pid}:elsewhere`)
		const run = start('run', '1')
		await Bun.sleep(1500)
		run.child.kill('SIGTERM')
		// 128 + SIGTERM's 15 (Ctrl-C's SIGINT: 130).
		expect(await run.child.exited).toBe(143)
		expect(await run.stderr).toContain(
			'Interrupted: run smkit watch run 1 --demo --db i.db --env none.env to finish watch 1 ('
		)
	} finally {
		setRunner.run(null)
		db.close()
	}
}, 30_000)
