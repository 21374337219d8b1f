/**
 * Test harness of the playground suites: the simulated Instagram on a loopback port, a client
 * pointed at it (demo session, or none), the app driven through `app.handle`, and a record of every
 * response body so each suite can prove no credential or absolute server path ever left the app.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { ClientOptions } from '../../src/client/client'
import { InstagramClient } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { createPlaygroundApp, type PlaygroundDeps } from '../../src/playground/app'
import { Envelope, FailureEnvelope } from '../../src/playground/envelope'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { type Simulator, startSimulator } from '../../src/simulator/server'

/** One running playground over a fresh simulator. */
export interface PlaygroundHarness {
	app: ReturnType<typeof createPlaygroundApp>
	simulator: Simulator
	ig: InstagramClient
	/** Absolute saved directory (a fresh temporary folder). */
	savedDir: string
	/** Log lines the app wrote (unexpected errors, upstream failures). */
	logs: string[]
	/** Every response body text seen so far. */
	bodies: string[]
	request(
		method: string,
		pathname: string,
		init?: { body?: unknown; headers?: Record<string, string> }
	): Promise<Response>
	get(pathname: string): Promise<Response>
	/** GET and parse the JSON body. */
	json(pathname: string): Promise<{ status: number; body: any; response: Response }>
	stop(): Promise<void>
}

/** Starts a simulator and a playground over it. `loggedIn: false` builds a client without credentials. */
export async function startPlayground(
	options: {
		loggedIn?: boolean
		client?: ClientOptions
		deps?: Partial<PlaygroundDeps>
		savedDir?: string
	} = {}
): Promise<PlaygroundHarness> {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	// Fast retries so fault tests stay quick; the mapping under test does not depend on the waits.
	const clientOptions: ClientOptions = { retryBaseDelayMs: 1, maxRetryWait: 50, ...options.client }
	const ig =
		options.loggedIn === false
			? new InstagramClient({ baseURL: simulator.url, rateLimits: false, ...clientOptions })
			: createDemoClient(simulator.url, clientOptions)
	const ownDir = options.savedDir === undefined
	const savedDir = options.savedDir ?? (await mkdtemp(path.join(tmpdir(), 'smkit-saved-')))
	const logs: string[] = []
	const bodies: string[] = []
	const app = createPlaygroundApp({
		ig,
		savedDir,
		demo: true,
		log: (line) => logs.push(line),
		...options.deps
	})

	const request: PlaygroundHarness['request'] = async (method, pathname, init = {}) => {
		const hasBody = init.body !== undefined
		const response = await app.handle(
			new Request(`http://127.0.0.1${pathname}`, {
				method,
				headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
				body: hasBody ? (typeof init.body === 'string' ? init.body : JSON.stringify(init.body)) : undefined
			})
		)
		const text = await response.clone().text()
		bodies.push(text)
		return response
	}
	const get = (pathname: string) => request('GET', pathname)
	const json = async (pathname: string) => {
		const response = await get(pathname)
		return { status: response.status, body: await response.json(), response }
	}
	const stop = async () => {
		await simulator.stop()
		if (ownDir) await rm(savedDir, { recursive: true, force: true })
	}
	return { app, simulator, ig, savedDir, logs, bodies, request, get, json, stop }
}

/**
 * A playground for the tests of one file: started before them (with `startPlayground`'s options),
 * stopped after them. The object is filled in once it has started: use it inside tests and hooks.
 */
export function usePlayground(...options: Parameters<typeof startPlayground>): PlaygroundHarness {
	const harness = {} as PlaygroundHarness
	beforeAll(async () => {
		Object.assign(harness, await startPlayground(...options))
	})
	afterAll(() => harness.stop())
	return harness
}

/**
 * Asserts no response body holds a credential or an absolute server path, and no log line holds a
 * credential. Log lines may carry stack traces (docs/api-contract.md, "Errors": details go to the log),
 * whose source
 * paths depend on where the checkout lives.
 */
export function expectNoLeaks(harness: PlaygroundHarness): void {
	const secrets = [
		DEMO_CREDENTIALS.sessionId,
		DEMO_CREDENTIALS.csrfToken,
		decodeURIComponent(DEMO_CREDENTIALS.sessionId)
	]
	expect(harness.bodies.length).toBeGreaterThan(0)
	for (const text of harness.bodies) {
		for (const secret of secrets) expect(text).not.toContain(secret)
		expect(text).not.toContain(harness.savedDir)
		expect(text).not.toContain(tmpdir())
		expect(text).not.toContain(process.cwd())
	}
	for (const line of harness.logs) {
		for (const secret of secrets) expect(line).not.toContain(secret)
		expect(line).not.toContain(harness.savedDir)
	}
}

/** Asserts a 200 success envelope and returns it. */
export async function expectOk(response: Response): Promise<any> {
	const body = await response.json()
	if (response.status !== 200)
		throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(body)}`)
	expect(Value.Check(Envelope, body)).toBe(true)
	expect(body.success).toBe(true)
	expect(typeof body.message).toBe('string')
	return body
}

/** Asserts a failure envelope with the given status and code and returns it. */
export async function expectFailure(response: Response, status: number, code: string): Promise<any> {
	const body = await response.json()
	expect({ status: response.status, code: body.code }).toEqual({ status, code })
	expect(Value.Check(FailureEnvelope, body)).toBe(true)
	expect(body.error.length).toBeGreaterThan(0)
	return body
}

/** Asserts a list envelope: `data` is an array and `next_cursor` sits beside it. */
export async function expectList(response: Response): Promise<any> {
	const body = await expectOk(response)
	expect(Array.isArray(body.data)).toBe(true)
	expect('next_cursor' in body).toBe(true)
	return body
}
