/**
 * Demo mode's client: real HTTP against the simulated Instagram with the demo session, no
 * client-side budgets (they would throttle the demo and test suites) and no human-like pauses.
 */
import { DEMO_CREDENTIALS } from '../simulator/credentials'
import { type ClientOptions, InstagramClient } from './client'

/** A client for the simulator at `simulatorUrl` (e.g. `sim.url`); `overrides` win. */
export function createDemoClient(simulatorUrl: string, overrides: ClientOptions = {}): InstagramClient {
	return new InstagramClient({
		baseURL: simulatorUrl,
		credentials: { ...DEMO_CREDENTIALS },
		rateLimits: false,
		delays: false,
		...overrides
	})
}
