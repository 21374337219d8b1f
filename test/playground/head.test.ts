/**
 * HEAD and the other wrong methods on routes that call Instagram: a 405 envelope with `Allow: GET`,
 * answered without a request to Instagram (a HEAD used to run the whole GET and spend the budget).
 * Routes that do not call Instagram keep HEAD; unknown paths stay 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness

beforeAll(async () => {
	playground = await startPlayground()
	const created = await playground.request('POST', '/api/lists', {
		body: { name: 'pair', usernames: ['luna.explorer', 'mega.travel'] }
	})
	expect(created.status).toBe(200)
})
afterAll(async () => {
	expectNoLeaks(playground)
	await playground.stop()
})

/** Upstream requests the client has made so far. */
async function upstreamRequests(): Promise<number> {
	return (await playground.json('/api/dashboard')).body.data.client.requests
}

const instagramPaths = [
	'/api/users/username/luna.explorer',
	'/api/friendships/followers/1000000002?count=5',
	'/api/analytics/profile/luna.explorer',
	'/api/compare?users=luna.explorer,mega.travel',
	'/api/lists/pair/compare'
]

describe('HEAD on a route that calls Instagram', () => {
	it('is a 405 with Allow: GET and sends nothing to Instagram', async () => {
		const before = await upstreamRequests()
		for (const path of instagramPaths) {
			const response = await playground.request('HEAD', path)
			expect({ path, status: response.status, allow: response.headers.get('allow') }).toEqual({
				path,
				status: 405,
				allow: 'GET'
			})
		}
		expect(await upstreamRequests()).toBe(before)
	})

	it('is in the request history and the counts, as any refused request', async () => {
		const before = (await playground.json('/api/status')).body.data
		const head = await playground.request('HEAD', '/api/media/likers/3842790443716764595')
		const post = await playground.request('POST', '/api/friendships/followers/1000000002', { body: {} })
		const history = (await playground.json('/api/history')).body.data as {
			id: number
			method: string
			path: string
			status: number
			success: boolean
			error?: string
		}[]
		expect(history.slice(0, 2)).toMatchObject([
			{ method: 'POST', path: '/api/friendships/followers/1000000002', status: 405, success: false },
			{ method: 'HEAD', path: '/api/media/likers/3842790443716764595', status: 405, success: false }
		])
		expect(history[0]?.error).toContain('Method POST not allowed')
		expect(post.headers.get('x-smkit-history-id')).toBe(String(history[0]?.id))
		expect(head.headers.get('x-smkit-history-id')).toBe(String(history[1]?.id))
		const after = (await playground.json('/api/status')).body.data
		expect(after.total_errors - before.total_errors).toBe(2)
	})

	it('says why in the envelope a client sees for the same refusal', async () => {
		const { app } = playground
		// Elysia strips the body of a HEAD answer on a server; app.handle keeps it.
		const response = await app.handle(
			new Request('http://127.0.0.1/api/users/username/luna.explorer', { method: 'HEAD' })
		)
		const body = await response.json()
		expect(body).toMatchObject({ success: false, code: 'method_not_allowed' })
		expect(body.error).toContain('GET')
	})

	it('another method gets the same Allow: GET (no HEAD offered)', async () => {
		for (const method of ['DELETE', 'POST', 'OPTIONS']) {
			const response = await playground.request(method, '/api/users/username/luna.explorer')
			expect({ method, status: response.status, allow: response.headers.get('allow') }).toEqual({
				method,
				status: 405,
				allow: 'GET'
			})
			expect((await response.json()).code).toBe('method_not_allowed')
		}
	})

	it('GET still answers', async () => {
		const { status, body } = await playground.json('/api/users/username/luna.explorer')
		expect(status).toBe(200)
		expect(body.data.username).toBe('luna.explorer')
	})
})

describe('HEAD elsewhere', () => {
	it('routes that stay in the playground keep HEAD; unknown paths stay 404', async () => {
		expect((await playground.request('HEAD', '/api/status')).status).toBe(200)
		expect((await playground.request('HEAD', '/api/watches')).status).toBe(200)
		expect((await playground.request('HEAD', '/api/users/nothing/here/at/all')).status).toBe(404)
		expect((await playground.request('DELETE', '/api/status')).headers.get('allow')).toBe('GET, HEAD')
	})
})
