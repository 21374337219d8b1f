/**
 * A page waiting in the client's rate limiter (its budget, which can last minutes at --speed safe)
 * while another process on the store pauses, cancels or deletes the job: the run hears it within a
 * second of it, aborts that request alone (its slot is given back, nothing is sent) and stops as at
 * a checkpoint, leaving the status as the other process wrote it, without counting it as a failure.
 * Resumed there meanwhile (`queued`), the job stays this run's. luna.explorer's followers come in two
 * pages; a budget of one follower page a window makes the second wait.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { STATUS_CHECK_MS } from '../../src/jobs/checkpoints'
import { JobManager } from '../../src/jobs/manager'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
const followerSpec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username }
/** The second page waits `windowMs` for its slot. */
const budget = (windowMs: number) => ({ rateLimits: { get_default: { limit: 1, windowMs } } })
let folder: string
let stores: Store[]
let processes: Bun.Subprocess[]

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-limiter-stopped-elsewhere-'))
	stores = []
	processes = []
})
afterEach(() => {
	for (const store of stores) store.close()
	for (const child of processes) child.kill()
	rmSync(folder, { recursive: true, force: true })
})

/** A JobStore over the test's database file, as one process opens it (`pid`: the process it stands for). */
function processStore(pid?: number): JobStore {
	const store = openStore(join(folder, 'smkit.db'))
	stores.push(store)
	return new JobStore(store, { pid })
}

/** Resolves with the first event `accept` takes among those `subscribe` delivers. */
function firstEvent(
	subscribe: (listener: (event: JobEvent) => void) => void,
	accept: (event: JobEvent) => boolean
) {
	return new Promise<JobEvent>((resolve) => subscribe((event) => accept(event) && resolve(event)))
}

for (const action of ['paused', 'cancelled', 'deleted'] as const)
	test(`${action} by another process while a page waits in the rate limiter: the run stops within a second`, async () => {
		const runner = processStore()
		const other = processStore()
		const ig = simulator.client(budget(50_000))
		const job = runner.create(followerSpec, 'playground')
		const events: JobEvent[] = []
		const listeners: ((event: JobEvent) => void)[] = [(event) => events.push(event)]
		const run = runJob(runner, job.id, {
			ig,
			onEvent: (event) => {
				for (const listener of listeners) listener(event)
			}
		})
		// The first page is stored and the second, read ahead, waits 50 s for its slot.
		const wait = await firstEvent(
			(listener) => listeners.push(listener),
			(event) => event.type === 'wait'
		)
		expect(wait.wait_ms).toBeGreaterThan(40_000)
		const askedBefore = simulator.sent.length
		// The first page's slot, and the one the second waits for.
		expect(ig.stats.limiter?.remaining().get_default?.used).toBe(2)
		const writtenAt = Date.now()
		if (action === 'deleted') other.delete(job.id)
		else other.setStatus(job.id, action)

		const ended = await run
		expect(Date.now() - writtenAt).toBeLessThan(STATUS_CHECK_MS + 1000)
		expect(ended.id).toBe(job.id)
		expect(other.get(job.id)?.status).toBe(action === 'deleted' ? undefined : action)
		if (action !== 'deleted') expect(other.get(job.id)).toMatchObject({ pages: 1, error: null })
		expect(other.liveRunner(job.id)).toBeNull()
		// Nothing was sent for the page given up, and its slot went back to the budget.
		expect(simulator.sent.length).toBe(askedBefore)
		expect(ig.stats.limiter?.remaining().get_default?.used).toBe(1)
		// Not a failed attempt (no back-off), and the other process's word is not said as this run's.
		expect(events.map((event) => `${event.type} ${event.job.status}`)).toEqual([
			'status running',
			'page running',
			'wait running'
		])
	})

test('paused and resumed by another process while a page waits in the rate limiter: the run keeps the job and finishes it', async () => {
	const runner = processStore()
	const other = processStore()
	const job = runner.create(followerSpec, 'playground')
	const events: JobEvent[] = []
	const listeners: ((event: JobEvent) => void)[] = [(event) => events.push(event)]
	const run = runJob(runner, job.id, {
		ig: simulator.client(budget(STATUS_CHECK_MS * 3)),
		onEvent: (event) => {
			for (const listener of listeners) listener(event)
		}
	})
	await firstEvent(
		(listener) => listeners.push(listener),
		(event) => event.type === 'wait'
	)
	const takenBack = firstEvent(
		(listener) => listeners.push(listener),
		(event) => event.type === 'status'
	)
	const writtenAt = Date.now()
	other.setStatus(job.id, 'paused')
	other.setStatus(job.id, 'queued')
	// Taken back as running at the next check, while the page still waits for its slot (3 s).
	expect(await takenBack).toMatchObject({ job: { status: 'running', pages: 1 } })
	expect(Date.now() - writtenAt).toBeLessThan(STATUS_CHECK_MS * 2)
	expect(await run).toMatchObject({ status: 'done', pages: 2 })
	expect(events.map((event) => `${event.type} ${event.job.status}`)).toEqual([
		'status running',
		'page running',
		'wait running',
		'status running',
		'page running',
		'status done'
	])
})

test('paused in another playground while this one waits in the rate limiter: this one says paused at once, and a resume there runs it', async () => {
	const child = Bun.spawn(['sleep', '60'])
	processes.push(child)
	const a = new JobManager({ jobs: processStore(child.pid), ig: simulator.client(budget(50_000)) })
	const b = new JobManager({ jobs: processStore(), ig: simulator.client() })
	try {
		const job = a.start(followerSpec)
		const seenByA: JobEvent[] = []
		a.subscribe(job.id, (event) => seenByA.push(event))
		await firstEvent(
			(listener) => a.subscribe(job.id, listener),
			(event) => event.type === 'wait'
		)
		const settledInA = a.settled(job.id)

		expect((await b.pause(job.id)).status).toBe('paused')
		expect(await settledInA).toMatchObject({ status: 'paused', pages: 1 })
		expect(a.runsHere(job.id)).toBe(false)
		expect(seenByA.map((event) => `${event.type} ${event.job.status}`)).toEqual([
			'page running',
			'wait running',
			'status paused'
		])

		// Let go there: resumed here, it runs here at once, from its stored page.
		expect(['queued', 'running']).toContain(b.resume(job.id).status)
		expect(b.jobs.liveRunner(job.id)).toBeNull()
		expect(await b.settled(job.id)).toMatchObject({ status: 'done', pages: 2 })
		const walked = await simulator.client().friendships.getFollowers(DEMO_PRESETS.luna.pk, { count: 1000 })
		expect([...b.jobs.records(job.id)].map((record) => (record as { pk: string }).pk)).toEqual(
			walked.items.map((user) => user.pk)
		)
	} finally {
		await a.stop()
		await b.stop()
	}
})
