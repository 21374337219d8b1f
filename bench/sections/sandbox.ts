/**
 * Section 3: the agent's sandbox. A fresh run of trivial code (new QuickJS runtime and context on a
 * pooled engine, as every agent step gets) against running the same function directly in the host,
 * and the cost of one bridged `ig.*` call against calling the same host function directly.
 *
 * The bridge is measured with a host function that returns a real profile at once, so the figure is
 * the bridge alone (JSON both ways, guest promise, job loop) and not the simulator's latency; the
 * same comparison with the real client call is kept as a raw figure.
 */
import { runInSandbox, type SandboxOptions } from '../../src/agent/sandbox'
import type { InstagramClient } from '../../src/client/client'
import { median, timeRepeated } from '../lib/stats'

/** Timings of the sandbox section, milliseconds (medians, with the samples). */
export interface SandboxFigures {
	/** `runInSandbox('return 1')` on a warm engine pool. */
	freshRunMs: number
	/** `(async () => 1)()` in the host: the reference of a fresh run. */
	hostRunMs: number
	/** The first fresh run of the process, which loads an engine (the pool is empty). */
	coldEngineRunMs: number
	/** Per bridged call: (run with N calls - run with none) / N. */
	bridgedCallMs: number
	/** Per direct call of the same host function. */
	directCallMs: number
	/** Bridged minus direct. */
	bridgeOverheadMs: number
	/** The same with the real client against the simulator process (raw, noisier). */
	realClient: { bridgedCallMs: number; directCallMs: number; overheadMs: number }
	callsPerRun: number
	/** Fresh runs timed (the bridge uses `bridgeSamples` runs of `callsPerRun` calls). */
	samples: number
	bridgeSamples: number
}

const memoryLimitBytes = 64 * 1024 * 1024

/** The guest code making `calls` sequential bridged calls. */
const callingCode = (calls: number) =>
	`let last\nfor (let i = 0; i < ${calls}; i++) last = await ig.users.getByUsername('luna.explorer')\nreturn last === undefined ? null : last.username`

/** Runs the section; `client` points at the simulator process. */
export async function benchSandbox(
	client: InstagramClient,
	options: { samples: number; bridgeSamples: number; callsPerRun: number }
): Promise<SandboxFigures> {
	const profile = await client.users.getByUsername('luna.explorer')
	const stubMethod = async (_path: string, _args: unknown[]): Promise<unknown> => profile
	const realMethod = (_path: string, args: unknown[]) => client.users.getByUsername(String(args[0]))
	const sandboxOptions = (callMethod: SandboxOptions['callMethod']): SandboxOptions => ({
		methods: ['users.getByUsername'],
		callMethod,
		memoryLimitBytes
	})
	const run = async (code: string, callMethod: SandboxOptions['callMethod']) => {
		const result = await runInSandbox(code, sandboxOptions(callMethod))
		if (!result.ok) throw new Error(`sandbox run failed: ${result.error}`)
	}

	// The first run of a process loads an engine; measured once here, then the warm-up runs below
	// leave the pool warm.
	const coldStarted = performance.now()
	await run('return 1', stubMethod)
	const coldEngineRunMs = performance.now() - coldStarted

	const fresh = await timeRepeated(() => run('return 1', stubMethod), options.samples, 10)
	const hostFunction = async () => 1
	const host = await timeRepeated(() => hostFunction(), options.samples, 10)

	const calls = options.callsPerRun
	const perCall = async (callMethod: SandboxOptions['callMethod'], samples: number) => {
		const withCalls = await timeRepeated(() => run(callingCode(calls), callMethod), samples, 3)
		const withoutCalls = await timeRepeated(() => run(callingCode(0), callMethod), samples, 3)
		return (median(withCalls) - median(withoutCalls)) / calls
	}
	const directPerCall = async (callMethod: SandboxOptions['callMethod'], samples: number) => {
		const timings = await timeRepeated(
			async () => {
				for (let index = 0; index < calls; index++) await callMethod('users.getByUsername', ['luna.explorer'])
			},
			samples,
			3
		)
		return median(timings) / calls
	}
	const bridgedCallMs = await perCall(stubMethod, options.bridgeSamples)
	const directCallMs = await directPerCall(stubMethod, options.bridgeSamples)
	const realSamples = Math.max(5, Math.floor(options.bridgeSamples / 4))
	const realBridged = await perCall(realMethod, realSamples)
	const realDirect = await directPerCall(realMethod, realSamples)
	return {
		freshRunMs: median(fresh),
		hostRunMs: median(host),
		coldEngineRunMs,
		bridgedCallMs,
		directCallMs,
		bridgeOverheadMs: bridgedCallMs - directCallMs,
		realClient: {
			bridgedCallMs: realBridged,
			directCallMs: realDirect,
			overheadMs: realBridged - realDirect
		},
		callsPerRun: calls,
		samples: options.samples,
		bridgeSamples: options.bridgeSamples
	}
}
