/**
 * Section 1: playground throughput and latency under concurrent load on three endpoints, against
 * (a) the same client calling the simulator directly and (b) a bare `Bun.serve` JSON endpoint.
 * Every server runs in its own process; the load comes from this process. Runs are interleaved
 * (each round runs every endpoint on every target, the target order rotating) and medians reported.
 */
import type { InstagramClient } from '../../src/client/client'
import { httpGetTask, type LoadResult, type LoadTask, runLoad } from '../lib/load'
import { median } from '../lib/stats'

/** The playground paths under load, by endpoint id. */
export const THROUGHPUT_PATHS = {
	profile: '/api/users/username/luna.explorer',
	followers: '/api/friendships/followers/1000000002?count=50',
	history: '/api/history'
} as const

/** An endpoint id of the throughput section. */
export type EndpointId = keyof typeof THROUGHPUT_PATHS
/** A target under load: the playground, (a) the client against the simulator, (b) bare Bun.serve. */
export type TargetId = 'playground' | 'client_direct' | 'bare_bun'

/** Medians over the rounds of one endpoint on one target, plus every run. */
export interface TargetFigures {
	rps: number
	p50Ms: number
	p99Ms: number
	failures: number
	runs: LoadResult[]
}

/** How the load is shaped. */
export interface ThroughputOptions {
	rounds: number
	durationMs: number
	warmupMs: number
	concurrency: number
}

/** The three targets' base URLs and the client for reference (a). */
export interface ThroughputTargets {
	playgroundUrl: string
	bareUrl: string
	/** A demo client pointed at the simulator process (reference a). */
	client: InstagramClient
}

/** The load task of one endpoint on one target; undefined where the target has no such call. */
function taskFor(endpoint: EndpointId, target: TargetId, targets: ThroughputTargets): LoadTask | undefined {
	if (target === 'playground') return httpGetTask(targets.playgroundUrl + THROUGHPUT_PATHS[endpoint])
	if (target === 'bare_bun') return httpGetTask(targets.bareUrl + THROUGHPUT_PATHS[endpoint])
	const { client } = targets
	if (endpoint === 'profile')
		return async () => (await client.users.getByUsername('luna.explorer')).username === 'luna.explorer'
	if (endpoint === 'followers')
		return async () =>
			(await client.friendships.getFollowers('1000000002', { count: 50 })).items.length === 50
	// The history is the playground's own; the client has nothing to compare it with.
	return undefined
}

/** Runs the interleaved rounds; returns figures per endpoint and target. */
export async function benchThroughput(
	targets: ThroughputTargets,
	options: ThroughputOptions,
	log: (line: string) => void
): Promise<Record<EndpointId, Partial<Record<TargetId, TargetFigures>>>> {
	const endpoints = Object.keys(THROUGHPUT_PATHS) as EndpointId[]
	const order: TargetId[] = ['playground', 'client_direct', 'bare_bun']
	const runs = new Map<string, LoadResult[]>()
	const tasks = new Map<string, LoadTask>()
	for (const endpoint of endpoints) {
		for (const target of order) {
			const task = taskFor(endpoint, target, targets)
			if (task) tasks.set(`${endpoint}/${target}`, task)
		}
	}
	// Warm-up: JIT and connection pools of every target, not measured.
	for (const task of tasks.values()) await runLoad(task, options.concurrency, options.warmupMs)
	for (let round = 0; round < options.rounds; round++) {
		for (const endpoint of endpoints) {
			// Rotating the order spreads any drift (heat, other work on the machine) over the targets.
			const rotated = [...order.slice(round % 3), ...order.slice(0, round % 3)]
			for (const target of rotated) {
				const key = `${endpoint}/${target}`
				const task = tasks.get(key)
				if (!task) continue
				const result = await runLoad(task, options.concurrency, options.durationMs)
				runs.set(key, [...(runs.get(key) ?? []), result])
				log(
					`  round ${round + 1} ${key}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(1)} ms${result.failures ? `, ${result.failures} failed (${result.firstFailure})` : ''}`
				)
			}
		}
	}
	const figures = {} as Record<EndpointId, Partial<Record<TargetId, TargetFigures>>>
	for (const endpoint of endpoints) {
		figures[endpoint] = {}
		for (const target of order) {
			const results = runs.get(`${endpoint}/${target}`)
			if (!results) continue
			figures[endpoint][target] = {
				rps: median(results.map((result) => result.rps)),
				p50Ms: median(results.map((result) => result.p50Ms)),
				p99Ms: median(results.map((result) => result.p99Ms)),
				failures: results.reduce((sum, result) => sum + result.failures, 0),
				runs: results
			}
		}
	}
	return figures
}
