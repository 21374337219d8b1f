/**
 * `smkit simulator [--port 0] [--host 127.0.0.1]`: serves the simulated Instagram on its own until
 * SIGINT or SIGTERM, then stops cleanly. A development aid; demo mode starts it in-process instead.
 */
import { listenOptions, type ParsedOptions, parseOptions } from '../server/bootstrap'
import { isListenFailure, listenError } from '../server/listen-error'
import { waitForStopSignal } from '../server/signals'

/** The options of the `simulator` command: port (0 picks a free one) and host. */
export const simulatorOptions = listenOptions(0)

/** Validated options of the `simulator` command. */
export type SimulatorCommandOptions = ParsedOptions<typeof simulatorOptions>

/** Turns cac's raw options into {@link SimulatorCommandOptions}; a bad port is a usage error (exit 2). */
export function parseSimulatorOptions(rawOptions: unknown): SimulatorCommandOptions {
	const raw = typeof rawOptions === 'object' && rawOptions !== null ? rawOptions : {}
	return parseOptions(simulatorOptions, raw as Record<string, unknown>)
}

/** Starts the simulator, prints where it listens, and resolves once a signal has stopped it. */
export async function runSimulator(rawOptions: unknown): Promise<void> {
	const options = parseSimulatorOptions(rawOptions)
	// Loaded here: every other command registers this one, and only this one (or demo mode) runs it.
	const { startSimulator } = await import('./server')
	const simulator = await startSimulator({ port: options.port, host: options.host }).catch((error) => {
		if (!isListenFailure(error)) throw error
		throw listenError(
			options.host,
			options.port,
			error,
			'stop what listens there, or choose another port with --port'
		)
	})
	console.log(`Simulated Instagram (demo data) listening on ${simulator.url}`)
	console.log(`Point a client at it with SMKIT_UPSTREAM_URL=${simulator.url}`)
	// The demo session's values unlock only the simulator, yet stay out of output like any session
	// (credentials.ts): --demo brings them, so nobody needs to copy them.
	console.log('smkit playground --demo, agent-web --demo and ask --demo use this simulator when')
	console.log('SMKIT_UPSTREAM_URL names it (sharing its state), else start their own; --demo logs them')
	console.log('in as the demo account (smkit_demo), whose session is built in. Press Ctrl-C to stop.')
	const signal = await waitForStopSignal()
	console.log(`\nReceived ${signal}, stopping the simulator.`)
	await simulator.stop()
}
