/**
 * A job's requests are not retried inside the client, whichever client runs it: the playground's
 * and the MCP server's shared client retries 429s and 5xx for their interactive requests, but a
 * job run there (the Jobs panel) waits with its own back-off, which it reports (`waiting`, `wait`
 * events, Retry-After honoured), as `smkit collect` does with its client of no retries. Retried
 * inside the client, the waits went unseen: the job showed `running` for as long.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobManager } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-client-retries-'))
	store = openStore(join(folder, 'smkit.db'))
})
afterEach(() => {
	simulator.sim.faults.clear()
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

test("a playground job reports Instagram's 429s as its own waits; the shared client does not retry them", async () => {
	// The playground's client: the default three retries.
	const ig = simulator.client({ maxRetries: 3 })
	const manager = new JobManager({ jobs: new JobStore(store), ig, backoffMs: 1 })
	try {
		simulator.sim.faults.set({ kind: 'rate_limit', retryAfter: 1, pathPattern: '/followers/', times: 2 })
		const events: JobEvent[] = []
		const job = manager.start({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		manager.subscribe(job.id, (event) => events.push(event))
		const finished = await manager.settled(job.id)
		expect(finished?.status).toBe('done')
		const waits = events.filter((event) => event.type === 'wait')
		expect(waits.length).toBe(2)
		for (const wait of waits) expect(wait.wait_ms).toBeGreaterThanOrEqual(1000)
		const waiting = events.filter((event) => event.type === 'status' && event.job.status === 'waiting')
		expect(waiting.map((event) => event.job.error_code)).toEqual(['rate_limited', 'rate_limited'])
		// Interactive requests of the same client keep its retries.
		simulator.sim.faults.set({ kind: 'rate_limit', retryAfter: 0, pathPattern: '/followers/', times: 1 })
		expect((await ig.friendships.getFollowers(DEMO_PRESETS.luna.pk)).items.length).toBeGreaterThan(0)
	} finally {
		await manager.stop()
	}
})
