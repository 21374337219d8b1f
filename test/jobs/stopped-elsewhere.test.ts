/**
 * A job backing off after upstream failures, while another process on the same store (a second
 * playground) pauses, cancels or deletes it: that word stands. The runner stops within a second of
 * it, asks Instagram nothing more, and never writes `waiting` or `running` over it.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let stores: Store[]

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-stopped-elsewhere-'))
	stores = []
})
afterEach(() => {
	simulator.sim.faults.clear()
	for (const store of stores) store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** A JobStore over the test's database file, as one process opens it. */
function processStore(): JobStore {
	const store = openStore(join(folder, 'smkit.db'))
	stores.push(store)
	return new JobStore(store)
}

for (const action of ['paused', 'cancelled', 'deleted'] as const)
	test(`${action} by another process during a long back-off: the job stays ${action}`, async () => {
		const runner = processStore()
		const other = processStore()
		// Every followers page answers 429: without the other process, the job would wait and retry
		// for minutes (5-second steps, 40 attempts).
		simulator.sim.faults.set({ kind: 'rate_limit', retryAfter: 0, pathPattern: 'followers' })
		const job = runner.create({ kind: 'followers', target: DEMO_PRESETS.luna.username }, 'playground')
		const events: JobEvent[] = []
		const run = runJob(runner, job.id, {
			ig: simulator.client({ maxRetries: 0 }),
			backoffMs: 5000,
			maxBackoffMs: 5000,
			onEvent: (event) => events.push(event)
		})
		while (other.get(job.id)?.status !== 'waiting') await Bun.sleep(5)
		if (action === 'deleted') other.delete(job.id)
		else other.setStatus(job.id, action)
		const askedBefore = simulator.sent.length
		const ended = await run
		expect(ended.id).toBe(job.id)
		await Bun.sleep(100)
		expect(other.get(job.id)?.status).toBe(action === 'deleted' ? undefined : action)
		expect(simulator.sent.length).toBe(askedBefore)
		// Every event names its job: a deleted one is never reported as undefined.
		for (const event of events) expect(event.job?.id).toBe(job.id)
		expect(events.some((event) => event.type === 'status' && event.job.status === action)).toBe(false)
	})
