import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import type { Simulator } from '../../src/simulator/server'
import { getJson, readBody, sessionGet, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterEach(() => simulator.faults.clear())
afterAll(() => simulator.stop())

const PROFILE = '/api/v1/users/1000000002/info/'

describe('fault kinds', () => {
	it('latency delays the answer, which stays normal', async () => {
		simulator.faults.set({ kind: 'latency', latencyMs: 30, times: 1 })
		expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
		expect(simulator.requests.records().at(-1)).toMatchObject({
			path: PROFILE,
			status: 200,
			fault: 'latency'
		})
	})

	it('rate_limit answers 429 with Retry-After and the throttle body, `times` times', async () => {
		simulator.faults.set({ kind: 'rate_limit', times: 2, retryAfter: 7 })
		const first = await sessionGet(simulator, PROFILE)
		expect(first.status).toBe(429)
		expect(first.headers.get('retry-after')).toBe('7')
		expect(await first.json()).toEqual({
			message: 'Please wait a few minutes before you try again.',
			status: 'fail'
		})
		expect((await sessionGet(simulator, PROFILE)).status).toBe(429)
		expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
		expect(simulator.faults.list()[0]).toMatchObject({ remaining: 0, hits: 2 })
	})

	it('server_error answers 500 JSON by default and HTML pages for 502/503', async () => {
		simulator.faults.set({ kind: 'server_error', times: 1 })
		const json = await readBody(await sessionGet(simulator, PROFILE))
		expect(json).toMatchObject({ status: 500, body: { status: 'fail' } })
		simulator.faults.set({ kind: 'server_error', status: 502, times: 1 })
		const html = await sessionGet(simulator, PROFILE)
		expect(html.status).toBe(502)
		expect(html.headers.get('content-type')).toContain('text/html')
		simulator.faults.set({ kind: 'server_error', status: 503, format: 'json', times: 1 })
		expect((await sessionGet(simulator, PROFILE)).status).toBe(503)
	})

	it('malformed answers 200 with truncated JSON', async () => {
		simulator.faults.set({ kind: 'malformed', times: 1 })
		const response = await sessionGet(simulator, PROFILE)
		expect(response.status).toBe(200)
		const text = await response.text()
		expect(text).toStartWith('{"user":')
		expect(() => JSON.parse(text)).toThrow()
	})

	it('challenge answers 400 challenge_required with url and api_path', async () => {
		simulator.faults.set({ kind: 'challenge', times: 1 })
		const { status, body } = await readBody(await sessionGet(simulator, PROFILE))
		expect(status).toBe(400)
		expect(body.message).toBe('challenge_required')
		expect(body.status).toBe('fail')
		expect(body.challenge.api_path).toBe('/challenge/')
		expect(body.challenge.url).toStartWith(`${simulator.url}/challenge/`)
	})

	it('login answers 403 login_required even with the session', async () => {
		simulator.faults.set({ kind: 'login', times: 1 })
		expect(await readBody(await sessionGet(simulator, PROFILE))).toMatchObject({
			status: 403,
			body: { message: 'login_required', require_login: true, status: 'fail' }
		})
	})

	it('hang never answers until the client gives up, while other paths keep working', async () => {
		simulator.faults.set({ kind: 'hang', pathPattern: '/feed/reels_tray/' })
		const hanging = fetch(`${simulator.url}/api/v1/feed/reels_tray/`, { signal: AbortSignal.timeout(150) })
		expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
		await expect(hanging).rejects.toThrow()
	})
})

describe('rule matching', () => {
	it('pathPattern restricts a rule to matching paths (query included)', async () => {
		simulator.faults.set({ kind: 'rate_limit', pathPattern: 'followers/\\?count=7' })
		expect((await sessionGet(simulator, '/api/v1/friendships/1000000002/followers/?count=7')).status).toBe(
			429
		)
		expect((await sessionGet(simulator, '/api/v1/friendships/1000000002/followers/?count=8')).status).toBe(
			200
		)
		expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
	})

	it('probability 0 never fires and invalid rules are refused', async () => {
		simulator.faults.set({ kind: 'server_error', probability: 0 })
		for (let index = 0; index < 5; index++) expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
		expect(() => simulator.faults.set({ kind: 'meteor' as 'hang' })).toThrow(TypeError)
		expect(() => simulator.faults.set({ kind: 'hang', pathPattern: '(' })).toThrow()
	})

	it('is controlled over HTTP at /__sim/faults', async () => {
		const set = await fetch(`${simulator.url}/__sim/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ kind: 'login', times: 1 })
		})
		expect(set.status).toBe(200)
		expect((await (await fetch(`${simulator.url}/__sim/faults`)).json()).rules).toHaveLength(1)
		expect((await sessionGet(simulator, PROFILE)).status).toBe(403)
		const invalid = await fetch(`${simulator.url}/__sim/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"kind":"nope"}'
		})
		expect(invalid.status).toBe(400)
		simulator.faults.set({ kind: 'login' })
		await fetch(`${simulator.url}/__sim/faults`, { method: 'DELETE' })
		expect((await sessionGet(simulator, PROFILE)).status).toBe(200)
	})
})

describe('request log', () => {
	it('counts requests per path and keeps no cookies', async () => {
		simulator.requests.clear()
		await getJson(simulator, PROFILE)
		await getJson(simulator, PROFILE)
		await fetch(`${simulator.url}/api/v1/users/web_profile_info/?username=luna.explorer`)
		expect(simulator.requests.count(PROFILE)).toBe(2)
		expect(simulator.requests.count(/web_profile_info/)).toBe(1)
		expect(simulator.requests.total).toBe(3)
		expect(simulator.requests.records().at(-1)).toMatchObject({
			query: '?username=luna.explorer',
			authenticated: false
		})
		const overHttp = await (await fetch(`${simulator.url}/__sim/requests`)).json()
		expect(overHttp.by_path[PROFILE]).toBe(2)
		expect(JSON.stringify(overHttp)).not.toContain(simulator.credentials.sessionId)
	})
})

describe('stop', () => {
	it('resolves while a request hangs', async () => {
		const own = await startTestSimulator()
		own.faults.set({ kind: 'hang' })
		const hanging = fetch(`${own.url}/api/v1/feed/reels_tray/`).then(
			(response) => response.status,
			() => 'closed'
		)
		// Stop only once the request is being held.
		while (own.faults.list()[0]?.hits !== 1) await Bun.sleep(5)
		await own.stop()
		expect([503, 'closed']).toContain(await hanging)
	})
})
