/**
 * Which waits a job reports: a budget wait of its own requests, at the moment it is waiting (also
 * when the page waiting is the one read ahead while the previous page is stored), and never the
 * wait of a request that is not its own (the playground's interactive requests, another job).
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobManager } from '../../src/jobs/manager'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store
let jobs: JobStore

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-job-waits-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

// luna.explorer's followers come in two pages; one follower page a second makes the second wait.
const followerSpec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username }
const onePagePerSecond = { rateLimits: { get_default: { limit: 1, windowMs: 1000 } } }

test('the budget wait of the page read ahead is reported after the page before it is stored, so it is not lost', async () => {
	const job = jobs.create(followerSpec)
	const events: JobEvent[] = []
	const finished = await runJob(jobs, job.id, {
		ig: simulator.client(onePagePerSecond),
		onEvent: (event) => events.push(event)
	})
	expect(finished).toMatchObject({ status: 'done', pages: 2 })
	const steps = events.map((event) => `${event.type} ${event.job.pages}`)
	expect(steps).toEqual(['status 0', 'page 1', 'wait 1', 'page 2', 'status 2'])
	expect(events[2]?.wait_ms).toBeGreaterThan(0)
})

test('a subscriber arriving after the first page learns of the wait for the second', async () => {
	const manager = new JobManager({ jobs, ig: simulator.client(onePagePerSecond) })
	try {
		const job = manager.start(followerSpec)
		const wait = await new Promise<JobEvent | undefined>((resolve) => {
			const stop = manager.subscribe(job.id, (event) => {
				if (event.type !== 'page') return
				stop()
				// Whatever is dispatched with the page has happened by the next turn.
				setTimeout(() => resolve(manager.currentWait(job.id)), 0)
			})
		})
		expect(wait).toMatchObject({ type: 'wait', job: { id: job.id, status: 'running', pages: 1 } })
		expect(wait?.wait_ms).toBeGreaterThan(0)
		expect((await manager.settled(job.id))?.status).toBe('done')
	} finally {
		await manager.stop()
	}
})

test('a wait of a request that is not the job’s (another job, the playground) is not reported as the job’s', async () => {
	const ig = simulator.client({ rateLimits: { get_search: { limit: 1, windowMs: 5000 } } })
	const job = jobs.create(followerSpec)
	const events: JobEvent[] = []
	const running = runJob(jobs, job.id, { ig, onEvent: (event) => events.push(event) })
	// Someone else's second search of the window waits for a slot while the job runs.
	const other = new AbortController()
	await ig.stats.limiter?.acquire('get_search', 'GET /search (test)')
	const waiting = ig.stats.limiter?.acquire('get_search', 'GET /search (test)', other.signal)
	const finished = await running
	other.abort(new Error('test over'))
	await waiting?.catch(() => {})
	expect(finished.status).toBe('done')
	expect(events.filter((event) => event.type === 'wait')).toEqual([])
})
