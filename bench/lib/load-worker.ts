/**
 * The load generator in its own process, so it never shares an event loop with a server under
 * test: `bun bench/lib/load-worker.ts '<job JSON>'` runs one closed-loop load (see load.ts) and
 * prints its LoadResult as JSON. A job names either a URL to GET or a client call against an
 * upstream (reference (a): the client calling the simulator directly, in this process).
 */
import { createDemoClient } from '../../src/demo'
import { httpGetTask, type LoadTask, runLoad } from './load'

/** One load run. */
export interface LoadJob {
	/** GET this URL; or */
	url?: string
	/** call the client against `upstream` (the simulator) for `endpoint`. */
	client?: { upstream: string; endpoint: 'profile' | 'followers'; followers?: { pk: string; count: number } }
	concurrency: number
	durationMs: number
	/** Unmeasured load first (JIT, connection pools). */
	warmupMs: number
}

function taskOf(job: LoadJob): LoadTask {
	if (job.url) return httpGetTask(job.url)
	if (!job.client) throw new Error('a load job needs url or client')
	const client = createDemoClient(job.client.upstream)
	if (job.client.endpoint === 'profile')
		return async () => (await client.users.getByUsername('luna.explorer')).username === 'luna.explorer'
	const { pk, count } = job.client.followers ?? { pk: '1000000002', count: 50 }
	return async () => (await client.friendships.getFollowers(pk, { count })).items.length === count
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob
const task = taskOf(job)
if (job.warmupMs > 0) await runLoad(task, job.concurrency, job.warmupMs)
console.log(JSON.stringify(await runLoad(task, job.concurrency, job.durationMs)))
