import { describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import packageJson from '../../package.json'
import { HISTORY_LIMIT } from '../../src/playground/activity'
import { StatusEnvelope } from '../../src/playground/routes/system'
import { expectFailure, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('GET /api/status', () => {
	it('reports version, uptime, counters, login, demo and AI availability', async () => {
		const body = await expectOk(await playground.get('/api/status'))
		expect(Value.Check(StatusEnvelope, body)).toBe(true)
		expect(body.data).toMatchObject({
			status: 'ok',
			version: packageJson.version,
			client_ready: true,
			logged_in: true,
			demo: true,
			ai_available: false,
			ai_provider: null,
			ai_model: null
		})
	})

	it('counts requests and errors, but not its own polling', async () => {
		const before = (await expectOk(await playground.get('/api/status'))).data
		await playground.get('/api/users/username/luna.explorer')
		await playground.get('/api/users/username/no.such.user.here')
		await playground.get('/api/history')
		await playground.get('/api/dashboard')
		const after = (await expectOk(await playground.get('/api/status'))).data
		expect(after.total_requests - before.total_requests).toBe(2)
		expect(after.total_errors - before.total_errors).toBe(1)
	})
})

describe('GET /api/history', () => {
	it('lists requests newest first with the documented fields, without polling requests', async () => {
		await playground.get('/api/public/profile/luna.explorer')
		await playground.get('/api/hashtags/info/nosuchtagxyz')
		const body = await expectOk(await playground.get('/api/history'))
		const [latest, previous] = body.data
		expect(latest).toMatchObject({
			method: 'GET',
			path: '/api/hashtags/info/nosuchtagxyz',
			status: 404,
			success: false
		})
		expect(latest.error).toContain('not found')
		expect(previous).toMatchObject({
			path: '/api/public/profile/luna.explorer',
			status: 200,
			success: true,
			message: 'Public profile: @luna.explorer'
		})
		expect(latest.id).toBeGreaterThan(previous.id)
		expect(new Date(latest.timestamp).toISOString()).toBe(latest.timestamp)
		expect(typeof latest.duration_ms).toBe('number')
		for (const entry of body.data)
			expect(['/api/status', '/api/history', '/api/dashboard']).not.toContain(entry.path)
	})

	it('keeps the query string but never a token', async () => {
		await playground.get('/api/feed/user/1000000002?count=2&token=abc123secret')
		const [latest] = (await expectOk(await playground.get('/api/history'))).data
		expect(latest.path).toBe('/api/feed/user/1000000002?count=2')
		// Percent-encoded, the name is still `token` (the guard reads it so).
		await playground.get('/api/feed/user/1000000002?count=3&%74oken=abc123secret')
		const [encoded] = (await expectOk(await playground.get('/api/history'))).data
		expect(encoded.path).toBe('/api/feed/user/1000000002?count=3')
	})

	it(`keeps only the last ${HISTORY_LIMIT} entries`, async () => {
		for (let index = 0; index < HISTORY_LIMIT + 5; index++) await playground.get(`/api/nope/${index}`)
		const body = await expectOk(await playground.get('/api/history'))
		expect(body.data.length).toBe(HISTORY_LIMIT)
		expect(body.data[0].path).toBe(`/api/nope/${HISTORY_LIMIT + 4}`)
	})
})

describe('GET /api/dashboard', () => {
	it("holds the client's own statistics and the playground counters", async () => {
		await playground.get('/api/users/username/luna.explorer')
		const body = await expectOk(await playground.get('/api/dashboard'))
		expect(body.data.client.requests).toBeGreaterThan(0)
		expect(body.data.client.latency_ms).toEqual({ avg: expect.any(Number), p95: expect.any(Number) })
		expect(Object.keys(body.data.client.endpoints).length).toBeGreaterThan(0)
		expect(body.data.playground.total_requests).toBeGreaterThan(0)
		expect(body.data.playground.uptime_seconds).toBeGreaterThanOrEqual(0)
	})
})

describe('errors are envelopes', () => {
	it('unknown routes are 404 envelopes', async () => {
		const unknown = await expectFailure(await playground.get('/api/does-not-exist'), 404, 'not_found')
		// Someone guessing a path (FastAPI's /docs, /openapi.json) learns where the list is.
		expect(unknown.error).toBe('Not found: GET /api/does-not-exist (every endpoint is listed at /openapi)')
		await expectFailure(await playground.get('/api/users/username'), 404, 'not_found')
	})

	it('a known path with the wrong method is a 405 envelope with Allow', async () => {
		const response = await playground.request('DELETE', '/api/status')
		await expectFailure(response, 405, 'method_not_allowed')
		expect(response.headers.get('allow')).toBe('GET, HEAD')
		await expectFailure(await playground.request('GET', '/api/save'), 405, 'method_not_allowed')
		const put = await playground.request('PUT', '/api/saved/some_file', { body: {} })
		await expectFailure(put, 405, 'method_not_allowed')
		expect(put.headers.get('allow')).toContain('DELETE')
	})

	it('malformed JSON is a 400 envelope', async () => {
		const body = await expectFailure(
			await playground.request('POST', '/api/save', { body: '{"name": ' }),
			400,
			'bad_request'
		)
		expect(body.error).toContain('JSON')
	})

	it('a body over 1 MiB is 413, by declared length and by actual size', async () => {
		const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) })
		await expectFailure(
			await playground.request('POST', '/api/save', { body: big }),
			413,
			'payload_too_large'
		)
		const chunked = new ReadableStream({
			start(controller) {
				for (let index = 0; index < 20; index++)
					controller.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024)))
				controller.close()
			}
		})
		const response = await playground.app.handle(
			new Request('http://127.0.0.1/api/save', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: chunked,
				duplex: 'half'
			} as RequestInit)
		)
		await expectFailure(response, 413, 'payload_too_large')
		const declared = await playground.app.handle(
			new Request('http://127.0.0.1/api/save', {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
				body: '{}'
			})
		)
		await expectFailure(declared, 413, 'payload_too_large')
	})

	it('an unexpected error is a generic 500; the details go to the log only, without secrets', async () => {
		const original = playground.ig.hashtags.getInfo
		playground.ig.hashtags.getInfo = async () => {
			throw new TypeError('boom at sessionid=abcdef123; csrftoken=zzz internal detail')
		}
		try {
			const body = await expectFailure(
				await playground.get('/api/hashtags/info/sunset'),
				500,
				'internal_error'
			)
			expect(body.error).toBe('Internal server error')
			const line = playground.logs.find((entry) => entry.includes('boom'))
			expect(line).toContain('GET /api/hashtags/info/sunset')
			expect(line).toContain('sessionid=[redacted]')
			expect(line).not.toContain('abcdef123')
			expect(line).not.toContain('zzz')
		} finally {
			playground.ig.hashtags.getInfo = original
		}
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
