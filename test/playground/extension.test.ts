import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createDemoClient } from '../../src/demo'
import { createPlayground } from '../../src/playground/app'
import { ok } from '../../src/playground/envelope'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { expectFailure, expectOk } from './support'

// docs/architecture.md, "Product": the playground extended with an endpoint that reaches the client
// through getClient().
let simulator: Simulator
let savedDir: string
beforeAll(async () => {
	simulator = await startSimulator({ port: 0 })
	savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-extension-'))
})
afterAll(async () => {
	await simulator.stop()
	await rm(savedDir, { recursive: true, force: true })
})

describe('createPlayground', () => {
	it('returns the app and the client accessor; added routes get envelopes, history and 405s', async () => {
		const client = createDemoClient(simulator.url)
		const { app, getClient } = createPlayground({ client, savedDir })
		expect(getClient()).toBe(client)
		app.get('/api/custom/top-liked/:username', async ({ params }) => {
			const page = await getClient().public.getPosts(params.username, { count: 12 })
			const top = [...page.items].sort((left, right) => right.like_count - left.like_count).slice(0, 3)
			return ok(top, `Top posts of @${params.username}`)
		})
		const handle = (method: string, url: string) =>
			app.handle(new Request(`http://127.0.0.1${url}`, { method }))
		const body = await expectOk(await handle('GET', '/api/custom/top-liked/luna.explorer'))
		expect(body.data.length).toBe(3)
		expect(body.data[0].like_count).toBeGreaterThanOrEqual(body.data[2].like_count)
		await expectFailure(await handle('GET', '/api/custom/top-liked/no.such.user.here'), 404, 'not_found')
		await expectFailure(
			await handle('DELETE', '/api/custom/top-liked/luna.explorer'),
			405,
			'method_not_allowed'
		)
		const history = await expectOk(await handle('GET', '/api/history'))
		expect(history.data[1].path).toBe('/api/custom/top-liked/no.such.user.here')
	})

	it('builds its client from the environment file when none is given (missing file: not logged in)', async () => {
		const { getClient } = createPlayground({ envPath: path.join(savedDir, 'missing.env'), savedDir })
		expect(getClient().loggedIn).toBe(false)
	})
})
