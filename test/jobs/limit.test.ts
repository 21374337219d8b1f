/**
 * A job with a limit keeps the first records of the list, as many as the limit, even when the list
 * moves under it: a record repeated at a page start (a new follower arrived at the top) is stored
 * once and does not take the place of a new record.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store
let jobs: JobStore

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-limit-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
})
afterEach(() => {
	simulator.sim.state.unfollow(DEMO_PRESETS.mega.pk)
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

test('a record repeated at a page start does not cost the limit a record of that page', async () => {
	const state = simulator.sim.state
	const before = [...state.followersOf(DEMO_PRESETS.mega.pk)]
	const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.mega.username, limit: 300 })
	const finished = await runJob(jobs, job.id, {
		ig: simulator.client(),
		onEvent: (event) => {
			// A new follower after the first page: every later position moves one place down, so the
			// second page begins with the record the first one ended with.
			if (event.type === 'page' && event.job.pages === 1) state.follow(DEMO_PRESETS.mega.pk)
		}
	})
	expect(state.followersOf(DEMO_PRESETS.mega.pk)[0]).toBe(state.viewerPk)
	expect(finished).toMatchObject({ status: 'done', collected: 300 })
	const pks = [...jobs.records(job.id)].map((record) => (record as { pk: string }).pk)
	expect(pks).toEqual(before.slice(0, 300))
})
