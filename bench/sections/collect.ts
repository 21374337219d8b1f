/**
 * Section: collecting a whole list. A followers job of the demo's `mega.travel` (5,400 followers,
 * no request budgets), started on the playground process with `POST /api/jobs` and followed to
 * `done` through its event stream, against the raw walk of the playground's followers endpoint
 * (`/api/friendships/followers/{pk}`, following `next_cursor`, the job's page size of 200) on the
 * same playground and simulator. The job stores every page with its cursor in one SQLite
 * transaction. Also measured, in this process: the same job against the client's own walk (no
 * HTTP on either side), the strictest view of what checkpointing costs. Runs alternate; medians.
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
	/** Through the playground: the job, and the walk of its followers endpoint. */
	jobRecordsPerS: number[]
	endpointWalkRecordsPerS: number[]
	medianJob: number
	medianEndpointWalk: number
	/** In this process: the job on the client, and the client's walk. */
	clientJobRecordsPerS: number[]
	clientWalkRecordsPerS: number[]
	medianClientJob: number
	medianClientWalk: number
}

const seconds = (started: number) => (performance.now() - started) / 1000

/** GETs (or sends `init`) and reads the JSON answer; throws on a non-2xx status. */
export async function getJson(url: string, init?: RequestInit): Promise<any> {
	const response = await fetch(url, init)
	if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: HTTP ${response.status}`)
	return response.json()
}

/** Walks the playground's followers endpoint to its end. Returns records per second. */
async function walkEndpoint(playgroundUrl: string): Promise<number> {
	const started = performance.now()
	const user = await getJson(`${playgroundUrl}/api/users/username/${DEMO_PRESETS.mega.username}`)
	let records = 0
	let cursor: string | null = null
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
		const page = await getJson(
			`${playgroundUrl}/api/friendships/followers/${user.data.pk}?count=${PAGE}${query}`
		)
		records += page.data.length
		cursor = page.next_cursor
	} while (cursor)
	return records / seconds(started)
}

/** Starts a followers job on the playground and reads its events until it settles. */
async function playgroundJob(playgroundUrl: string) {
	const started = performance.now()
	const created = await getJson(`${playgroundUrl}/api/jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'followers', target: DEMO_PRESETS.mega.username })
	})
	const id = created.data.id as number
	// The stream ends when the job is done (or failed): its last event has the final state.
	const text = await (await fetch(`${playgroundUrl}/api/jobs/${id}/events`)).text()
	const elapsed = seconds(started)
	const events = text
		.split('\n\n')
		.filter((block) => block.startsWith('data: '))
		.map((block) => JSON.parse(block.slice(6)))
	const job = events.at(-1)?.job
	if (job?.status !== 'done') throw new Error(`bench job ended ${job?.status}: ${job?.error}`)
	await fetch(`${playgroundUrl}/api/jobs/${id}`, { method: 'DELETE' })
	return { perS: job.collected / elapsed, records: job.collected as number, pages: job.pages as number }
}

/** The client's own walk: every follower, page after page, nothing stored. */
async function walkClient(client: InstagramClient): Promise<number> {
	const started = performance.now()
	const user = await client.users.getByUsername(DEMO_PRESETS.mega.username)
	let records = 0
	let cursor: string | null = null
	do {
		const page = await client.friendships.getFollowers(user.pk, { count: PAGE, cursor })
		records += page.items.length
		cursor = page.next_cursor
	} while (cursor)
	return records / seconds(started)
}

/** The job in this process, on a fresh database file. */
async function clientJob(client: InstagramClient, folder: string, run: number): Promise<number> {
	const store = openStore(path.join(folder, `collect-${run}.db`))
	try {
		const jobs = new JobStore(store)
		const created = jobs.create({ kind: 'followers', target: DEMO_PRESETS.mega.username })
		const started = performance.now()
		const finished = await runJob(jobs, created.id, { ig: client })
		if (finished.status !== 'done') throw new Error(`bench job ended ${finished.status}: ${finished.error}`)
		return finished.collected / seconds(started)
	} finally {
		store.close()
	}
}

/** Runs `rounds` rounds of the four measurements (order rotating), after one warm-up round. */
export async function benchCollect(
	playgroundUrl: string,
	client: InstagramClient,
	options: { rounds: number }
): Promise<CollectFigures> {
	const folder = await mkdtemp(path.join(tmpdir(), 'smkit-bench-collect-'))
	const figures = {
		jobRecordsPerS: [] as number[],
		endpointWalkRecordsPerS: [] as number[],
		clientJobRecordsPerS: [] as number[],
		clientWalkRecordsPerS: [] as number[]
	}
	let records = 0
	let pages = 0
	try {
		const steps: [keyof typeof figures, (round: number) => Promise<number>][] = [
			[
				'jobRecordsPerS',
				async () => {
					const job = await playgroundJob(playgroundUrl)
					records = job.records
					pages = job.pages
					return job.perS
				}
			],
			['endpointWalkRecordsPerS', () => walkEndpoint(playgroundUrl)],
			['clientJobRecordsPerS', (round) => clientJob(client, folder, round)],
			['clientWalkRecordsPerS', () => walkClient(client)]
		]
		for (const [, step] of steps) await step(-1)
		for (let round = 0; round < options.rounds; round++) {
			for (let index = 0; index < steps.length; index++) {
				const [name, step] = steps[(index + round) % steps.length] as (typeof steps)[number]
				figures[name].push(await step(round))
			}
		}
	} finally {
		await rm(folder, { recursive: true, force: true })
	}
	return {
		records,
		pages,
		...figures,
		medianJob: median(figures.jobRecordsPerS),
		medianEndpointWalk: median(figures.endpointWalkRecordsPerS),
		medianClientJob: median(figures.clientJobRecordsPerS),
		medianClientWalk: median(figures.clientWalkRecordsPerS)
	}
}
