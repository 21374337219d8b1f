/**
 * Two processes on one store (a playground left open and `smkit watch run` from cron): a due watch
 * is run by one of them, once, and a run asked for while the other process runs the watch waits for
 * that run and answers its snapshot instead of taking a second one.
 */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { WatchScheduler } from '../../src/watch/scheduler'
import { WatchStore } from '../../src/watch/store'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()

/** A scheduler on its own connection to the file, as another process has. */
function schedulerOn(path: string) {
	const store = openStore(path)
	const watches = new WatchStore(store)
	const scheduler = new WatchScheduler({
		watches,
		jobs: new JobStore(store),
		ig: simulator.client(),
		log: () => {}
	})
	return { store, watches, scheduler }
}

type Process = ReturnType<typeof schedulerOn>

/** Runs `use` with two schedulers on one new store file, as two processes; cleans up after. */
async function withTwoProcesses(use: (one: Process, two: Process, path: string) => Promise<void>) {
	const folder = mkdtempSync(join(tmpdir(), 'smkit-shared-watch-'))
	const path = join(folder, 'smkit.db')
	const [one, two] = [schedulerOn(path), schedulerOn(path)]
	try {
		await use(one, two, path)
	} finally {
		simulator.sim.faults.clear()
		await Promise.all([one.scheduler.stop(), two.scheduler.stop()])
		one.store.close()
		two.store.close()
		rmSync(folder, { recursive: true, force: true })
	}
}

test('a due watch runs once when two processes find it due at the same time', async () => {
	await withTwoProcesses(async (one, two, path) => {
		simulator.sim.faults.set({ kind: 'latency', latencyMs: 40 })
		const counts = one.watches.create({
			kind: 'account',
			target: 'mega.travel',
			every_seconds: 86_400,
			followers: false
		})
		const list = one.watches.create({
			kind: 'account',
			target: 'luna.explorer',
			every_seconds: 86_400,
			followers: true
		})
		const [first, second] = await Promise.all([one.scheduler.runDue(), two.scheduler.runDue()])
		const ran = [...first, ...second]
		expect(ran.filter((outcome) => outcome.error !== undefined)).toEqual([])
		expect(ran.map((outcome) => outcome.watch.id).sort()).toEqual([counts.id, list.id])
		for (const watch of [counts, list]) {
			expect(one.watches.snapshots(watch.id)).toHaveLength(1)
			expect(one.watches.get(watch.id)?.last_status).toBe('ok')
		}

		// Asked to run now while the other process runs it: its snapshot is the answer. A third
		// process that runs nothing sees the watch as running meanwhile.
		const three = schedulerOn(path)
		let seenRunning = false
		const watching = setInterval(() => {
			seenRunning ||= three.scheduler.isRunning(list.id)
		}, 5)
		const [theirs, mine] = await Promise.all([
			one.scheduler.run(list.id),
			Bun.sleep(20).then(() => two.scheduler.run(list.id))
		])
		clearInterval(watching)
		expect(seenRunning).toBe(true)
		expect(three.scheduler.isRunning(list.id)).toBe(false)
		three.store.close()
		expect(mine.id).toBe(theirs.id)
		expect(one.watches.snapshots(list.id)).toHaveLength(2)
	})
})

test('a run left by a killed process, or by an earlier process that had this pid, is taken over', async () => {
	await withTwoProcesses(async (one) => {
		const dead = Bun.spawn(['true'])
		await dead.exited
		const watches = [
			one.watches.create({ kind: 'account', target: 'mega.travel', every_seconds: 86_400, followers: false }),
			one.watches.create({ kind: 'hashtag', target: 'sunset', every_seconds: 86_400, followers: false })
		]
		const setRunner = one.store.db.query('UPDATE watches SET runner = ? WHERE id = ?')
		setRunner.run(`${dead.pid}:killed`, watches[0].id)
		// A container restarts its server with the same pid: the old run's lease is not this process's.
		setRunner.run(`${process.pid}:before-restart`, watches[1].id)
		const outcomes = await one.scheduler.runDue()
		expect(outcomes.map((outcome) => [outcome.watch.id, outcome.error])).toEqual([
			[watches[0].id, undefined],
			[watches[1].id, undefined]
		])
		const runners = one.store.db.query('SELECT runner FROM watches ORDER BY id').all()
		expect(runners).toEqual([{ runner: null }, { runner: null }])
	})
})

test('a watch removed while it runs ends its run saying so, and leaves no snapshot or list behind', async () => {
	await withTwoProcesses(async (one, two) => {
		// The other process removes each watch while its profile is being read.
		simulator.sim.faults.set({ kind: 'latency', latencyMs: 150, pathPattern: 'web_profile_info' })
		for (const followers of [true, false]) {
			const watch = one.watches.create({
				kind: 'account',
				target: 'luna.explorer',
				every_seconds: 86_400,
				followers
			})
			const run = one.scheduler.run(watch.id).then(
				() => 'stored',
				(error: Error) => error.message
			)
			await Bun.sleep(50)
			two.watches.delete(watch.id)
			expect(await run).toBe('the watch was removed during its run')
		}
		expect(one.store.db.query('SELECT count(*) AS n FROM watch_snapshots').get()).toEqual({ n: 0 })
		expect(one.store.db.query('SELECT count(*) AS n FROM job_records').get()).toEqual({ n: 0 })
	})
})
