/**
 * A watch run stopped while its follower list was collected leaves the list paused, and only `smkit
 * watch run ID` continues it (within the hour; later it starts over). `watch show` says so (its
 * `--json` carries `pending_list`) and `watch list` marks the watch `list paused`, rather than only
 * `status ok, next run tomorrow`.
 */
import { afterAll, afterEach, beforeAll, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobStore } from '../../src/jobs/store'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { runWatchCommand } from '../../src/watch/cli'
import { WATCH_JOB_OWNER } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-paused-list-'))
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})
afterEach(() => {
	process.exitCode = 0
})

const flags = ['--demo', '--db', 'p.db', '--env', 'none.env']
const watch = (...args: string[]) =>
	runProcess([binary, 'watch', ...args, ...flags], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url }
	})

test('after Ctrl-C during the list, watch show and watch list say it is paused and how it continues', async () => {
	expect((await watch('add', 'mega.travel', '--followers')).code).toBe(0)
	expect((await watch('run')).code).toBe(0)

	simulator.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: 'followers' })
	const before = simulator.requests.count(/followers/)
	const child = Bun.spawn([binary, 'watch', 'run', '1', ...flags], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url },
		stdout: 'ignore',
		stderr: 'ignore'
	})
	while (simulator.requests.count(/followers/) < before + 2) await Bun.sleep(10)
	child.kill('SIGINT')
	expect(await child.exited).toBe(130)
	simulator.faults.clear()

	const shown = await watch('show', '1')
	expect(shown.stdout).toMatch(
		/Follower list paused at [\d,]+ of 5,400 followers \(job \d+\): smkit watch run 1 --demo --db p\.db --env none\.env continues it until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(an hour after it stopped\); later the run starts it over/
	)
	const json = JSON.parse((await watch('show', '1', '--json')).stdout)
	expect(json.watch.pending_list).toMatchObject({ status: 'paused', total: 5400, continues: true })
	expect(json.watch.pending_list.collected).toBeGreaterThan(0)
	expect(json.watch.pending_list.collected).toBeLessThan(5400)

	const listed = await watch('list')
	expect(listed.stdout).toMatch(/list paused [\d,]+\/5,400/)
	const [entry] = JSON.parse((await watch('list', '--json')).stdout)
	expect(entry.pending_list.job_id).toBe(json.watch.pending_list.job_id)

	// What it says is so: the run continues that list, and then nothing waits.
	const again = await watch('run', '1')
	expect(again.code).toBe(0)
	const after = JSON.parse((await watch('show', '1', '--json')).stdout)
	expect(after.watch.pending_list).toBeNull()
	expect((await watch('list')).stdout).not.toContain('list paused')
}, 60_000)

/** A watch of luna.explorer whose pending list is as `job` says, in a store of its own. */
function storeWithPendingList(name: string, job: Record<string, string | number | null>) {
	const path = join(folder, `${name}.db`)
	const store = openStore(path)
	const watches = new WatchStore(store, { demo: false })
	const created = watches.create({
		kind: 'account',
		target: 'luna.explorer',
		every_seconds: 86_400,
		followers: true
	})
	const { id } = new JobStore(store, { demo: false }).create(
		{ kind: 'followers', target: 'luna.explorer' },
		WATCH_JOB_OWNER
	)
	watches.setPendingJob(created.id, id)
	for (const [column, value] of Object.entries(job))
		store.db.query(`UPDATE jobs SET ${column} = ? WHERE id = ?`).run(value, id)
	store.close()
	return path
}

/** `smkit watch ACTION ID` in this process: what it printed. */
async function printed(action: string, args: string[], db: string) {
	const write = spyOn(process.stdout, 'write').mockImplementation(() => true)
	try {
		await runWatchCommand(action, args, { db, env: join(folder, 'none.env') })
		return write.mock.calls.map((call) => String(call[0])).join('')
	} finally {
		write.mockRestore()
	}
}

test('a list paused over an hour ago: the next run starts it over', async () => {
	const old = new Date(Date.now() - 2 * 3600_000).toISOString()
	const db = storeWithPendingList('stale', { status: 'paused', collected: 50, total: 263, updated_at: old })
	expect(await printed('show', ['1'], db)).toContain(
		`Follower list paused at 50 of 263 followers (job 1) over an hour ago: the next run (smkit watch run 1 --db ${db} --env ${join(folder, 'none.env')}) starts it over`
	)
	expect(await printed('list', [], db)).toContain('list paused 50/263')
})

test('a complete list without its snapshot, and one another process collects now', async () => {
	const now = new Date().toISOString()
	const complete = storeWithPendingList('complete', {
		status: 'done',
		collected: 263,
		total: 263,
		updated_at: now
	})
	expect(await printed('show', ['1'], complete)).toContain(
		'Follower list complete (263 of 263 followers, job 1), its snapshot not stored yet: smkit watch run 1'
	)
	expect(await printed('list', [], complete)).toContain('list complete, not stored')

	const other = Bun.spawn(['sleep', '30'])
	try {
		const collecting = storeWithPendingList('collecting', {
			status: 'running',
			collected: 10,
			total: null,
			runner_pid: other.pid,
			updated_at: now
		})
		expect(await printed('show', ['1'], collecting)).toContain(
			'Follower list being collected now: 10 followers (job 1)'
		)
		expect(await printed('list', [], collecting)).not.toMatch(/list (paused|complete)/)
	} finally {
		other.kill()
	}
})
