/**
 * The job manager: at most two jobs run at once, pause and resume continue from the checkpoint,
 * cancel keeps the records, and jobs left running by a stopped manager resume in the next one.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobManager } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import type { JobStatus } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store
let manager: JobManager

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-manager-'))
	store = openStore(join(folder, 'smkit.db'))
	manager = new JobManager({ jobs: new JobStore(store), ig: simulator.client() })
})
afterEach(async () => {
	simulator.sim.faults.clear()
	await manager.stop()
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

const followerSpec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username }
const pksOf = (id: number) => [...manager.jobs.records(id)].map((record) => (record as { pk: string }).pk)

test('at most two jobs run at once; the third waits queued and runs after', async () => {
	// Slow upstream answers keep the first two running while the third is checked.
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 30 })
	const seen = new Set<JobStatus>()
	let mostRunning = 0
	manager.subscribe('all', () => {
		const statuses = manager.list().map((job) => job.status)
		for (const status of statuses) seen.add(status)
		mostRunning = Math.max(mostRunning, statuses.filter((status) => status === 'running').length)
	})
	const started = [manager.start(followerSpec), manager.start(followerSpec), manager.start(followerSpec)]
	expect(manager.get(started[2].id)?.status).toBe('queued')
	const finished = await Promise.all(started.map((job) => manager.settled(job.id)))
	expect(finished.map((job) => job?.status)).toEqual(['done', 'done', 'done'])
	expect(mostRunning).toBe(2)
	expect(pksOf(started[0].id)).toEqual(pksOf(started[2].id))
})

test('pause stops at a checkpoint; resume continues to the exact list', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const job = manager.start(followerSpec)
	await new Promise<void>((resolve) => {
		const stop = manager.subscribe(job.id, (event) => {
			if (event.type === 'page') {
				stop()
				resolve()
			}
		})
	})
	const paused = await manager.pause(job.id)
	expect(paused.status).toBe('paused')
	const partial = paused.collected
	simulator.sim.faults.clear()
	manager.resume(job.id)
	const done = await manager.settled(job.id)
	expect(done?.status).toBe('done')
	expect(partial).toBeLessThan(done?.collected ?? 0)
	const walk = await simulator.client().friendships.getFollowers(DEMO_PRESETS.luna.pk, { count: 1000 })
	expect(pksOf(job.id)).toEqual(walk.items.map((user) => user.pk))
})

test('a manager that stops leaves its jobs to the next one, which resumes them', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const job = manager.start(followerSpec)
	const queued = manager.start({ ...followerSpec, limit: 10 })
	await manager.stop()
	expect(manager.jobs.get(job.id)?.status).toBe('running')
	simulator.sim.faults.clear()
	manager = new JobManager({ jobs: new JobStore(store), ig: simulator.client() })
	expect(
		manager
			.resumeInterrupted()
			.map((entry) => entry.id)
			.sort()
	).toEqual([job.id, queued.id].sort())
	expect((await manager.settled(job.id))?.status).toBe('done')
	expect((await manager.settled(queued.id))?.collected).toBe(10)
})

test('cancel keeps the records; delete removes the job', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const job = manager.start(followerSpec)
	const cancelled = await manager.cancel(job.id)
	expect(cancelled.status).toBe('cancelled')
	expect(() => manager.resume(9999)).toThrow('No job 9999')
	await manager.delete(job.id)
	expect(manager.get(job.id)).toBeUndefined()
})

test('a job in a wait tells a late subscriber how long is left, and forgets it once the job moves on', async () => {
	simulator.sim.faults.set({ kind: 'malformed', times: 1, pathPattern: 'followers' })
	await manager.stop()
	// As smkit collect's client: no retry inside the client, so the answer cut off reaches the job.
	const ig = simulator.client({ maxRetries: 0 })
	manager = new JobManager({ jobs: new JobStore(store), ig, backoffMs: 400 })
	const job = manager.start(followerSpec)
	await new Promise<void>((resolve) => {
		const stop = manager.subscribe(job.id, (event) => {
			if (event.type === 'wait') {
				stop()
				resolve()
			}
		})
	})
	const wait = manager.currentWait(job.id)
	expect(wait).toMatchObject({ type: 'wait', job: { id: job.id, status: 'waiting' } })
	expect(wait?.wait_ms).toBeGreaterThan(0)
	expect(wait?.wait_ms).toBeLessThanOrEqual(400 * 1.2)
	expect((await manager.settled(job.id))?.status).toBe('done')
	expect(manager.currentWait(job.id)).toBeUndefined()
})

test('a queued job that another live process took meanwhile is left to it, not marked failed', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 30 })
	const logs: string[] = []
	await manager.stop()
	manager = new JobManager({
		jobs: new JobStore(store),
		ig: simulator.client(),
		log: (line) => logs.push(line)
	})
	// Another playground on the same store, played by a live process of this machine.
	const other = Bun.spawn(['sleep', '60'])
	try {
		const [first, second, third] = [
			manager.start(followerSpec),
			manager.start(followerSpec),
			manager.start(followerSpec)
		]
		expect(manager.get(third.id)?.status).toBe('queued')
		store.db.query("UPDATE jobs SET runner_pid = ?, status = 'running' WHERE id = ?").run(other.pid, third.id)
		const finished = await Promise.all([first, second].map((job) => manager.settled(job.id)))
		expect(finished.map((job) => job?.status)).toEqual(['done', 'done'])
		// The freed slot went to the third job, which the other process runs: it stays the other's.
		await Bun.sleep(100)
		expect(manager.get(third.id)).toMatchObject({ status: 'running', error: null })
		expect(logs).toEqual([])
		expect(manager.jobs.records(third.id).next().done).toBe(true)
	} finally {
		other.kill()
	}
})

test('a queued job paused or deleted by another process while it waited does not run', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 30 })
	await manager.stop()
	manager = new JobManager({ jobs: new JobStore(store), ig: simulator.client(), maxRunning: 1 })
	const other = new JobStore(openStore(join(folder, 'smkit.db')))
	try {
		const [first, paused, deleted] = [
			manager.start(followerSpec),
			manager.start(followerSpec),
			manager.start(followerSpec)
		]
		other.setStatus(paused.id, 'paused', 'Paused elsewhere')
		other.delete(deleted.id)
		expect((await manager.settled(first.id))?.status).toBe('done')
		await Bun.sleep(100)
		expect(manager.get(paused.id)).toMatchObject({ status: 'paused', error: 'Paused elsewhere', pages: 0 })
		expect(manager.list().map((job) => job.id)).toEqual([paused.id, first.id])
	} finally {
		other.store.close()
	}
})

test('a settled() waiter whose signal aborts is let go: an event stream closed on a running job holds nothing', async () => {
	// A job another process left running: settled() waits on it, as each event stream does.
	const job = manager.jobs.create(followerSpec, 'cli')
	manager.jobs.setStatus(job.id, 'running')
	const refs: WeakRef<object>[] = []
	for (let index = 0; index < 20; index++) {
		const controller = new AbortController()
		const held = { stream: new Array(1000).fill(index) }
		refs.push(new WeakRef(held))
		void manager.settled(job.id, controller.signal).then(() => held.stream.length)
		controller.abort()
	}
	await Bun.sleep(0)
	Bun.gc(true)
	await Bun.sleep(0)
	Bun.gc(true)
	expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0)
})
