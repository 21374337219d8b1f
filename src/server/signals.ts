/**
 * Process signals the long-running commands stop on: the playground, the agent web server, the
 * simulator and `smkit mcp` (over stdio or `--http`).
 */

/** Resolves on the first SIGINT or SIGTERM, then stops listening for them. */
export function waitForStopSignal(): Promise<NodeJS.Signals> {
	return new Promise((resolve) => {
		const stop = (signal: NodeJS.Signals) => {
			process.off('SIGINT', stop)
			process.off('SIGTERM', stop)
			resolve(signal)
		}
		process.on('SIGINT', stop)
		process.on('SIGTERM', stop)
	})
}
