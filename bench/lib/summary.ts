/**
 * Turns the sections' measurements into the table rows, the headline figures (stable ids, targets
 * from the issue) and the raw figures of results.json.
 */
import type { AgentFigures } from '../sections/agent'
import type { ColdStartFigures } from '../sections/cold-start'
import type { CollectFigures } from '../sections/collect'
import type { CsvFigures } from '../sections/csv'
import type { JobMemoryFigures } from '../sections/job-memory'
import type { SandboxFigures } from '../sections/sandbox'
import { type EndpointId, roundRatios, type TargetFigures, type TargetId } from '../sections/throughput'
import { type Headline, meets, type Row, targetText } from './report'
import { median } from './stats'

/** Everything the sections measured. */
export interface Measurements {
	throughput: Record<EndpointId, Partial<Record<TargetId, TargetFigures>>>
	memory: {
		playground: { idle: number; afterLoad: number; afterLoadSettled: number }
		bare: { idle: number; afterLoad: number }
		simulator: { afterLoad: number }
		playgroundAfterCsv: number
	}
	coldPlayground: ColdStartFigures
	/** The playground without --demo (no in-process simulator). */
	coldNoDemo: ColdStartFigures
	coldBare: ColdStartFigures
	csv: CsvFigures
	collect: CollectFigures
	jobMemory: JobMemoryFigures
	sandbox: SandboxFigures
	agent: AgentFigures
}

const ms = (value: number, digits = 1) => `${value.toFixed(digits)} ms`
const rps = (figures?: TargetFigures) =>
	figures
		? `${Math.round(figures.rps)} req/s (${Math.round(figures.rpsRange[0])}-${Math.round(figures.rpsRange[1])})`
		: 'n/a'
const latency = (figures?: TargetFigures) =>
	figures
		? `p50 ${figures.p50Ms.toFixed(1)} / p99 ${figures.p99Ms.toFixed(1)} ms (${figures.p99Range[0].toFixed(1)}-${figures.p99Range[1].toFixed(1)})`
		: 'n/a'
const spread = (ratio: { median: number; range: [number, number] }) =>
	`${ratio.median.toFixed(2)} (${ratio.range[0].toFixed(2)}-${ratio.range[1].toFixed(2)})`

/** Rows, headline figures and raw figures from the measurements. */
export function summarize(measured: Measurements) {
	const {
		throughput,
		memory,
		coldPlayground,
		coldNoDemo,
		coldBare,
		csv,
		collect,
		jobMemory,
		sandbox,
		agent
	} = measured
	const profile = throughput.profile
	const followers = throughput.followers
	// Per-round ratios: the runs of one round ran back to back, on the same state of the machine.
	const rpsOf = (run: { rps: number }) => run.rps
	const p99Of = (run: { p99Ms: number }) => run.p99Ms
	const ratios = (endpoint: Partial<Record<TargetId, TargetFigures>>) => ({
		direct: roundRatios(endpoint.playground, endpoint.client_direct, rpsOf),
		// What a proxy doing only the endpoint's work reaches against (a): the ceiling for a proxy.
		minimalToDirect: roundRatios(endpoint.minimal_proxy, endpoint.client_direct, rpsOf),
		minimal: roundRatios(endpoint.playground, endpoint.minimal_proxy, rpsOf),
		p99Minimal: roundRatios(endpoint.playground, endpoint.minimal_proxy, p99Of)
	})
	const profileRatios = ratios(profile)
	const followersRatios = ratios(followers)

	const headlines: Record<string, Headline> = {
		throughput_ratio: {
			value: profileRatios.direct.median,
			unit: 'ratio',
			target: { op: '>=', limit: 0.85 }
		},
		throughput_ratio_minimal: {
			value: profileRatios.minimal.median,
			unit: 'ratio',
			target: { op: '>=', limit: 0.85 }
		},
		p99_ratio_minimal: {
			value: profileRatios.p99Minimal.median,
			unit: 'ratio',
			target: { op: '<=', limit: 1.3 }
		},
		followers_ratio: {
			value: followersRatios.direct.median,
			unit: 'ratio',
			target: { op: '>=', limit: 0.85 }
		},
		followers_ratio_minimal: {
			value: followersRatios.minimal.median,
			unit: 'ratio',
			target: { op: '>=', limit: 0.85 }
		},
		followers_p99_ratio_minimal: {
			value: followersRatios.p99Minimal.median,
			unit: 'ratio',
			target: { op: '<=', limit: 1.3 }
		},
		p99_profile_ms: {
			value: profile.playground?.p99Ms ?? Number.NaN,
			unit: 'ms',
			target: { op: '<', limit: 50 }
		},
		cold_start_ms: { value: coldPlayground.medianStartMs, unit: 'ms', target: { op: '<', limit: 150 } },
		idle_rss_mb: { value: coldPlayground.medianIdleRssMiB, unit: 'MB', target: { op: '<', limit: 80 } },
		load_rss_mb: { value: memory.playground.afterLoad, unit: 'MB', target: { op: '<', limit: 150 } },
		sandbox_fresh_ms: { value: sandbox.freshRunMs, unit: 'ms', target: { op: '<', limit: 5 } },
		bridge_overhead_ms: { value: sandbox.bridgeOverheadMs, unit: 'ms', target: { op: '<', limit: 0.5 } },
		csv_ratio: {
			value: csv.medianEndpointMs / csv.medianPapaparseMs,
			unit: 'ratio',
			target: { op: '<', limit: 1.5 }
		},
		agent_step_ms: { value: agent.stepMs, unit: 'ms', target: { op: '<', limit: 20 } },
		job_rss_mb: { value: jobMemory.rssPeakMb, unit: 'MB', target: { op: '<', limit: 150 } },
		// The job keeps at least 80% of the rate of walking the followers endpoint, in the same run.
		collect_records_per_s: {
			value: collect.medianJob,
			unit: 'records/s',
			target: { op: '>=', limit: Math.round(0.8 * collect.medianEndpointWalk) }
		}
	}
	const headline = (id: string, figure: string, value: string, reference: string): Row => {
		const item = headlines[id] as Headline
		return { id, figure, value, reference, target: targetText(item), met: meets(item) }
	}
	const versus = (endpoint: Partial<Record<TargetId, TargetFigures>>, show: (f?: TargetFigures) => string) =>
		`(a) client->simulator ${show(endpoint.client_direct)}; (c) minimal proxy ${show(endpoint.minimal_proxy)}; (b) bare Bun.serve ${show(endpoint.bare_bun)}`

	const rows: Row[] = [
		{
			figure: 'profile throughput (playground)',
			value: rps(profile.playground),
			reference: versus(profile, rps)
		},
		{
			figure: 'profile latency (playground)',
			value: latency(profile.playground),
			reference: versus(profile, latency)
		},
		{
			figure: 'followers page (100) throughput',
			value: rps(followers.playground),
			reference: versus(followers, rps)
		},
		{
			figure: 'followers page (100) latency',
			value: latency(followers.playground),
			reference: versus(followers, latency)
		},
		{
			figure: 'history throughput',
			value: rps(throughput.history.playground),
			reference: `(b) bare Bun.serve ${rps(throughput.history.bare_bun)}`
		},
		{
			figure: 'history latency',
			value: latency(throughput.history.playground),
			reference: `(b) bare Bun.serve ${latency(throughput.history.bare_bun)}`
		},
		headline(
			'throughput_ratio',
			'profile throughput / (a)',
			spread(profileRatios.direct),
			'per-round ratio: median (min-max)'
		),
		headline(
			'throughput_ratio_minimal',
			'profile throughput / (c)',
			spread(profileRatios.minimal),
			'per-round ratio: median (min-max)'
		),
		headline('p99_ratio_minimal', 'profile p99 / (c) p99', spread(profileRatios.p99Minimal), 'per round'),
		headline(
			'followers_ratio',
			'followers (100) throughput / (a)',
			spread(followersRatios.direct),
			'per round'
		),
		{
			figure: '(c) minimal proxy / (a)',
			value: `profile ${spread(profileRatios.minimalToDirect)}; followers ${spread(followersRatios.minimalToDirect)}`,
			reference: 'per round: what a proxy doing only the endpoint work reaches against (a); no target'
		},
		headline(
			'followers_ratio_minimal',
			'followers (100) throughput / (c)',
			spread(followersRatios.minimal),
			'per round'
		),
		headline(
			'followers_p99_ratio_minimal',
			'followers (100) p99 / (c) p99',
			spread(followersRatios.p99Minimal),
			'per round'
		),
		headline(
			'p99_profile_ms',
			'profile p99 at 50 clients',
			ms(profile.playground?.p99Ms ?? Number.NaN),
			`(a) ${ms(profile.client_direct?.p99Ms ?? Number.NaN)}; (c) ${ms(profile.minimal_proxy?.p99Ms ?? Number.NaN)}; (b) ${ms(profile.bare_bun?.p99Ms ?? Number.NaN)}`
		),
		headline(
			'cold_start_ms',
			'cold start to first 200',
			ms(coldPlayground.medianStartMs),
			`bare Bun.serve binary ${ms(coldBare.medianStartMs)}; playground without --demo ${ms(coldNoDemo.medianStartMs)}`
		),
		headline(
			'idle_rss_mb',
			'idle resident memory',
			`${coldPlayground.medianIdleRssMiB.toFixed(1)} MB`,
			`bare Bun.serve binary ${coldBare.medianIdleRssMiB.toFixed(1)} MB; playground without --demo ${coldNoDemo.medianIdleRssMiB.toFixed(1)} MB`
		),
		headline(
			'load_rss_mb',
			'resident memory after load',
			`${memory.playground.afterLoad.toFixed(1)} MB`,
			`bare ${memory.bare.afterLoad.toFixed(1)} MB; playground 2 s later ${memory.playground.afterLoadSettled.toFixed(1)} MB`
		),
		headline(
			'sandbox_fresh_ms',
			'sandbox fresh run (trivial code)',
			ms(sandbox.freshRunMs, 2),
			`host call ${ms(sandbox.hostRunMs, 4)}; first run of a process ${ms(sandbox.coldEngineRunMs)}`
		),
		headline(
			'bridge_overhead_ms',
			'bridged call overhead',
			ms(sandbox.bridgeOverheadMs, 3),
			`bridged ${ms(sandbox.bridgedCallMs, 3)} vs direct ${ms(sandbox.directCallMs, 4)}; real client ${ms(sandbox.realClient.bridgedCallMs, 2)} vs ${ms(sandbox.realClient.directCallMs, 2)}`
		),
		headline(
			'csv_ratio',
			`CSV export, ${csv.records} x ${csv.fields} fields`,
			`${(csv.medianEndpointMs / csv.medianPapaparseMs).toFixed(2)}x (${ms(csv.medianEndpointMs, 0)})`,
			`papaparse.unparse ${ms(csv.medianPapaparseMs, 0)}; toCsv alone ${ms(median(csv.toCsvMs), 0)}`
		),
		headline(
			'collect_records_per_s',
			`followers job, ${collect.records} records in ${collect.pages} pages`,
			`${Math.round(collect.medianJob)} records/s (${(collect.medianJob / collect.medianEndpointWalk).toFixed(2)} of the walk)`,
			`walk of the followers endpoint ${Math.round(collect.medianEndpointWalk)} records/s`
		),
		{
			figure: 'followers job in-process / client walk',
			value: (collect.medianClientJob / collect.medianClientWalk).toFixed(2),
			reference: `job ${Math.round(collect.medianClientJob)} vs walk ${Math.round(collect.medianClientWalk)} records/s, no HTTP either side`
		},
		headline(
			'job_rss_mb',
			`peak memory during a ${jobMemory.records.toLocaleString('en')}-record followers job`,
			`${jobMemory.rssPeakMb.toFixed(1)} MB`,
			`before ${jobMemory.rssBeforeMb.toFixed(1)} MB, after ${jobMemory.rssAfterMb.toFixed(1)} MB; ${jobMemory.pages} pages in ${jobMemory.seconds.toFixed(1)} s`
		),
		headline(
			'agent_step_ms',
			'agent overhead per step',
			ms(agent.stepMs),
			`model call alone ${ms(agent.modelCallMs)}; without it ${ms(agent.stepWithoutModelMs)}`
		)
	]
	const raw = {
		throughput,
		memory,
		cold_start: { playground: coldPlayground, playground_without_demo: coldNoDemo, bare: coldBare },
		csv,
		collect,
		job_memory: jobMemory,
		sandbox,
		agent
	}
	return { rows, headlines, raw }
}
