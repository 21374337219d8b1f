/**
 * Demo mode: the wiring between the Instagram client and the simulated Instagram. It sits above
 * both (the client never imports the simulator), so the commands reach the demo through here.
 * The demo client does real HTTP against the simulator with the demo session, at speed
 * `unlimited` unless chosen otherwise (budgets would throttle the demo and test suites).
 */
import { type ClientOptions, InstagramClient } from './client/client'
import { createClientFromEnv } from './client/env'
import { DEMO_CREDENTIALS } from './simulator/credentials'
import { DEMO_PRESETS } from './simulator/presets'

/** The demo account's username (the simulator's viewer). */
export const DEMO_USERNAME: string = DEMO_PRESETS.viewer.username

/**
 * A client for the simulator at `simulatorUrl` (e.g. `sim.url`); `overrides` win. The demo session
 * starts as valid (a simulator accepts it until told otherwise); the first refusal corrects that.
 */
export function createDemoClient(simulatorUrl: string, overrides: ClientOptions = {}): InstagramClient {
	const client = new InstagramClient({
		baseURL: simulatorUrl,
		credentials: { ...DEMO_CREDENTIALS },
		speed: 'unlimited',
		...overrides
	})
	if (client.loggedIn && client.viewerPk === DEMO_CREDENTIALS.dsUserId)
		client.session.assumeValid(DEMO_USERNAME)
	return client
}

/** Demo mode's Instagram and the client pointed at it. */
export interface DemoSession {
	client: InstagramClient
	/** Origin of the simulator in use. */
	upstream: string
	/** True when an already running simulator (`SMKIT_UPSTREAM_URL`) is used rather than an in-process one. */
	external: boolean
	/** Reads the simulator's clock, or moves it `advanceHours` forward (see `simulatorClock`). */
	clock: SimulatorClock
	/** Stops the in-process simulator; an external one is left running. */
	stop(): Promise<void>
}

/** What the simulator's clock reports (`GET /__sim/clock`). */
export interface ClockReading {
	hours: number
	now: number
	iso: string
	applied_hours: number
}

/** Reads a simulator's clock, or with `advanceHours` moves it forward; rejects with its message. */
export type SimulatorClock = (advanceHours?: number) => Promise<ClockReading>

/**
 * The clock of the simulator at `upstream`: `GET /__sim/clock`, or `POST` with `advance_hours`.
 * `token` is the control token an in-process demo simulator demands.
 */
export function simulatorClock(upstream: string, token?: string): SimulatorClock {
	return async (advanceHours) => {
		const response = await fetch(`${upstream}/__sim/clock`, {
			method: advanceHours === undefined ? 'GET' : 'POST',
			headers: {
				'content-type': 'application/json',
				...(token ? { authorization: `Bearer ${token}` } : {})
			},
			body: advanceHours === undefined ? undefined : JSON.stringify({ advance_hours: advanceHours }),
			signal: AbortSignal.timeout(60_000)
		})
		const body = (await response.json().catch(() => ({}))) as Partial<ClockReading> & { message?: string }
		if (!response.ok) throw new RangeError(body.message ?? `the simulator answered HTTP ${response.status}`)
		return {
			hours: body.hours ?? 0,
			now: body.now ?? 0,
			iso: body.iso ?? '',
			applied_hours: body.applied_hours ?? 0
		}
	}
}

/**
 * Reads how far demo mode's simulator has moved, in hours: its own clock, whoever moved it (this
 * process, another one on the store it followed, a client of `SMKIT_UPSTREAM_URL`'s simulator).
 * Watch runs read it to take each snapshot at one moment (src/watch/run.ts). Undefined outside demo mode.
 */
export function demoHours(demo: { clock: SimulatorClock } | undefined): (() => Promise<number>) | undefined {
	return demo && (async () => (await demo.clock()).hours)
}

/**
 * Opens demo mode: the simulator at `SMKIT_UPSTREAM_URL` when one is given (`smkit simulator`
 * prints that variable, so several servers can share one demo Instagram and its state), else a
 * simulator started in this process on a free loopback port.
 */
export async function openDemoSession(
	env: Record<string, string | undefined> = process.env,
	clientOptions: ClientOptions = {}
): Promise<DemoSession> {
	const external = env.SMKIT_UPSTREAM_URL?.trim()
	if (external) {
		const upstream = external.replace(/\/+$/, '')
		return {
			client: createDemoClient(upstream, clientOptions),
			upstream,
			external: true,
			clock: simulatorClock(upstream),
			stop: async () => {}
		}
	}
	// Loaded only here: a server on a real account, or on SMKIT_UPSTREAM_URL's simulator, never
	// carries the simulator's code and data set in its heap.
	const { startSimulator } = await import('./simulator/server')
	// Its control routes demand a token only this process knows: no web page can inject faults.
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1', controlToken: true })
	return {
		client: createDemoClient(simulator.url, clientOptions),
		upstream: simulator.url,
		external: false,
		clock: simulatorClock(simulator.url, simulator.controlToken),
		stop: () => simulator.stop()
	}
}

/** One line for start-up output: which demo Instagram is in use. */
export function demoDescription(session: DemoSession): string {
	return session.external
		? `the simulated Instagram at ${session.upstream} (SMKIT_UPSTREAM_URL)`
		: 'the built-in simulated Instagram (no account needed)'
}

/** The Instagram a server command talks to: demo mode's simulator, or the environment file's account. */
export interface InstagramSource {
	client: InstagramClient
	/** Set in demo mode. */
	demo?: DemoSession
	/** Stops demo mode's simulator (nothing otherwise). */
	stop(): Promise<void>
}

/**
 * Opens demo mode (`env` may name a running simulator) or builds the client from the environment
 * file; `clientOptions` (speed, proxies) apply to both.
 */
export async function openInstagram(
	options: { demo: boolean; envPath: string },
	env: Record<string, string | undefined>,
	clientOptions: ClientOptions = {}
): Promise<InstagramSource> {
	if (!options.demo)
		return { client: createClientFromEnv(options.envPath, clientOptions), stop: async () => {} }
	const demo = await openDemoSession(env, clientOptions)
	return { client: demo.client, demo, stop: () => demo.stop() }
}
