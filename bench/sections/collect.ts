/**
 * Section: collecting a whole list. A followers job of the demo's `mega.travel` (5,400 followers,
 * no request budgets), which stores every page with its cursor in one SQLite transaction, against
 * the raw walk of the same followers endpoint with the same page size (the client following
 * `next_cursor`, storing nothing), both against the simulator process. Runs alternate; medians.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { InstagramClient } from '../../src/client/client'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore } from '../../src/store/db'
import { median } from '../lib/stats'

/** The job's page size for followers (one upstream request per page). */
const PAGE = 200

/** Records per second of each run, and the medians. */
export interface CollectFigures {
	records: number
	pages: number
	jobRecordsPerS: number[]
	walkRecordsPerS: number[]
	medianJob: number
	medianWalk: number
}

/** The raw walk: every follower, page after page, nothing stored. Returns records per second. */
async function walk(client: InstagramClient): Promise<{ perS: number; records: number }> {
	const started = performance.now()
	const user = await client.users.getByUsername(DEMO_PRESETS.mega.username)
	let records = 0
	let cursor: string | null = null
	do {
		const page = await client.friendships.getFollowers(user.pk, { count: PAGE, cursor })
		records += page.items.length
		cursor = page.next_cursor
	} while (cursor)
	return { perS: records / ((performance.now() - started) / 1000), records }
}

/** One followers job on a fresh database file (WAL, a checkpoint per page). Returns records per second. */
async function job(client: InstagramClient, folder: string, run: number) {
	const store = openStore(path.join(folder, `collect-${run}.db`))
	try {
		const jobs = new JobStore(store)
		const created = jobs.create({ kind: 'followers', target: DEMO_PRESETS.mega.username })
		const started = performance.now()
		const finished = await runJob(jobs, created.id, { ig: client })
		const seconds = (performance.now() - started) / 1000
		if (finished.status !== 'done') throw new Error(`bench job ended ${finished.status}: ${finished.error}`)
		return { perS: finished.collected / seconds, records: finished.collected, pages: finished.pages }
	} finally {
		store.close()
	}
}

/** Runs `rounds` alternating pairs (walk, job), after one warm-up pair. */
export async function benchCollect(
	client: InstagramClient,
	options: { rounds: number }
): Promise<CollectFigures> {
	const folder = await mkdtemp(path.join(tmpdir(), 'smkit-bench-collect-'))
	try {
		await walk(client)
		await job(client, folder, -1)
		const jobRecordsPerS: number[] = []
		const walkRecordsPerS: number[] = []
		let records = 0
		let pages = 0
		for (let round = 0; round < options.rounds; round++) {
			// Alternate which goes first, so neither always runs on a warmer simulator.
			const order = round % 2 === 0 ? ['walk', 'job'] : ['job', 'walk']
			for (const which of order) {
				if (which === 'walk') walkRecordsPerS.push((await walk(client)).perS)
				else {
					const result = await job(client, folder, round)
					jobRecordsPerS.push(result.perS)
					records = result.records
					pages = result.pages
				}
			}
		}
		return {
			records,
			pages,
			jobRecordsPerS,
			walkRecordsPerS,
			medianJob: median(jobRecordsPerS),
			medianWalk: median(walkRecordsPerS)
		}
	} finally {
		await rm(folder, { recursive: true, force: true })
	}
}
