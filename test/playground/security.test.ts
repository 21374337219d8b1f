import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { expectFailure, expectNoLeaks, expectOk, type PlaygroundHarness, startPlayground } from './support'

// The guards of docs/api-contract.md, "Security", on the assembled playground (the guard itself:
// test/server/security.test.ts).
let playground: PlaygroundHarness
let guarded: PlaygroundHarness
beforeAll(async () => {
	playground = await startPlayground()
	guarded = await startPlayground({
		deps: { security: { host: '0.0.0.0', port: 8877, token: 'playground-token' } }
	})
})
afterAll(async () => {
	await playground.stop()
	await guarded.stop()
})

describe('playground security', () => {
	it('a cross-origin text/plain POST to /api/save is 403 and saves nothing', async () => {
		await expectOk(await playground.get('/api/users/username/luna.explorer'))
		const response = await playground.request('POST', '/api/save', {
			body: JSON.stringify({ name: 'evil' }),
			headers: { 'content-type': 'text/plain', origin: 'http://evil.example' }
		})
		await expectFailure(response, 403, 'forbidden')
		expect(response.headers.get('access-control-allow-origin')).toBeNull()
		expect(await readdir(playground.savedDir)).toEqual([])
		const history = await (await playground.get('/api/history')).json()
		expect(history.data.map((entry: { path: string }) => entry.path)).not.toContain('/api/save')
	})

	it('a cross-origin DELETE of a saved file is 403 and deletes nothing', async () => {
		await expectOk(await playground.request('POST', '/api/save', { body: { name: 'keep' } }))
		const response = await playground.request('DELETE', '/api/saved/keep', {
			headers: { origin: 'http://evil.example' }
		})
		await expectFailure(response, 403, 'forbidden')
		expect(await readdir(playground.savedDir)).toEqual(['keep.json'])
	})

	it('a foreign Host header is 403', async () => {
		const response = await playground.app.handle(
			new Request('http://127.0.0.1/api/status', { headers: { host: 'rebind.attacker.example' } })
		)
		await expectFailure(response, 403, 'forbidden')
	})

	it('beyond loopback every API request needs the token; the API reference does not', async () => {
		const at = (path: string, headers: Record<string, string> = {}) =>
			guarded.app.handle(new Request(`http://192.168.1.20:8877${path}`, { headers }))
		await expectFailure(await at('/api/status'), 403, 'forbidden')
		await expectOk(await at('/api/status?token=playground-token'))
		await expectOk(await at('/api/status', { authorization: 'Bearer playground-token' }))
		expect((await at('/openapi/json')).status).toBe(200)
		await at('/api/public/profile/luna.explorer?token=playground-token')
		const history = await (await at('/api/history?token=playground-token')).json()
		expect(history.data[0].path).toBe('/api/public/profile/luna.explorer')
		expect(JSON.stringify(history)).not.toContain('playground-token')
	})

	it('leaks no credential or absolute path', () => {
		expectNoLeaks(playground)
	})
})
