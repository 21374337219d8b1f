/**
 * Section 2: cold start (spawning the compiled binary to the first 200 from `/api/status`, polled
 * in a tight loop) and resident memory when idle, for the playground and, as the reference, a
 * compiled bare `Bun.serve` binary started the same way.
 */
import { freePort, residentMiB, spawnTracked, waitForOk } from '../lib/processes'
import { median } from '../lib/stats'

/** Cold starts and idle memory of one command. */
export interface ColdStartFigures {
	/** Milliseconds from spawn to the first 200, one per launch. */
	startMs: number[]
	/** VmRSS (MiB) `idleDelayMs` after the first 200, one per launch. */
	idleRssMiB: number[]
	medianStartMs: number
	medianIdleRssMiB: number
}

/** Launches `command(port)` `launches` times; each instance is stopped before the next starts. */
export async function benchColdStart(
	command: (port: number) => string[],
	readyPath: string,
	options: { launches: number; idleDelayMs: number; cwd: string; env: Record<string, string> }
): Promise<ColdStartFigures> {
	const startMs: number[] = []
	const idleRssMiB: number[] = []
	for (let launch = 0; launch < options.launches; launch++) {
		const port = freePort()
		const started = performance.now()
		const child = spawnTracked(command(port), { cwd: options.cwd, env: options.env })
		try {
			const ready = await waitForOk(`http://127.0.0.1:${port}${readyPath}`, child)
			startMs.push(ready - started)
			await Bun.sleep(options.idleDelayMs)
			idleRssMiB.push(residentMiB(child.pid))
		} finally {
			child.kill('SIGKILL')
			await child.exited
		}
	}
	return { startMs, idleRssMiB, medianStartMs: median(startMs), medianIdleRssMiB: median(idleRssMiB) }
}
