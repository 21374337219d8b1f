import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { openDemoSession } from '../src/demo'
import { type Simulator, startSimulator } from '../src/simulator/server'

let running: Simulator
beforeAll(async () => {
	running = await startSimulator({ port: 0, host: '127.0.0.1' })
})
afterAll(() => running.stop())

describe('openDemoSession', () => {
	it('uses the simulator named by SMKIT_UPSTREAM_URL and leaves it running', async () => {
		const session = await openDemoSession({ SMKIT_UPSTREAM_URL: `${running.url}/` })
		expect(session).toMatchObject({ external: true, upstream: running.url })
		const before = running.requests.total
		expect((await session.client.users.getByUsername('luna.explorer')).username).toBe('luna.explorer')
		expect(running.requests.total).toBeGreaterThan(before)
		await session.stop()
		expect((await fetch(`${running.url}/__sim/health`)).status).toBe(200)
	})

	it('starts its own simulator without SMKIT_UPSTREAM_URL and stops it', async () => {
		const session = await openDemoSession({})
		expect(session.external).toBe(false)
		expect(session.upstream).not.toBe(running.url)
		expect((await session.client.account.getCurrentUser()).username).toBe('smkit_demo')
		await session.stop()
		expect(await fetch(`${session.upstream}/__sim/health`).catch(() => 'refused')).toBe('refused')
	})
})
