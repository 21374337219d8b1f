/**
 * The load generator in its own process, so it never shares an event loop with a server under
 * test: `bun bench/lib/load-worker.ts '<job JSON>'` runs one closed-loop load (see load.ts) and
 * prints its LoadResult as JSON. A job names either a URL to GET or a client call against an
 * upstream (reference (a): the client calling the simulator directly, in this process). URLs are
 * loaded over raw keep-alive sockets (socket-load.ts), client calls with `runLoad`.
 */
import { createDemoClient } from '../../src/demo'
import { type LoadResult, type LoadTask, runLoad } from './load'
import { runSocketLoad } from './socket-load'

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

/** The client call of a reference (a) job. */
function clientTask(job: LoadJob): LoadTask {
	if (!job.client) throw new Error('a load job needs url or client')
	const client = createDemoClient(job.client.upstream)
	if (job.client.endpoint === 'profile')
		return async () => (await client.users.getByUsername('luna.explorer')).username === 'luna.explorer'
	const { pk, count } = job.client.followers ?? { pk: '1000000002', count: 50 }
	return async () => (await client.friendships.getFollowers(pk, { count })).items.length === count
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob
const { url } = job
const task = url ? undefined : clientTask(job)
const run = (durationMs: number) =>
	url
		? runSocketLoad(url, job.concurrency, durationMs)
		: runLoad(task as LoadTask, job.concurrency, durationMs)
if (job.warmupMs > 0) await run(job.warmupMs)
const cpuBefore = process.cpuUsage()
const result: LoadResult = await run(job.durationMs)
const cpu = process.cpuUsage(cpuBefore)
// What the load itself cost per request (it shares the cores with the servers under test).
result.loadCpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, result.requests)
console.log(JSON.stringify(result))
