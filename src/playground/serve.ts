/**
 * `smkit playground`: validates the command-line options, builds the client (from the environment
 * file, or against the simulator with `--demo`: in-process, or SMKIT_UPSTREAM_URL's), serves the app and stops cleanly on
 * SIGINT/SIGTERM. The only module of the playground that listens or prints.
 */
import { dirname } from 'node:path'
import { permissionOption } from '../agent/options'
import { loadEnvFile, mergeEnv } from '../client/env'
import { type ClockReading, DEMO_USERNAME, demoDescription, demoHours, openInstagram } from '../demo'
import { JobManager } from '../jobs/manager'
import { OUTSIDE_OWNERS } from '../jobs/outside'
import { JobStore } from '../jobs/store'
import {
	checkServerSettings,
	type ParsedOptions,
	parseOptions,
	type RunningServer,
	serverOptions,
	serveUntilStopped,
	startServer
} from '../server/bootstrap'
import { dbPathOption, demoOption, savedDirOption } from '../server/options'
import { resolveUpstream, upstreamOptions } from '../server/upstream-options'
import { RECONNECT_HINT } from '../session/connect'
import { describeSession } from '../session/start-line'
import { DEFAULT_DB_PATH, openStore, type Store } from '../store/db'
import { FOLLOW_DEMO_CLOCK_MS, formatHours, type StoreDemoClock, storeDemoClock } from '../store/demo-clock'
import { dropUnstoredLists } from '../watch/follower-lists'
import { WatchScheduler } from '../watch/scheduler'
import { WatchStore } from '../watch/store'
import { createPlaygroundAi } from './ai'
import { createPlaygroundApp, type PlaygroundAi } from './app'
import { AI_UNAVAILABLE_MESSAGE } from './routes/ai-fallback'

/** The options of `smkit playground`, registered with cac and validated from these schemas. */
export const playgroundOptions = {
	...serverOptions(8877),
	demo: { ...demoOption, description: 'Serve the built-in simulated Instagram instead of the real one' },
	permission: permissionOption,
	savedDir: savedDirOption('demo/saved'),
	dbPath: dbPathOption('The SQLite file jobs are kept in (media downloads go beside it)', DEFAULT_DB_PATH),
	...upstreamOptions
}

/** Validated options of `smkit playground`. */
export type PlaygroundServeOptions = ParsedOptions<typeof playgroundOptions>

/** Turns cac's untyped options into `PlaygroundServeOptions`, or throws a `UsageError` (exit 2). */
export function parsePlaygroundOptions(raw: Record<string, unknown>): PlaygroundServeOptions {
	return parseOptions(playgroundOptions, raw)
}

/** Hooks for the AI side (filled by the agent wiring; absent = AI chat off). */
export interface PlaygroundServeHooks {
	/** Builds the AI deps from the environment variables and options (see `PlaygroundAi`). */
	createAi?: (env: Record<string, string>, options: PlaygroundServeOptions) => PlaygroundAi | undefined
}

/** A listening playground (see `startPlaygroundServer`). */
export type RunningPlayground = RunningServer

/**
 * Builds the client and the app from validated options, listens, and prints the start-up summary
 * through `print` (URL, demo or account, AI status; the token only when it was generated here).
 */
export async function startPlaygroundServer(
	options: PlaygroundServeOptions,
	hooks: PlaygroundServeHooks = {},
	print: (line: string) => void = console.log
): Promise<RunningPlayground> {
	// Variables already set in the process environment win over the file (docs/architecture.md,
	// "Configuration and credentials").
	const env = mergeEnv(loadEnvFile(options.envPath))
	const upstream = resolveUpstream(options, env, options.demo)
	// Before the store and the simulator exist: a usage error leaves no empty store behind.
	checkServerSettings(options, env)
	for (const warning of upstream.warnings) print(warning)
	const instagram = await openInstagram(options, env, upstream.clientOptions)
	const ig = instagram.client
	let store: Store
	let demoClock: StoreDemoClock<ClockReading> | undefined
	try {
		store = openStore(options.dbPath)
		// Demo time as this store's demo world was left (a playground before, `smkit watch run --demo`).
		// Later moves of another demo process on the store are followed; a move here drops the
		// follower lists of watch runs not yet stored (they describe the world before it). A run in
		// progress sees the move itself (`demoTime` below) and walks its list again from the start.
		demoClock = await storeDemoClock(store, instagram.demo, {
			followMs: FOLLOW_DEMO_CLOCK_MS,
			onMoved: () => dropUnstoredLists(store)
		}).catch((error: unknown) => {
			store.close()
			throw error
		})
	} catch (error) {
		await instagram.stop()
		throw error
	}
	if (demoClock?.moved)
		print(`Demo time: ${formatHours(demoClock.moved)} on, as this store's demo world was left`)
	// Jobs of `smkit collect` and the MCP server on this store are listed too (src/jobs/outside.ts).
	const jobs = new JobManager({
		jobs: new JobStore(store, { demo: options.demo }),
		ig,
		dataDir: dirname(options.dbPath),
		shows: OUTSIDE_OWNERS
	})
	const watches = new WatchScheduler({
		watches: new WatchStore(store, { demo: options.demo }),
		jobs: jobs.jobs,
		ig,
		dataDir: dirname(options.dbPath),
		beforeRun: demoClock?.sync,
		demoTime: demoHours(instagram.demo)
	})
	const ai =
		hooks.createAi?.(env, options) ?? createPlaygroundAi({ env, client: ig, permission: options.permission })
	const running = await startServer({
		name: 'playground',
		options,
		env,
		print,
		onStop: async () => {
			// Running jobs stop at a checkpoint and stay `running`: the next start resumes them.
			demoClock?.stop()
			await watches.stop()
			await jobs.stop()
			store.close()
			await instagram.stop()
		},
		build: (security) =>
			createPlaygroundApp({
				ig,
				savedDir: options.savedDir,
				demo: options.demo,
				startedAt: new Date(),
				ai,
				permission: options.permission,
				security,
				jobs,
				envPath: options.envPath,
				watches,
				demoClock: demoClock?.clock,
				demoPictures: instagram.demo?.upstream
			})
	})
	const resumed = jobs.resumeInterrupted()
	if (resumed.length > 0) print(`Jobs: resuming ${resumed.length} from ${options.dbPath}`)
	// Watches due while the playground was down run once now; then the scheduler checks every minute.
	const due = watches.watches.due().length
	watches.start()
	if (due > 0) print(`Watches: running ${due} due from ${options.dbPath}`)
	print(`API reference: ${running.url}openapi`)
	if (instagram.demo) print(`Demo data: ${demoDescription(instagram.demo)}`)
	for (const line of upstream.lines) print(line)
	// The demo session needs no confirming round trip (and would build the demo data set at start-up).
	print(
		instagram.demo
			? `Instagram: logged in as @${DEMO_USERNAME} (the demo account)`
			: await describeSession(
					ig,
					'not logged in: run smkit login --cookies cookies.txt, use Connect account in the page, or start with --demo'
				)
	)
	// Said once when Instagram ends the session while the server runs.
	ig.session.onChange((report) => {
		if (report.session === 'expired') print(`Instagram: the session expired; to reconnect, ${RECONNECT_HINT}`)
		if (report.session === 'challenge') print('Instagram: the session must pass a challenge on instagram.com')
	})
	print(
		ai?.available
			? `AI chat: ${ai.provider ?? 'on'}${ai.model ? ` (${ai.model})` : ''}${ai.endpoint ? ` at ${ai.endpoint}` : ''}`
			: `AI chat: off (${ai?.reason ?? AI_UNAVAILABLE_MESSAGE})`
	)
	return running
}

/** `smkit playground`: runs the server until SIGINT/SIGTERM, then stops cleanly (exit 0). */
export async function runPlayground(
	rawOptions: Record<string, unknown> = {},
	hooks: PlaygroundServeHooks = {}
) {
	await serveUntilStopped(
		await startPlaygroundServer(parsePlaygroundOptions(rawOptions), hooks),
		'the playground'
	)
}
