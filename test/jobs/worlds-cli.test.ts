/**
 * One store, demo and real runs: `smkit collect` continues only a job of its own Instagram, and
 * `smkit watch run` runs only watches of its own, saying which it left; the lists mark demo data.
 * Compiled binary; "real" is the demo session pointed at a simulator through an env file, as if it
 * were Instagram.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-worlds-cli-'))
	const session = [
		`SESSION_ID=${DEMO_CREDENTIALS.sessionId}`,
		`CSRF_TOKEN=${DEMO_CREDENTIALS.csrfToken}`,
		`DS_USER_ID=${DEMO_CREDENTIALS.dsUserId}`,
		`SMKIT_UPSTREAM_URL=${simulator.url}`
	]
	writeFileSync(join(folder, 'real.env'), `${session.join('\n')}\n`, { mode: 0o600 })
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

const environment = () => ({ PATH: process.env.PATH, HOME: folder, NO_COLOR: '1' })
/** `smkit ARGS` in demo mode, on the test's simulator. */
const demo = (...args: string[]) =>
	runProcess([binary, ...args, '--demo', '--env', 'none.env', '--db', 'w.db'], {
		cwd: folder,
		env: { ...environment(), SMKIT_UPSTREAM_URL: simulator.url }
	})
/** `smkit ARGS` on "Instagram" (the env file's session and upstream). */
const real = (...args: string[]) =>
	runProcess([binary, ...args, '--env', 'real.env', '--db', 'w.db'], { cwd: folder, env: environment() })

/** `smkit jobs ARGS` (no Instagram needed). */
const jobs = (...args: string[]) =>
	runProcess([binary, 'jobs', ...args, '--db', 'w.db'], { cwd: folder, env: environment() })

function jobsTable(): { id: number; status: string; demo: number | null }[] {
	const store = openStore(join(folder, 'w.db'))
	try {
		return store.db
			.query<{ id: number; status: string; demo: number | null }, []>(
				'SELECT id, status, demo FROM jobs ORDER BY id'
			)
			.all()
	} finally {
		store.close()
	}
}

const pause = (id: number) => {
	const store = openStore(join(folder, 'w.db'))
	store.db.query(`UPDATE jobs SET status = 'paused', runner_pid = NULL WHERE id = ?`).run(id)
	store.close()
}

test('collect continues only a job of its own Instagram, and the other stays as it was', async () => {
	const list = ['collect', 'followers', 'mega.travel', '--limit', '400']
	expect((await demo(...list, '--out', 'demo.jsonl')).code).toBe(0)
	pause(1)
	const fromReal = await real(...list, '--out', 'real.jsonl')
	expect(fromReal.code).toBe(0)
	expect(fromReal.stderr).not.toContain('Continuing job 1')
	expect(fromReal.stderr).toContain('(job 2)')
	expect(readFileSync(join(folder, 'real.jsonl'), 'utf8').trim().split('\n')).toHaveLength(400)
	expect(jobsTable()).toEqual([
		{ id: 1, status: 'paused', demo: 1 },
		{ id: 2, status: 'done', demo: 0 }
	])
	pause(2)
	const fromDemo = await demo(...list, '--out', 'demo.jsonl')
	expect(fromDemo.stderr).toContain('Continuing job 1')
	expect(jobsTable().map((job) => job.status)).toEqual(['done', 'paused'])
	const listed = await jobs()
	expect(listed.stdout).toMatch(/^1 +cli \(demo\) +followers/m)
	expect(listed.stdout).toMatch(/^2 +cli +followers/m)
	expect((await jobs('show', '1')).stdout).toContain("from:       demo mode's simulated Instagram")
})

test('a job left running by a killed demo collect says to continue it with --demo', async () => {
	const store = openStore(join(folder, 'w.db'))
	store.db.query(`UPDATE jobs SET status = 'running', runner_pid = NULL WHERE id = 1`).run()
	store.close()
	expect((await jobs('show', '1')).stdout).toContain(
		'run `smkit collect followers mega.travel --limit 400 --demo` again (same --db)'
	)
})

test('watch run runs only watches of its own Instagram and names those it left', async () => {
	expect((await demo('watch', 'add', 'luna.explorer')).code).toBe(0)
	expect((await real('watch', 'add', '#sunset')).code).toBe(0)
	const due = await real('watch', 'run')
	expect(due.code).toBe(0)
	expect(due.stdout).toMatch(/ok +watch 2 #sunset/)
	expect(due.stdout).not.toContain('luna.explorer')
	expect(due.stderr).toContain('Not run here: watch 1 @luna.explorer (demo mode: run smkit watch run --demo)')
	const named = await real('watch', 'run', '1')
	expect(named.code).toBe(2)
	expect(named.stderr).toContain(
		"Watch 1 watches demo mode's simulated Instagram: run it with --demo (a watch never mixes demo and real snapshots)"
	)
	expect((await demo('watch', 'run', '1')).stdout).toMatch(/ok +watch 1 @luna\.explorer/)
	expect((await real('watch', 'list')).stdout).toMatch(/^1 +@luna\.explorer \(demo\)/m)
	const again = await real('watch', 'add', 'luna.explorer')
	expect(again.code).toBe(1)
	expect(again.stderr).toContain(
		"Already watched, from demo mode's simulated Instagram: account luna.explorer (watch 1); a store watches a target once: remove watch 1 first, or keep real watches in another --db"
	)
	// Nothing of its own due: the next one named is its own (#sunset), not the demo's.
	const none = await real('watch', 'run')
	expect(none.stdout).toStartWith('No watch is due; the next is #sunset at ')
})

test('watch run on a store of the other mode only says so, not "No watches yet"', async () => {
	const other = (mode: 'demo' | 'real', ...args: string[]) =>
		mode === 'demo'
			? runProcess([binary, ...args, '--demo', '--env', 'none.env', '--db', 'only-demo.db'], {
					cwd: folder,
					env: { ...environment(), SMKIT_UPSTREAM_URL: simulator.url }
				})
			: runProcess([binary, ...args, '--env', 'real.env', '--db', 'only-demo.db'], {
					cwd: folder,
					env: environment()
				})
	expect((await other('demo', 'watch', 'add', 'luna.explorer')).code).toBe(0)
	expect((await other('demo', 'watch', 'run')).code).toBe(0)
	const run = await other('real', 'watch', 'run')
	expect(run.code).toBe(0)
	expect(run.stdout.trim()).toBe('The 1 watch here is of demo mode: run smkit watch run --demo')
	const json = await other('real', 'watch', 'run', '--json')
	expect(JSON.parse(json.stdout)).toEqual([])
	expect(json.stderr).toContain('The 1 watch here is of demo mode')
})
