/**
 * The client of a one-shot watch or analytics command: reads the environment file, says the
 * upstream's lines (proxies, speed) on standard error, opens Instagram (or demo mode's simulator),
 * lends the client to `use` and stops it afterwards, whatever `use` did.
 */
import { terminalText } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { loadEnvFile, mergeEnv } from '../client/env'
import { openInstagram } from '../demo'
import { resolveUpstream, type UpstreamCommandOptions } from '../server/upstream-options'
import type { Store } from '../store/db'
import { formatHours, storeDemoClock } from '../store/demo-clock'

/**
 * Runs `use` with a client of the command's upstream. With `store`, demo mode's simulator is first
 * moved to the demo time kept there (a playground on the same store may have moved it).
 */
export async function withInstagram<Result>(
	options: UpstreamCommandOptions & { demo: boolean; envPath: string },
	use: (ig: InstagramClient) => Promise<Result>,
	store?: Store
): Promise<Result> {
	const env = mergeEnv(loadEnvFile(options.envPath))
	const upstream = resolveUpstream(options, env, options.demo)
	// Standard output is the command's result: these lines go to standard error.
	for (const line of [...upstream.warnings, ...upstream.lines])
		process.stderr.write(`${terminalText(line)}\n`)
	const instagram = await openInstagram(options, env, upstream.clientOptions)
	try {
		const demoTime = store ? await storeDemoClock(store, instagram.demo) : undefined
		if (demoTime?.moved)
			process.stderr.write(
				`Demo time: ${formatHours(demoTime.moved)} on, as this store's demo world was left\n`
			)
		return await use(instagram.client)
	} finally {
		await instagram.stop()
	}
}
