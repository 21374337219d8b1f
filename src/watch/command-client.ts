/**
 * The client of a one-shot watch or analytics command: reads the environment file, says the
 * upstream's lines (proxies, speed) on standard error, opens Instagram (or demo mode's simulator),
 * lends the client to `use` and stops it afterwards, whatever `use` did.
 */
import { terminalText } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { loadEnvFile, mergeEnv } from '../client/env'
import { type ClockReading, demoHours, openInstagram } from '../demo'
import { resolveUpstream, type UpstreamCommandOptions } from '../server/upstream-options'
import type { Store } from '../store/db'
import { FOLLOW_DEMO_CLOCK_MS, formatHours, type StoreDemoClock, storeDemoClock } from '../store/demo-clock'

/** Demo mode's time as a command sees it (see `withInstagram`). */
export interface CommandDemoTime {
	/** Hours the simulator's clock has moved (a watch run takes each snapshot at one reading). */
	hours: () => Promise<number>
	/** Catches up with a move another process recorded in the store since (never rejects). */
	sync: () => Promise<void>
}

/**
 * Runs `use` with a client of the command's upstream (and, in demo mode, its demo time). With
 * `store`, demo mode's simulator is first moved to the demo time kept there (a playground on the
 * same store may have moved it); with `follow` too, it follows that playground's later moves while
 * `use` runs, as a playground does (`smkit watch run`: a run sees the move and takes its snapshot
 * again, rather than leave a list of the world before it to be continued after it).
 */
export async function withInstagram<Result>(
	options: UpstreamCommandOptions & { demo: boolean; envPath: string },
	use: (ig: InstagramClient, demoTime?: CommandDemoTime) => Promise<Result>,
	store?: Store,
	{ follow = false }: { follow?: boolean } = {}
): Promise<Result> {
	const env = mergeEnv(loadEnvFile(options.envPath))
	const upstream = resolveUpstream(options, env, options.demo)
	// Standard output is the command's result: these lines go to standard error.
	for (const line of [...upstream.warnings, ...upstream.lines])
		process.stderr.write(`${terminalText(line)}\n`)
	const instagram = await openInstagram(options, env, upstream.clientOptions)
	let demoTime: StoreDemoClock<ClockReading> | undefined
	try {
		demoTime = store
			? await storeDemoClock(store, instagram.demo, follow ? { followMs: FOLLOW_DEMO_CLOCK_MS } : {})
			: undefined
		if (demoTime?.moved)
			process.stderr.write(
				`Demo time: ${formatHours(demoTime.moved)} on, as this store's demo world was left\n`
			)
		const hours = demoHours(instagram.demo)
		return await use(instagram.client, hours && { hours, sync: demoTime?.sync ?? (async () => {}) })
	} finally {
		demoTime?.stop()
		await instagram.stop()
	}
}
