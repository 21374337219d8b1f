/**
 * Section: memory of a long job. A simulator of its own whose `mega.travel` has 50,000 followers
 * (`SMKIT_SIM_MEGA_FOLLOWERS`), a playground on a fresh database, and one followers job of
 * mega.travel followed to `done` while the playground's resident memory is sampled every 50 ms.
 * The records go to the job store (SQLite) page by page, so the process should not grow with them.
 */
import path from 'node:path'
import { FINISHED_STATUSES } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type ServerProcess, startSimulatorAndPlayground } from '../lib/processes'
import { getJson } from './collect'

/** What the section measured. */
export interface JobMemoryFigures {
	records: number
	pages: number
	seconds: number
	/** Resident memory before the job started, the most seen during it, and right after, MiB. */
	rssBeforeMb: number
	rssPeakMb: number
	rssAfterMb: number
}

/** Runs the section with its own simulator and playground under `work`. */
export async function benchJobMemory(work: string, followers: number): Promise<JobMemoryFigures> {
	const servers: ServerProcess[] = []
	try {
		const { playground } = await startSimulatorAndPlayground(servers, {
			cwd: work,
			savedDir: path.join(work, 'saved-job-memory'),
			simulatorEnv: { SMKIT_SIM_MEGA_FOLLOWERS: String(followers) }
		})
		const rssBeforeMb = playground.rss()
		const started = performance.now()
		const created = await getJson(`${playground.url}/api/jobs`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ kind: 'followers', target: DEMO_PRESETS.mega.username })
		})
		let rssPeakMb = rssBeforeMb
		let job: any
		for (;;) {
			rssPeakMb = Math.max(rssPeakMb, playground.rss())
			job = (await getJson(`${playground.url}/api/jobs/${created.data.id}`)).data
			if (FINISHED_STATUSES.includes(job.status)) break
			await Bun.sleep(50)
		}
		const seconds = (performance.now() - started) / 1000
		if (job.status !== 'done')
			throw new Error(`the ${followers}-record job ended ${job.status}: ${job.error}`)
		if (job.collected !== followers)
			throw new Error(`the job collected ${job.collected} records, not ${followers}`)
		return {
			records: job.collected,
			pages: job.pages,
			seconds,
			rssBeforeMb,
			rssPeakMb: Math.max(rssPeakMb, playground.rss()),
			rssAfterMb: playground.rss()
		}
	} finally {
		for (const server of servers.reverse()) await server.stop().catch(() => {})
	}
}
