import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Elysia } from 'elysia'
import { FailureEnvelope } from '../../src/server/envelope'
import { isLoopbackHost, resolveAccessToken, securityGuard } from '../../src/server/security'

/** A tiny app behind the guard that counts how often its handlers actually ran. */
function guardedApp(options: Parameters<typeof securityGuard>[0]) {
	const executed: string[] = []
	const app = new Elysia()
		.use(securityGuard(options))
		.get('/api/read', () => {
			executed.push('read')
			return { success: true }
		})
		.post('/api/write', () => {
			executed.push('write')
			return { success: true }
		})
		.delete('/api/item', () => {
			executed.push('delete')
			return { success: true }
		})
	return { app, executed }
}

const send = (app: Elysia<any, any, any, any, any, any, any>, path: string, init: RequestInit = {}) =>
	app.handle(new Request(`http://127.0.0.1:8877${path}`, init))

async function expectForbidden(response: Response) {
	expect(response.status).toBe(403)
	const body = await response.json()
	expect(Value.Check(FailureEnvelope, body)).toBe(true)
	expect(body.code).toBe('forbidden')
	expect(response.headers.get('access-control-allow-origin')).toBeNull()
}

describe('Host header (DNS rebinding)', () => {
	const { app, executed } = guardedApp({ host: '127.0.0.1', port: 8877 })

	it('accepts the bound host and the loopback names with the right port', async () => {
		for (const host of ['127.0.0.1:8877', 'localhost:8877', 'LOCALHOST:8877', '[::1]:8877']) {
			const response = await send(app, '/api/read', { headers: { host } })
			expect(response.status).toBe(200)
		}
	})

	it('rejects a foreign host, a wrong port and a missing port before any handler runs', async () => {
		executed.length = 0
		for (const host of [
			'evil.example:8877',
			'evil.example',
			'127.0.0.1:9999',
			'localhost',
			'127.0.0.1.evil.example:8877'
		]) {
			await expectForbidden(await send(app, '/api/read', { headers: { host } }))
		}
		expect(executed).toEqual([])
	})

	it('accepts any port when none is configured', async () => {
		const { app: anyPort } = guardedApp({ host: '127.0.0.1' })
		expect((await anyPort.handle(new Request('http://localhost:1234/api/read'))).status).toBe(200)
		await expectForbidden(await anyPort.handle(new Request('http://rebound.example/api/read')))
	})
})

describe('POST bodies and origins (cross-site requests)', () => {
	const { app, executed } = guardedApp({ host: '127.0.0.1', port: 8877 })

	it('rejects a cross-origin text/plain POST without running the handler', async () => {
		executed.length = 0
		const response = await send(app, '/api/write', {
			method: 'POST',
			headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
			body: '{"name":"x"}'
		})
		await expectForbidden(response)
		expect(executed).toEqual([])
	})

	it('rejects a same-origin POST whose body is not JSON (form or text/plain)', async () => {
		executed.length = 0
		for (const contentType of [
			'text/plain',
			'application/x-www-form-urlencoded',
			'multipart/form-data; boundary=x'
		]) {
			await expectForbidden(
				await send(app, '/api/write', {
					method: 'POST',
					headers: { 'content-type': contentType },
					body: 'a=1'
				})
			)
		}
		await expectForbidden(await send(app, '/api/write', { method: 'POST', body: '{"a":1}' }))
		expect(executed).toEqual([])
	})

	it('rejects POST and DELETE from a foreign origin even with a JSON body', async () => {
		executed.length = 0
		const headers = { origin: 'http://evil.example', 'content-type': 'application/json' }
		await expectForbidden(await send(app, '/api/write', { method: 'POST', headers, body: '{}' }))
		await expectForbidden(await send(app, '/api/item', { method: 'DELETE', headers: { origin: 'null' } }))
		expect(executed).toEqual([])
	})

	it('lets same-origin JSON posts, body-less posts and deletes through', async () => {
		executed.length = 0
		const json = { 'content-type': 'application/json; charset=utf-8', origin: 'http://127.0.0.1:8877' }
		expect((await send(app, '/api/write', { method: 'POST', headers: json, body: '{}' })).status).toBe(200)
		expect((await send(app, '/api/write', { method: 'POST' })).status).toBe(200)
		expect(
			(await send(app, '/api/item', { method: 'DELETE', headers: { origin: 'http://127.0.0.1:8877' } }))
				.status
		).toBe(200)
		expect(executed).toEqual(['write', 'write', 'delete'])
	})

	it('sends no CORS headers by default', async () => {
		const response = await send(app, '/api/read', { headers: { origin: 'http://evil.example' } })
		expect(response.headers.get('access-control-allow-origin')).toBeNull()
	})
})

describe('CORS origin', () => {
	const { app, executed } = guardedApp({ host: '127.0.0.1', corsOrigin: 'http://localhost:5173' })

	it('answers the preflight and marks responses for the configured origin only', async () => {
		const preflight = await send(app, '/api/write', {
			method: 'OPTIONS',
			headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }
		})
		expect(preflight.status).toBe(204)
		expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
		const allowed = await send(app, '/api/write', {
			method: 'POST',
			headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
			body: '{}'
		})
		expect(allowed.status).toBe(200)
		expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
		executed.length = 0
		await expectForbidden(
			await send(app, '/api/write', {
				method: 'POST',
				headers: { origin: 'http://localhost:5174', 'content-type': 'application/json' },
				body: '{}'
			})
		)
		expect(executed).toEqual([])
	})

	it("lets the page send the Load more and poll markers and read the playground's own response headers", async () => {
		const preflight = await send(app, '/api/read', {
			method: 'OPTIONS',
			headers: {
				origin: 'http://localhost:5173',
				'access-control-request-method': 'GET',
				'access-control-request-headers': 'x-smkit-load-more, x-smkit-poll'
			}
		})
		const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()
		expect(allowedHeaders.split(/,\s*/)).toContain('x-smkit-load-more')
		expect(allowedHeaders.split(/,\s*/)).toContain('x-smkit-poll')
		const read = await send(app, '/api/read', { headers: { origin: 'http://localhost:5173' } })
		const exposed = (read.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/)
		for (const header of ['x-smkit-history-id', 'x-smkit-session', 'retry-after', 'content-disposition'])
			expect(exposed).toContain(header)
	})
})

describe('access token', () => {
	it('is required beyond loopback: building the guard without one fails', () => {
		expect(() => securityGuard({ host: '0.0.0.0' })).toThrow(/token/)
		expect(() => securityGuard({ host: '192.168.1.20' })).toThrow(/token/)
	})

	it('is generated beyond loopback and not on loopback', () => {
		const generated = resolveAccessToken('0.0.0.0')
		expect(generated.generated).toBe(true)
		expect(generated.token?.length).toBeGreaterThanOrEqual(24)
		expect(resolveAccessToken('0.0.0.0').token).not.toBe(generated.token)
		// About 1 in 64 random tokens would start with '-', which `--token <value>` reads as an option.
		const tokens = Array.from({ length: 2000 }, () => resolveAccessToken('0.0.0.0').token as string)
		expect(tokens.filter((token) => token.startsWith('-'))).toEqual([])
		expect(resolveAccessToken('127.0.0.1')).toEqual({ generated: false })
		expect(resolveAccessToken('0.0.0.0', 'given-token-16ch')).toEqual({
			token: 'given-token-16ch',
			generated: false
		})
		expect(isLoopbackHost('::1')).toBe(true)
		expect(isLoopbackHost('10.0.0.1')).toBe(false)
	})

	const { app, executed } = guardedApp({
		host: '0.0.0.0',
		port: 8877,
		token: 's3cret-token',
		publicPaths: ['/api/read']
	})
	const lan = (path: string, init: RequestInit = {}) =>
		app.handle(new Request(`http://192.168.1.20:8877${path}`, init))

	it('accepts Authorization: Bearer and ?token=, rejects a missing or wrong token', async () => {
		executed.length = 0
		const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
		await expectForbidden(await lan('/api/write', post))
		await expectForbidden(await lan('/api/write?token=wrong', post))
		await expectForbidden(
			await lan('/api/write', { ...post, headers: { ...post.headers, authorization: 'Bearer s3cret-tokeN' } })
		)
		expect(executed).toEqual([])
		expect((await lan('/api/write?token=s3cret-token', post)).status).toBe(200)
		const bearer = { ...post, headers: { ...post.headers, authorization: 'Bearer s3cret-token' } }
		expect((await lan('/api/write', bearer)).status).toBe(200)
		expect(executed).toEqual(['write', 'write'])
	})

	it('serves public GET paths without the token', async () => {
		expect((await lan('/api/read')).status).toBe(200)
	})
})

describe('through a real server', () => {
	const { app, executed } = guardedApp({ host: '127.0.0.1', port: 0 })
	let server: ReturnType<typeof Bun.serve>
	beforeAll(() => {
		server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	})
	afterAll(() => server.stop(true))

	it('rejects a rebound Host header and a cross-site form post over HTTP', async () => {
		const base = `http://127.0.0.1:${server.port}`
		expect((await fetch(`${base}/api/read`)).status).toBe(200)
		await expectForbidden(
			await fetch(`${base}/api/read`, { headers: { host: `attacker.example:${server.port}` } })
		)
		executed.length = 0
		await expectForbidden(
			await fetch(`${base}/api/write`, {
				method: 'POST',
				headers: { origin: 'http://attacker.example', 'content-type': 'text/plain' },
				body: 'x'
			})
		)
		expect(executed).toEqual([])
	})
})
