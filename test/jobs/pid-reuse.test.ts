/**
 * A runner is a pid and when its process started: a job (or a watch run) left by a process that
 * died, whose pid the system has given to an unrelated live process since, is not held by that
 * process. `collect`, `collect --fresh` and `jobs delete` (run from source) take it over instead of
 * asking the user to stop a process that has nothing to do with smkit; a runner written without its
 * start (a store of an older smkit) is judged by its pid, as before.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { processStart } from '../../src/jobs/process-alive'
import { JobStore } from '../../src/jobs/store'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore, type Store } from '../../src/store/db'
import { MIGRATIONS } from '../../src/store/migrations'
import { RunLeases } from '../../src/watch/run-lease'
import { WatchStore } from '../../src/watch/store'
import { runProcess } from '../support/process'

const root = resolve(import.meta.dir, '../..')
const bun = realpathSync(join(root, 'node_modules/.bin/bun'))
const main = join(root, 'src/main.ts')

let simulator: Simulator
let folder: string
let store: Store
/** A live process unrelated to smkit: the one the dead runner's pid went to. */
let stranger: Bun.Subprocess
/** A start that is not the stranger's: the dead runner's. */
const deadRunnerStart = '12345@00000000-0000-0000-0000-000000000000'

beforeAll(async () => {
	simulator = await startSimulator()
	stranger = Bun.spawn(['sleep', '120'])
})
afterAll(async () => {
	stranger.kill()
	await simulator.stop()
})
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-pid-reuse-'))
	store = openStore(join(folder, 'p.db'))
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** Job `id` left running by the runner `pid` that started at `started` (null: not stored). */
function leftRunning(id: number, pid: number, started: string | null) {
	store.db
		.query("UPDATE jobs SET status = 'running', runner_pid = ?, runner_started = ? WHERE id = ?")
		.run(pid, started, id)
}

function smkit(...args: string[]) {
	return runProcess([bun, main, ...args, '--db', 'p.db'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' }
	})
}

const spec = { kind: 'followers' as const, target: 'luna.explorer', limit: null }

test('a live pid that started at another moment is not the runner; the same start or none is', () => {
	const jobs = new JobStore(store, { demo: true })
	const job = jobs.create(spec, 'cli')
	expect(processStart(stranger.pid)).toMatch(/^\d+@[\w-]+$/)

	leftRunning(job.id, stranger.pid, processStart(stranger.pid))
	expect(jobs.liveRunner(job.id)).toBe(stranger.pid)
	expect(jobs.claim(job.id)).toBe(false)
	// A store of an older smkit has no start: the pid alone decides, as it did.
	leftRunning(job.id, stranger.pid, null)
	expect(jobs.liveRunner(job.id)).toBe(stranger.pid)
	expect(jobs.interrupted('cli')).toEqual([])

	leftRunning(job.id, stranger.pid, deadRunnerStart)
	expect(jobs.liveRunner(job.id)).toBeNull()
	expect(jobs.interrupted('cli').map((left) => left.id)).toEqual([job.id])
	expect(jobs.claim(job.id)).toBe(true)
	expect(store.db.query('SELECT runner_pid, runner_started FROM jobs WHERE id = ?').get(job.id)).toEqual({
		runner_pid: process.pid,
		runner_started: processStart(process.pid)
	})
	jobs.release(job.id)
	expect(store.db.query('SELECT runner_pid, runner_started FROM jobs WHERE id = ?').get(job.id)).toEqual({
		runner_pid: null,
		runner_started: null
	})
})

test('collect, collect --fresh and jobs delete take over a job whose pid went to an unrelated process', async () => {
	const jobs = new JobStore(store, { demo: true })
	const job = jobs.create(spec, 'cli')
	// Its live runner (the same pid and start) still holds it.
	leftRunning(job.id, stranger.pid, processStart(stranger.pid))
	const refused = await smkit('jobs', 'delete', String(job.id))
	expect(refused.code).toBe(1)
	expect(refused.stderr).toContain(`(process ${stranger.pid}): stop it there first`)

	leftRunning(job.id, stranger.pid, deadRunnerStart)
	const collect = (...flags: string[]) =>
		smkit(
			'collect',
			'followers',
			'luna.explorer',
			'--demo',
			'--env',
			'none.env',
			'--out',
			'f.jsonl',
			...flags
		)
	const continued = await collect()
	expect(continued.stderr).not.toContain('being collected by another process')
	expect(continued.stderr).toContain(`Continuing job ${job.id}`)
	expect(continued.code).toBe(0)

	leftRunning(job.id, stranger.pid, deadRunnerStart)
	store.db.query("UPDATE jobs SET status = 'running' WHERE id = ?").run(job.id)
	const fresh = await collect('--fresh')
	expect(fresh.stderr).toContain(`Starting over: job ${job.id}`)
	expect(fresh.code).toBe(0)

	leftRunning(job.id, stranger.pid, deadRunnerStart)
	const deleted = await smkit('jobs', 'delete', String(job.id))
	expect(deleted.stderr).toBe('')
	expect(deleted.code).toBe(0)
	expect(new JobStore(store).get(job.id)).toBeUndefined()
}, 60_000)

test('jobs-3 keeps the runners of an older store, judged by pid; an older smkit setting a runner clears the start', () => {
	const path = join(folder, 'old.db')
	const old = openStore(
		path,
		MIGRATIONS.filter((migration) => migration.id !== 'jobs-3')
	)
	const id = new JobStore(old).create(spec, 'cli').id
	old.db.query("UPDATE jobs SET status = 'running', runner_pid = ? WHERE id = ?").run(stranger.pid, id)
	old.close()
	const upgraded = openStore(path)
	try {
		const jobs = new JobStore(upgraded)
		expect(jobs.liveRunner(id)).toBe(stranger.pid)
		// An older smkit claims as it did (the pid alone): the previous runner's start goes with it.
		upgraded.db
			.query('UPDATE jobs SET runner_pid = NULL, runner_started = ? WHERE id = ?')
			.run(deadRunnerStart, id)
		upgraded.db.query('UPDATE jobs SET runner_pid = ? WHERE id = ?').run(stranger.pid, id)
		expect(upgraded.db.query('SELECT runner_started FROM jobs WHERE id = ?').get(id)).toEqual({
			runner_started: null
		})
		expect(jobs.liveRunner(id)).toBe(stranger.pid)
	} finally {
		upgraded.close()
	}
})

test("a watch run's lease held by a pid another process was given since is taken over", () => {
	const watches = new WatchStore(store)
	const watch = watches.create({
		kind: 'account',
		target: 'luna.explorer',
		every_seconds: 3600,
		followers: false
	})
	const leases = new RunLeases(store)
	const holdBy = (runner: string) =>
		store.db.query('UPDATE watches SET runner = ? WHERE id = ?').run(runner, watch.id)

	holdBy(`${stranger.pid}:token:${processStart(stranger.pid)}`)
	expect(leases.heldElsewhere(watch.id)).toBe(true)
	expect(leases.claim(watch.id)).toBe(false)
	// Written by an older smkit (no start): the pid decides.
	holdBy(`${stranger.pid}:token`)
	expect(leases.claim(watch.id)).toBe(false)

	holdBy(`${stranger.pid}:token:${deadRunnerStart}`)
	expect(leases.heldElsewhere(watch.id)).toBe(false)
	expect(leases.claim(watch.id)).toBe(true)
	const runner = store.db
		.query<{ runner: string }, [number]>('SELECT runner FROM watches WHERE id = ?')
		.get(watch.id)
	expect(runner?.runner).toStartWith(`${process.pid}:`)
	expect(runner?.runner).toEndWith(`:${processStart(process.pid)}`)
	leases.release(watch.id)
})
