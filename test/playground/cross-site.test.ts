/**
 * Requests another site's page makes the browser send (`<img src=.../api/...>`, no-cors fetches,
 * scripts): refused on every /api/ route, reads included, so a page cannot spend the user's
 * budget or change what Save stores. Save stores the result the UI names by its history id.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { createDemoClient } from '../../src/demo'
import { createPlaygroundApp } from '../../src/playground/app'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { launchBrowser, temporaryDirectory } from '../support/browser'
import { expectFailure, expectOk, startPlayground, usePlayground } from './support'

const playground = usePlayground()

const accountInfo = '/api/account/info'

describe('reads sent for another site', () => {
	test('are refused with 403 and never reach Instagram or the history', async () => {
		playground.simulator.requests.clear()
		const attempts: Record<string, string>[] = [
			{ 'sec-fetch-site': 'cross-site' },
			{ 'sec-fetch-site': 'same-site' },
			{ origin: 'http://evil.example' },
			{ origin: 'null' },
			{ referer: 'http://evil.example/page.html' },
			{ referer: 'http://127.0.0.1:1/other-port.html' }
		]
		for (const headers of attempts) {
			await expectFailure(await playground.request('GET', accountInfo, { headers }), 403, 'forbidden')
		}
		expect(playground.simulator.requests.total).toBe(0)
		const history = await (await playground.get('/api/history')).json()
		expect(history.data).toEqual([])
	})

	test('from our own pages and from tools pass', async () => {
		const allowed: Record<string, string>[] = [
			{},
			{ 'sec-fetch-site': 'same-origin', referer: 'http://127.0.0.1/', origin: 'http://127.0.0.1' },
			{ 'sec-fetch-site': 'none' }
		]
		for (const headers of allowed) {
			await expectOk(await playground.request('GET', accountInfo, { headers }))
		}
	})

	test('from the configured CORS origin pass', async () => {
		const cors = await startPlayground({ deps: { security: { corsOrigin: 'http://localhost:5173' } } })
		try {
			const headers = {
				origin: 'http://localhost:5173',
				referer: 'http://localhost:5173/app',
				'sec-fetch-site': 'cross-site'
			}
			await expectOk(await cors.request('GET', accountInfo, { headers }))
		} finally {
			await cors.stop()
		}
	})
})

describe('Save by history id', () => {
	test('stores the named result even after other requests, and says when it is no longer kept', async () => {
		const luna = await playground.get('/api/users/username/luna.explorer')
		await expectOk(luna.clone())
		const lunaId = Number(luna.headers.get('x-smkit-history-id'))
		expect(lunaId).toBeGreaterThan(0)
		await expectOk(await playground.get('/api/users/username/smkit_demo'))
		const saved = await expectOk(
			await playground.request('POST', '/api/save', { body: { name: 'chosen', history_id: lunaId } })
		)
		const file = JSON.parse(
			await readFile(path.join(playground.savedDir, path.basename(saved.data.file)), 'utf8')
		)
		expect(file.request).toBe('GET /api/users/username/luna.explorer')
		expect(file.result.data.username).toBe('luna.explorer')
		await expectFailure(
			await playground.request('POST', '/api/save', { body: { name: 'gone', history_id: 999_999 } }),
			404,
			'not_found'
		)
	})
})

describe('in Chromium, pages of other sites', () => {
	let browser: Browser
	let simulator: Simulator
	const servers: ReturnType<typeof Bun.serve>[] = []
	const seen: { path: string; status: number }[] = []
	let target = ''
	let saved: Awaited<ReturnType<typeof temporaryDirectory>>

	beforeAll(async () => {
		simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
		saved = await temporaryDirectory('smkit-cross-site-')
		const app = createPlaygroundApp({
			ig: createDemoClient(simulator.url),
			savedDir: saved.path,
			log: () => {}
		})
		const server = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			async fetch(request) {
				const response = await app.fetch(request)
				seen.push({ path: new URL(request.url).pathname, status: response.status })
				return response
			}
		})
		servers.push(server)
		target = `http://127.0.0.1:${server.port}${accountInfo}`
		const page = `<!doctype html><title>attacker</title><body><script>
const target = ${JSON.stringify(target)};
const image = (policy) => new Promise((done) => { const img = new Image(); if (policy) img.referrerPolicy = policy; img.onload = img.onerror = done; img.src = target + '?' + Math.random(); });
const script = () => new Promise((done) => { const s = document.createElement('script'); s.onload = s.onerror = done; s.src = target + '?s'; document.body.append(s); });
Promise.all([image(), image('no-referrer'), script(), fetch(target, { mode: 'no-cors', credentials: 'include' }).catch(() => {}), fetch(target).catch(() => {})]).then(() => { document.title = 'sent' });
</script></body>`
		const attacker = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			fetch: () => new Response(page, { headers: { 'content-type': 'text/html' } })
		})
		servers.push(attacker)
		browser = await launchBrowser()
	}, 120_000)

	afterAll(async () => {
		await browser?.close()
		for (const server of servers) await server.stop(true)
		await simulator?.stop()
		await saved?.remove()
	}, 120_000)

	test('cannot make the playground read the account (another port, or another site name)', async () => {
		const attackerPort = servers[1].port
		for (const origin of [`http://127.0.0.1:${attackerPort}`, `http://localhost:${attackerPort}`]) {
			seen.length = 0
			simulator.requests.clear()
			const context = await browser.newContext()
			const page = await context.newPage()
			await page.goto(`${origin}/`)
			await page.waitForFunction(() => document.title === 'sent', null, { timeout: 30_000 })
			await context.close()
			const attempts = seen.filter((entry) => entry.path === accountInfo)
			expect({ origin, attempts: attempts.length >= 4 }).toEqual({ origin, attempts: true })
			for (const attempt of attempts)
				expect({ origin, status: attempt.status }).toEqual({ origin, status: 403 })
			expect(simulator.requests.total).toBe(0)
		}
	}, 120_000)
})
