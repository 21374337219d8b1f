/**
 * Section 1: playground throughput and latency under concurrent load on three endpoints, against
 * (a) the same client calling the simulator directly, (b) a bare `Bun.serve` answering fixed JSON
 * and (c) a minimal Bun proxy doing only what the endpoint must (fetch, parse, pick, serialise).
 * Every server runs in its own process, and so does the load generator (load-worker.ts, one
 * process for the section), which first warms every target up (`preWarmMs` each, per endpoint),
 * then loads the targets in alternating slices of `sliceMs` (the order rotating slice by slice and
 * round by round). Figures are medians over the rounds with their spread.
 */
import type { LoadResult } from '../lib/load'
import { startLoadWorker } from '../lib/load-process'
import type { LoadTarget } from '../lib/load-worker'
import { median } from '../lib/stats'

/** The followers page under load: 100 records. */
export const FOLLOWERS_PAGE = { pk: '1000000002', count: 100 }

/** The playground paths under load, by endpoint id. */
export const THROUGHPUT_PATHS = {
	profile: '/api/users/username/luna.explorer',
	followers: `/api/friendships/followers/${FOLLOWERS_PAGE.pk}?count=${FOLLOWERS_PAGE.count}`,
	history: '/api/history'
} as const

/** An endpoint id of the throughput section. */
export type EndpointId = keyof typeof THROUGHPUT_PATHS
/** A target under load: the playground, (a) client direct, (b) bare Bun.serve, (c) minimal proxy. */
export type TargetId = 'playground' | 'client_direct' | 'bare_bun' | 'minimal_proxy'

/** Medians over the rounds of one endpoint on one target, their min-max spread, and every run. */
export interface TargetFigures {
	rps: number
	p50Ms: number
	p99Ms: number
	rpsRange: [number, number]
	p99Range: [number, number]
	failures: number
	runs: LoadResult[]
}

/** How the load is shaped. */
export interface ThroughputOptions {
	rounds: number
	durationMs: number
	warmupMs: number
	/** Unmeasured load per target and endpoint before the first round (JIT warm-up). */
	preWarmMs: number
	/** Length of one slice of load on one target (targets alternate slice by slice). */
	sliceMs: number
	concurrency: number
}

/** The targets' base URLs; `upstream` is the simulator reference (a) calls. */
export interface ThroughputTargets {
	playgroundUrl: string
	bareUrl: string
	minimalUrl: string
	upstream: string
}

/** The load target of one endpoint on one target; undefined where the target has no such call. */
function targetFor(
	endpoint: EndpointId,
	target: TargetId,
	targets: ThroughputTargets
): LoadTarget | undefined {
	const path = THROUGHPUT_PATHS[endpoint]
	if (target === 'playground') return { id: target, url: targets.playgroundUrl + path }
	if (target === 'bare_bun') return { id: target, url: targets.bareUrl + path }
	// The history is the playground's own; (a) and (c) have nothing to compare it with.
	if (endpoint === 'history') return undefined
	if (target === 'minimal_proxy') return { id: target, url: targets.minimalUrl + path }
	return { id: target, client: { upstream: targets.upstream, endpoint, followers: FOLLOWERS_PAGE } }
}

const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)]

/** Runs the rounds; returns figures per endpoint and target. */
export async function benchThroughput(
	targets: ThroughputTargets,
	options: ThroughputOptions,
	log: (line: string) => void
): Promise<Record<EndpointId, Partial<Record<TargetId, TargetFigures>>>> {
	const endpoints = Object.keys(THROUGHPUT_PATHS) as EndpointId[]
	const order: TargetId[] = ['playground', 'client_direct', 'minimal_proxy', 'bare_bun']
	const runs = new Map<string, LoadResult[]>()
	const worker = startLoadWorker()
	try {
		if (options.preWarmMs > 0) {
			// Before the rounds, each target runs every endpoint long enough for the JIT to settle:
			// the playground's JIT thread still compiled for about 20 s of followers load (and its main
			// thread's CPU per request fell meanwhile), the references' much smaller code settles sooner.
			for (const endpoint of endpoints) {
				const loadTargets = order.flatMap((target) => targetFor(endpoint, target, targets) ?? [])
				log(`  warm-up ${endpoint}: ${options.preWarmMs / 1000} s per target, not measured`)
				await worker.run({
					targets: loadTargets,
					concurrency: options.concurrency,
					slices: Math.max(1, Math.round(options.preWarmMs / 1000)),
					sliceMs: 1000,
					warmupMs: 0
				})
			}
		}
		for (let round = 0; round < options.rounds; round++) {
			for (const endpoint of endpoints) {
				// One job per endpoint and round loads its targets in alternating slices.
				const shift = round % order.length
				const rotated = [...order.slice(shift), ...order.slice(0, shift)]
				const loadTargets = rotated.flatMap((target) => targetFor(endpoint, target, targets) ?? [])
				const slices = Math.max(1, Math.round(options.durationMs / options.sliceMs))
				const results = await worker.run({
					targets: loadTargets,
					concurrency: options.concurrency,
					slices,
					sliceMs: options.sliceMs,
					warmupMs: options.warmupMs
				})
				for (const { id } of loadTargets) {
					const result = results[id] as LoadResult
					const key = `${endpoint}/${id}`
					runs.set(key, [...(runs.get(key) ?? []), result])
					log(
						`  round ${round + 1} ${key}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(1)} ms${result.failures ? `, ${result.failures} failed (${result.firstFailure})` : ''}`
					)
				}
			}
		}
	} finally {
		await worker.close()
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
				rpsRange: range(results.map((result) => result.rps)),
				p99Range: range(results.map((result) => result.p99Ms)),
				failures: results.reduce((sum, result) => sum + result.failures, 0),
				runs: results
			}
		}
	}
	return figures
}

/**
 * The ratio of `numerator` to `denominator` per round (runs of one round ran back to back, so they
 * share the machine's state), as the median over the rounds with its min-max spread.
 */
export function roundRatios(
	numerator: TargetFigures | undefined,
	denominator: TargetFigures | undefined,
	pick: (run: LoadResult) => number
): { median: number; range: [number, number] } {
	if (!numerator || !denominator) return { median: Number.NaN, range: [Number.NaN, Number.NaN] }
	const ratios = numerator.runs.map((run, index) => {
		const other = denominator.runs[index]
		return other ? pick(run) / pick(other) : Number.NaN
	})
	return { median: median(ratios), range: range(ratios) }
}
