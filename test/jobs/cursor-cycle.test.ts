/**
 * An upstream whose cursors go round (page A points to B, B back to A): a job without a limit
 * would ask for the same pages forever. A cursor it has asked with that comes back is not the end
 * of the list: the page is asked for again a few times, then the job fails (never `done` on a
 * partial list) with every record stored once and a message saying to run it again.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InstagramClient } from '../../src/client/client'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'

let folder: string
let store: Store

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-cursor-cycle-'))
	store = openStore(join(folder, 'smkit.db'))
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** Followers in pages: the first, then A, then B, whose cursor leads back to A. */
const PAGES: Record<string, { pks: string[]; next: string | null }> = {
	first: { pks: ['1', '2'], next: 'A' },
	A: { pks: ['3', '4'], next: 'B' },
	B: { pks: ['5', '6'], next: 'A' }
}

function cyclingClient(asked: (string | null)[]): InstagramClient {
	const user = (pk: string) => ({
		pk,
		username: `user${pk}`,
		full_name: '',
		is_private: false,
		is_verified: false
	})
	return {
		stats: {},
		users: { getByUsername: async () => ({ pk: '99', follower_count: 6 }) },
		friendships: {
			getFollowers: async (_pk: string, { cursor }: { cursor: string | null }) => {
				asked.push(cursor)
				if (asked.length > 50) throw new Error('the job keeps asking')
				const page = PAGES[cursor ?? 'first'] as (typeof PAGES)[string]
				return { items: page.pks.map(user), next_cursor: page.next }
			}
		}
	} as unknown as InstagramClient
}

for (const limit of [null, 100])
	test(`cursors that go round fail the job, not end it (limit ${limit}): each record once, the page asked again a few times`, async () => {
		const jobs = new JobStore(store)
		const job = jobs.create({ kind: 'followers', target: 'looping', limit })
		const asked: (string | null)[] = []
		const finished = await runJob(jobs, job.id, { ig: cyclingClient(asked), backoffMs: 1 })
		expect(finished.status).toBe('failed')
		expect(finished.error_code).toBe('upstream_error')
		expect(finished.error).toBe(
			'Instagram gave the same cursor again after 4 records: the list stopped early; run again to continue'
		)
		// Page B, whose cursor leads back to A, is not stored: a run again asks for it first.
		expect([...jobs.records(job.id)].map((record) => (record as { pk: string }).pk)).toEqual([
			'1',
			'2',
			'3',
			'4'
		])
		expect(asked).toEqual([null, 'A', 'B', 'B', 'B', 'B'])
		expect(jobs.position(job.id).cursor).toBe('B')
	})
