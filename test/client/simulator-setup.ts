/**
 * Shared setup of the simulator-backed client tests: one simulated Instagram per test file and a
 * demo client whose `fetch` records what was actually sent (URL, method, headers) so tests can check
 * cookies and hosts without trusting the client's own bookkeeping.
 */
import { afterAll, beforeAll } from 'bun:test'
import type { ClientOptions, InstagramClient } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { type Simulator, startSimulator } from '../../src/simulator/server'

/** One request as the client handed it to `fetch`. */
export interface SentRequest {
	url: URL
	method: string
	headers: Headers
}

/** Starts a simulator for the file; `client()` builds recording demo clients against it. */
export function useSimulator() {
	const context = {
		sim: undefined as unknown as Simulator,
		sent: [] as SentRequest[],
		/** A demo client (rate limits off, tiny backoff) against this file's simulator. */
		client(overrides: ClientOptions = {}): InstagramClient {
			return createDemoClient(context.sim.url, {
				retryBaseDelayMs: 1,
				fetch: (url, init) => {
					context.sent.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers) })
					return fetch(url, init)
				},
				...overrides
			})
		}
	}
	beforeAll(async () => {
		context.sim = await startSimulator()
	})
	afterAll(async () => {
		context.sim.faults.clear()
		await context.sim.stop()
	})
	return context
}

/** Resolves to the error a call rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error & Record<string, any>> {
	try {
		await promise
	} catch (error) {
		return error as Error & Record<string, any>
	}
	throw new Error('expected the call to fail')
}

/** The demo data's well-known accounts and posts (src/simulator presets). */
export const DEMO = {
	viewerPk: '1000000001',
	luna: { username: 'luna.explorer', pk: '1000000002' },
	pat: { username: 'private.pat', pk: '1000000003' },
	xss: { username: 'xss.payload', pk: '1000000004' },
	posts: [
		['DVUVYxwAOOz', '3842790443716764595'],
		['DVMlhZ8ACcm', '3840609605554022182'],
		['DUQoGM4juNA', '3823732431648645952']
	] as const
}
