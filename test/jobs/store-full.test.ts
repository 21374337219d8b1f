/**
 * The disk filling up under a job: storing a page fails with SQLite's "database or disk is full".
 * The job fails with what to do, as the store's other errors say it (`storeError`), rather than the
 * bare message, and continues from its last stored page once there is room again. The full disk is
 * a store whose size is capped (`PRAGMA max_page_count`) two pages in.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-store-full-'))
	store = openStore(join(folder, 'f.db'))
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

const pageCount = () => store.db.query<{ page_count: number }, []>('PRAGMA page_count').get()?.page_count

test('a full disk fails the job saying to free some space; run again, it continues from its last stored page', async () => {
	const jobs = new JobStore(store)
	const job = jobs.create({ kind: 'followers', target: 'mega.travel' }, 'playground')
	const full = await runJob(jobs, job.id, {
		ig: simulator.client(),
		onEvent: (event) => {
			if (event.type === 'page' && event.job.pages === 2)
				store.db.exec(`PRAGMA max_page_count = ${pageCount()}`)
		}
	})
	expect(full.status).toBe('failed')
	expect(full.error).toBe(
		'The store failed: database or disk is full (the disk is full: free some space, then resume the job or run it again: it continues from its last stored page)'
	)
	expect(full.collected).toBe(400)

	store.db.exec('PRAGMA max_page_count = 1073741823')
	const again = await runJob(jobs, job.id, { ig: simulator.client() })
	expect(again).toMatchObject({ status: 'done', collected: 5400, error: null })
}, 30_000)
