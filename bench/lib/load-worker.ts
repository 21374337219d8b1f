/**
 * The load generator in its own process, so it never shares an event loop with a server under
 * test. It reads load jobs from stdin, one JSON line each, and answers each with one line: a
 * LoadResult per target, as JSON (`bun bench/lib/load-worker.ts '<job JSON>'` runs one job and
 * exits). A job loads its targets in turn, in short slices (A B C D, then B C D A, ...). Slicing
 * spreads whatever else the shared machine does over every target alike: with one 2-second run per
 * target, a few busy seconds elsewhere landed on one target and moved a round's ratios by 20-30%.
 * One process runs every job of a bench, so reference (a) below is as warm (JIT-compiled) in the
 * last round as the servers are.
 *
 * A target is a URL to GET (over raw keep-alive sockets, socket-load.ts) or a client call against
 * an upstream (reference (a): the client calling the simulator directly, in this process, only
 * during its own slices).
 */
import { createDemoClient } from '../../src/demo'
import {
	type LoadDriver,
	type LoadResult,
	type LoadTask,
	type SliceResult,
	summariseSlices,
	taskDriver
} from './load'
import { socketDriver } from './socket-load'

/** One target of a load job. */
export interface LoadTarget {
	id: string
	/** GET this URL; or */
	url?: string
	/** call the client against `upstream` (the simulator) for `endpoint`. */
	client?: { upstream: string; endpoint: 'profile' | 'followers'; followers?: { pk: string; count: number } }
}

/** One load job: its targets and how the load is shaped. */
export interface LoadJob {
	targets: LoadTarget[]
	concurrency: number
	/** Measured time per target: `slices` slices of `sliceMs`. */
	slices: number
	sliceMs: number
	/** Unmeasured load on each target first (JIT, connection pools). */
	warmupMs: number
}

/** The client call of a reference (a) target. */
function clientTask(client: NonNullable<LoadTarget['client']>): LoadTask {
	const ig = createDemoClient(client.upstream)
	if (client.endpoint === 'profile')
		return async () => (await ig.users.getByUsername('luna.explorer')).username === 'luna.explorer'
	const { pk, count } = client.followers ?? { pk: '1000000002', count: 50 }
	return async () => (await ig.friendships.getFollowers(pk, { count })).items.length === count
}

function driverOf(target: LoadTarget, concurrency: number): LoadDriver {
	if (target.url) return socketDriver(target.url, concurrency)
	if (target.client) return taskDriver(clientTask(target.client), concurrency)
	throw new Error(`load target ${target.id} needs url or client`)
}

/** Runs one job: a warm-up of each target, then the measured slices in rotation. */
async function runJob(job: LoadJob): Promise<Record<string, LoadResult>> {
	const drivers = job.targets.map((target) => driverOf(target, job.concurrency))
	for (const driver of drivers) if (job.warmupMs > 0) await driver.slice(job.warmupMs)
	const slices: SliceResult[][] = job.targets.map(() => [])
	const cpuMs = job.targets.map(() => 0)
	for (let round = 0; round < job.slices; round++) {
		for (let step = 0; step < drivers.length; step++) {
			const index = (round + step) % drivers.length
			const before = process.cpuUsage()
			slices[index]?.push(await (drivers[index] as LoadDriver).slice(job.sliceMs))
			const cpu = process.cpuUsage(before)
			cpuMs[index] = (cpuMs[index] ?? 0) + (cpu.user + cpu.system) / 1000
		}
	}
	for (const driver of drivers) driver.close()
	const results: Record<string, LoadResult> = {}
	job.targets.forEach((target, index) => {
		results[target.id] = summariseSlices(slices[index] ?? [], job.sliceMs, cpuMs[index] ?? 0)
	})
	return results
}

if (process.argv[2]) {
	console.log(JSON.stringify(await runJob(JSON.parse(process.argv[2]) as LoadJob)))
	process.exit(0)
}
for await (const line of console) {
	if (line.trim() === '') continue
	console.log(JSON.stringify(await runJob(JSON.parse(line) as LoadJob)))
}
