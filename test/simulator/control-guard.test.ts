/**
 * The simulator's control routes (`/__sim/`) as a web page on another origin would reach them: a
 * page that scans loopback ports must not be able to inject faults (and hang the playground that
 * uses the simulator) or read and clear its request log. Demo mode's in-process simulator also
 * demands a per-run token that only its playground knows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { openDemoSession } from '../../src/demo'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'

const faultRule = JSON.stringify({ kind: 'hang' })

describe('standalone simulator (no control token)', () => {
	let simulator: Simulator
	beforeAll(async () => {
		simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	})
	afterAll(() => simulator.stop())

	const post = (headers: Record<string, string>, body = faultRule) =>
		fetch(`${simulator.url}/__sim/faults`, { method: 'POST', headers, body })

	it('refuses a cross-origin, cross-site or non-JSON fault injection and leaves the faults alone', async () => {
		const attempts = [
			post({ 'content-type': 'application/json', origin: 'http://evil.example' }),
			post({ 'content-type': 'application/json', origin: 'http://127.0.0.1:1' }),
			post({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }),
			post({ 'content-type': 'text/plain' }),
			post({ 'content-type': 'application/x-www-form-urlencoded' }),
			post({ 'content-type': 'application/json', host: 'evil.example' }),
			post({ 'content-type': 'application/json', host: `attacker.example:${simulator.port}` })
		]
		for (const response of await Promise.all(attempts)) {
			expect(response.status).toBe(403)
			expect(await response.json()).toMatchObject({ status: 'fail' })
		}
		expect(simulator.faults.list()).toEqual([])
		const clear = await fetch(`${simulator.url}/__sim/requests`, {
			method: 'DELETE',
			headers: { origin: 'http://evil.example' }
		})
		expect(clear.status).toBe(403)
		const read = await fetch(`${simulator.url}/__sim/requests`, {
			headers: { 'sec-fetch-site': 'cross-site' }
		})
		expect(read.status).toBe(403)
	})

	it('still takes JSON from its own origin and tools without an Origin', async () => {
		const own = await post({ 'content-type': 'application/json', origin: simulator.url })
		expect(own.status).toBe(200)
		const tool = await fetch(`${simulator.url}/__sim/faults`, { method: 'DELETE' })
		expect(tool.status).toBe(200)
		expect(simulator.faults.list()).toEqual([])
	})

	it('serves placeholder images to pages on other origins', async () => {
		const image = await fetch(`${simulator.url}/__sim/img/u/${DEMO_PRESETS.luna.pk}.svg?s=150`, {
			headers: { 'sec-fetch-site': 'same-site' }
		})
		expect(image.status).toBe(200)
	})
})

describe('demo mode (in-process simulator with a per-run token)', () => {
	it('refuses control requests without the token, even from a same-origin tool', async () => {
		const session = await openDemoSession({})
		try {
			const inject = await fetch(`${session.upstream}/__sim/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: faultRule
			})
			expect(inject.status).toBe(403)
			const wrong = await fetch(`${session.upstream}/__sim/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: 'Bearer guessed-token-value' },
				body: faultRule
			})
			expect(wrong.status).toBe(403)
			expect((await fetch(`${session.upstream}/__sim/requests`)).status).toBe(403)
			expect((await fetch(`${session.upstream}/__sim/faults`)).status).toBe(403)
			// The playground still works: no fault was injected.
			expect((await session.client.account.getCurrentUser()).username).toBe('smkit_demo')
			// Health checks and pictures need no token.
			expect((await fetch(`${session.upstream}/__sim/health`)).status).toBe(200)
			const picture = await fetch(`${session.upstream}/__sim/img/u/${DEMO_PRESETS.luna.pk}.svg?s=150`)
			expect(picture.status).toBe(200)
		} finally {
			await session.stop()
		}
	})

	it('accepts the token its own process holds', async () => {
		const simulator = await startSimulator({ port: 0, host: '127.0.0.1', controlToken: true })
		try {
			expect(simulator.controlToken?.length).toBeGreaterThanOrEqual(32)
			const inject = await fetch(`${simulator.url}/__sim/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${simulator.controlToken}` },
				body: JSON.stringify({ kind: 'server_error', times: 1 })
			})
			expect(inject.status).toBe(200)
			expect(simulator.faults.list()).toHaveLength(1)
		} finally {
			await simulator.stop()
		}
	})
})
