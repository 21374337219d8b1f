/**
 * `npm run bench`: measures the playground, the sandbox, the CSV export, jobs and the agent on this
 * machine, over loopback only, and prints one table (also written to the git-ignored
 * `bench/results.json`). Every server under test runs in its own process (the compiled `./smkit`,
 * built first when missing or stale), and so does the load (one load-worker process). Sized to
 * finish in about five minutes on two shared cores.
 *
 * Options: --rounds N (5) --duration MS (2000, measured per target and round) --slice MS (250)
 * --warmup MS (10000, per target and endpoint before the rounds) --concurrency N (50)
 * --launches N (10) --no-build
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createDemoClient } from '../src/demo'
import {
	buildReferenceServer,
	ensureBinary,
	freePort,
	isolatedEnv,
	killTrackedChildren,
	playgroundCommand,
	ROOT,
	type ServerProcess,
	startServerProcess,
	startSimulatorAndPlayground
} from './lib/processes'
import { formatTable, writeResults } from './lib/report'
import { summarize } from './lib/summary'
import { benchAgent } from './sections/agent'
import { benchColdStart } from './sections/cold-start'
import { benchCollect } from './sections/collect'
import { benchCsv } from './sections/csv'
import { benchJobMemory } from './sections/job-memory'
import { benchSandbox } from './sections/sandbox'
import { benchThroughput, THROUGHPUT_PATHS } from './sections/throughput'

const { values: flags } = parseArgs({
	options: {
		rounds: { type: 'string', default: '5' },
		duration: { type: 'string', default: '2000' },
		slice: { type: 'string', default: '250' },
		warmup: { type: 'string', default: '10000' },
		concurrency: { type: 'string', default: '50' },
		launches: { type: 'string', default: '10' },
		'no-build': { type: 'boolean', default: false }
	}
})
const settings = {
	rounds: Number(flags.rounds),
	durationMs: Number(flags.duration),
	sliceMs: Number(flags.slice),
	preWarmMs: Number(flags.warmup),
	concurrency: Number(flags.concurrency),
	launches: Number(flags.launches)
}
const benchStarted = performance.now()
const log = (line: string) =>
	console.error(`[bench ${((performance.now() - benchStarted) / 1000).toFixed(1).padStart(5)} s] ${line}`)

/** Sleeps, then reads a process's resident memory (lets a just-started or just-loaded server settle). */
const settledRss = async (server: ServerProcess, ms: number) => {
	await Bun.sleep(ms)
	return server.rss()
}

async function main() {
	if (!flags['no-build']) log(`binary: ${await ensureBinary(log)}`)
	const work = await mkdtemp(path.join(tmpdir(), 'smkit-bench-'))
	const servers: ServerProcess[] = []
	try {
		const [bareBinary, minimalBinary] = await Promise.all([
			buildReferenceServer('bare', work),
			buildReferenceServer('minimal', work)
		])
		const env = isolatedEnv()

		log(`cold start: ${settings.launches} launches of each binary`)
		const statusBody = JSON.stringify({ success: true, message: 'ok', data: { status: 'ok' }, timestamp: 0 })
		await writeFile(path.join(work, 'status.json'), JSON.stringify({ '/api/status': statusBody }))
		const launchOptions = { launches: settings.launches, idleDelayMs: 500, cwd: work, env }
		const coldPlayground = await benchColdStart(
			(port) => playgroundCommand(port, path.join(work, 'saved-cold')),
			'/api/status',
			launchOptions
		)
		// Without --demo: no in-process simulator and data set, which tells their share of the above.
		const coldNoDemo = await benchColdStart(
			(port) => playgroundCommand(port, path.join(work, 'saved-cold'), { demo: false }),
			'/api/status',
			{ ...launchOptions, launches: Math.min(5, settings.launches) }
		)
		const coldBare = await benchColdStart(
			(port) => [bareBinary, String(port), path.join(work, 'status.json')],
			'/api/status',
			launchOptions
		)

		// Idle memory as users run it (npm run demo): the simulator and its data set in-process.
		log('idle memory of the demo playground (simulator in-process)')
		const idlePort = freePort()
		const idlePlayground = await startServerProcess(
			playgroundCommand(idlePort, path.join(work, 'saved-idle')),
			idlePort,
			'/api/status',
			{ cwd: work }
		)
		const playgroundIdleRss = await settledRss(idlePlayground, 1000)
		await idlePlayground.stop()

		// Under load, the playground and reference (a) use the same simulator process, as a real
		// playground's Instagram is never in its own process: the figures then differ by the
		// playground's own work (HTTP, routing, envelope), which is what the ratio is about.
		log('starting the simulator and the playground against it (own processes)')
		const { simulator, playground } = await startSimulatorAndPlayground(servers, {
			cwd: work,
			savedDir: path.join(work, 'saved')
		})

		// The bare server answers with the playground's own bodies (history filled to its 50 entries).
		for (let index = 0; index < 60; index++)
			await (await fetch(playground.url + THROUGHPUT_PATHS.profile)).text()
		const bodies: Record<string, string> = {}
		for (const pathAndQuery of Object.values(THROUGHPUT_PATHS)) {
			bodies[pathAndQuery] = await (await fetch(playground.url + pathAndQuery)).text()
		}
		await writeFile(path.join(work, 'bodies.json'), JSON.stringify(bodies))
		const barePort = freePort()
		const bare = await startServerProcess(
			[bareBinary, String(barePort), path.join(work, 'bodies.json')],
			barePort,
			THROUGHPUT_PATHS.profile,
			{ cwd: work }
		)
		servers.push(bare)
		const bareIdleRss = await settledRss(bare, 500)
		const minimalPort = freePort()
		const minimal = await startServerProcess(
			[minimalBinary, String(minimalPort), simulator.url],
			minimalPort,
			THROUGHPUT_PATHS.profile,
			{ cwd: work }
		)
		servers.push(minimal)
		const client = createDemoClient(simulator.url)

		log(
			`throughput: ${settings.rounds} rounds x 3 endpoints x up to 4 targets, ${settings.concurrency} clients, ${settings.durationMs} ms each in alternating slices of ${settings.sliceMs} ms, after ${settings.preWarmMs / 1000} s of warm-up per target and endpoint and 500 ms more per round, load from its own process`
		)
		const throughput = await benchThroughput(
			{ playgroundUrl: playground.url, bareUrl: bare.url, minimalUrl: minimal.url, upstream: simulator.url },
			{ ...settings, warmupMs: 500 },
			log
		)
		const memory = {
			playground: { idle: playgroundIdleRss, afterLoad: playground.rss(), afterLoadSettled: 0 },
			bare: { idle: bareIdleRss, afterLoad: bare.rss() },
			simulator: { afterLoad: simulator.rss() }
		}
		memory.playground.afterLoadSettled = await settledRss(playground, 2000)

		log('CSV export: 100,000 records x 10 fields')
		const csv = await benchCsv(playground.url, { records: 100_000, runs: 7 })
		const playgroundRssAfterCsv = playground.rss()

		log(
			`collect: followers job of mega.travel vs the walk of the followers endpoint, ${settings.rounds} rounds`
		)
		const collect = await benchCollect(playground.url, client, { rounds: settings.rounds })

		log('job memory: a followers job of 50,000 records (own simulator and playground)')
		const jobMemory = await benchJobMemory(work, 50_000)

		log('sandbox')
		const sandbox = await benchSandbox(client, { samples: 200, bridgeSamples: 40, callsPerRun: 50 })
		log('agent')
		const agent = await benchAgent(client, { asks: 20 })

		const { rows, headlines, raw } = summarize({
			throughput,
			memory: { ...memory, playgroundAfterCsv: playgroundRssAfterCsv },
			coldPlayground,
			coldNoDemo,
			coldBare,
			csv,
			collect,
			jobMemory,
			sandbox,
			agent
		})
		const totalSeconds = (performance.now() - benchStarted) / 1000
		console.log(formatTable(rows))
		console.log(
			`\n${settings.concurrency} concurrent clients; medians of ${settings.rounds} rounds; total ${totalSeconds.toFixed(0)} s`
		)
		const resultsFile = path.join(ROOT, 'bench/results.json')
		writeResults(resultsFile, headlines, raw, {
			date: new Date().toISOString(),
			bun: Bun.version,
			cpus: navigator.hardwareConcurrency,
			settings,
			totalSeconds
		})
		log(`wrote ${path.relative(ROOT, resultsFile)}`)
	} finally {
		for (const server of servers.reverse()) await server.stop().catch(() => {})
		await rm(work, { recursive: true, force: true })
	}
}

// Ctrl-C: no server may outlive the bench.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		killTrackedChildren()
		process.exit(130)
	})
}
await main()
