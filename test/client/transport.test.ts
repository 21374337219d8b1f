import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError, IgNetworkError, IgTimeoutError } from '../../src/client/errors'
import { startUpstream } from '../support/upstream'

/** Fake secrets: none of them may ever appear in an error message. */
const CREDENTIALS = {
	sessionId: 'SESSION-SECRET-9f8e7d',
	csrfToken: 'CSRF-SECRET-1a2b3c',
	dsUserId: '1000000001',
	mid: 'MID-SECRET-77'
}
const SECRETS = [CREDENTIALS.sessionId, CREDENTIALS.csrfToken, CREDENTIALS.mid]

type Seen = { method: string; path: string; headers: Headers; body: string; at: number }
const seen: Seen[] = []
const counters = new Map<string, number>()

/** Records every request, then answers with `reply` (which may count calls per path). */
function record(reply: (request: Request, call: number) => Response | Promise<Response>) {
	return async (request: Request) => {
		const path = new URL(request.url).pathname
		const call = (counters.get(path) ?? 0) + 1
		counters.set(path, call)
		seen.push({
			method: request.method,
			path,
			headers: request.headers,
			body: await request.text(),
			at: Date.now()
		})
		return reply(request, call)
	}
}
const calls = (path: string) => seen.filter((entry) => entry.path === path)
const info = (pk: string) =>
	`{"items":[{"pk":${pk},"id":"${pk}_1000000002","code":"x","media_type":1,"user":{"pk":1000000002,"username":"luna.explorer"}}],"status":"ok"}`

const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': record(
		() =>
			new Response('{"server_revision":1099887766,"status":"ok"}', {
				headers: { 'x-ig-set-www-claim': 'hmac.CLAIM' }
			})
	),
	'/api/v1/media/:pk/info/': record(() => new Response(info('3842790443716764595'))),
	'/api/v1/users/web_profile_info/': record(
		() => new Response('{}', { headers: { 'set-cookie': 'csrftoken=ROTATED-CSRF-55; Path=/; Secure' } })
	),
	'/api/v1/accounts/current_user/': record(
		() => new Response(null, { status: 302, headers: { location: '/accounts/login/?next=/' } })
	),
	'/accounts/login/': record(() => new Response('<html>login</html>')),
	'/api/v1/media/:pk/likers/': record((_request, call) =>
		call === 1
			? Response.json({ message: 'oops' }, { status: 500 })
			: Response.json({ users: [], user_count: 0, status: 'ok' })
	),
	'/api/v1/media/:pk/comments/': record(() =>
		Response.json(
			{ message: 'Please wait a few minutes before you try again.', status: 'fail' },
			{ status: 429, headers: { 'retry-after': '1' } }
		)
	),
	'/api/v1/tags/:tag/info/': record((_request, call) =>
		call === 1
			? Response.json(
					{ message: 'Please wait a few minutes before you try again.', status: 'fail' },
					{ status: 429, headers: { 'retry-after': '1' } }
				)
			: Response.json({ id: 17841563, name: 'sunset', media_count: 5, status: 'ok' })
	),
	'/api/v1/friendships/show/:pk/': record(() =>
		Response.json({ message: 'Not authorized to view user', status: 'fail' }, { status: 400 })
	),
	'/api/v1/users/:pk/info/': record(() =>
		Response.json({ message: 'User not found', status: 'fail' }, { status: 404 })
	),
	'/api/v1/feed/reels_tray/': record(() => Response.json({ message: 'down' }, { status: 503 })),
	'/api/v1/web/likes/:pk/like/': record(() => Response.json({ message: 'down' }, { status: 500 })),
	'/api/v1/discover/topical_explore/': record(async () => {
		await Bun.sleep(500)
		return Response.json({ status: 'ok' })
	}),
	'/api/v1/news/inbox/': record(() =>
		Response.json({ message: `bad cookie ${CREDENTIALS.sessionId}`, status: 'fail' }, { status: 400 })
	)
})
afterAll(() => upstream.stop(true))

const client = (options = {}) =>
	new InstagramClient({
		baseURL: upstream.url.href,
		credentials: CREDENTIALS,
		rateLimits: false,
		retryBaseDelayMs: 1,
		...options
	})

async function failure(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise
	} catch (error) {
		return error as Error
	}
	throw new Error('expected the call to fail')
}

describe('authenticated transport', () => {
	it('warms up once, then sends the browser headers and fixed-order cookies', async () => {
		const ig = client()
		const media = await ig.media.getInfo('3842790443716764595')
		await ig.media.getInfo('3842790443716764595')
		expect(media.pk).toBe('3842790443716764595')
		const paths = seen.map((entry) => entry.path)
		expect(paths.filter((path) => path === '/api/v1/web/fxcal/ig_sso_users/').length).toBe(1)
		const request = calls('/api/v1/media/3842790443716764595/info/')[0] as Seen
		expect(request.headers.get('cookie')).toBe(
			`mid=${CREDENTIALS.mid}; ig_nrcb=1; dpr=1.5; ds_user_id=1000000001; ps_l=1; ps_n=1; csrftoken=${CREDENTIALS.csrfToken}; sessionid=${CREDENTIALS.sessionId}; wd=1707x932`
		)
		expect(request.headers.get('x-csrftoken')).toBe(CREDENTIALS.csrfToken)
		expect(request.headers.get('x-ig-app-id')).toBe('1217981644879628')
		// Values the warm-up captured.
		expect(request.headers.get('x-ig-www-claim')).toBe('hmac.CLAIM')
		expect(request.headers.get('x-instagram-ajax')).toBe('1099887766')
	})

	it('applies Set-Cookie updates to later requests', async () => {
		const ig = client()
		await failure(ig.users.getByUsername('luna.explorer'))
		await ig.media.getInfo('1')
		const request = calls('/api/v1/media/1/info/').at(-1) as Seen
		expect(request.headers.get('cookie')).toContain('csrftoken=ROTATED-CSRF-55')
		expect(request.headers.get('x-csrftoken')).toBe('ROTATED-CSRF-55')
	})

	it('does not follow a redirect to the login page: login_required', async () => {
		const error = await failure(client().account.getCurrentUser())
		expect(error).toBeInstanceOf(IgApiError)
		expect((error as IgApiError).kind).toBe('login_required')
		expect(calls('/accounts/login/').length).toBe(0)
	})

	it('retries a 5xx on reads and counts the retry', async () => {
		const ig = client()
		const page = await ig.media.getLikers('5')
		expect(page.items).toEqual([])
		expect(calls('/api/v1/media/5/likers/').length).toBe(2)
		expect(ig.stats.snapshot().retries).toBe(1)
	})

	it('waits at least Retry-After before retrying a 429', async () => {
		const tag = await client().hashtags.getInfo('sunset')
		expect(tag.name).toBe('sunset')
		const [first, second] = calls('/api/v1/tags/sunset/info/') as [Seen, Seen]
		expect(second.at - first.at).toBeGreaterThanOrEqual(990)
	})

	it('gives up when Retry-After exceeds the wait budget, keeping Retry-After on the error', async () => {
		const error = (await failure(client({ maxRetryWait: 500 }).media.getComments('9'))) as IgApiError
		expect(error.kind).toBe('rate_limited')
		expect(error.retryAfter).toBe(1)
		expect(calls('/api/v1/media/9/comments/').length).toBe(1)
	})

	it('stops after maxRetries', async () => {
		const error = (await failure(client({ maxRetries: 2 }).stories.getTray())) as IgApiError
		expect(error.kind).toBe('upstream_error')
		expect(calls('/api/v1/feed/reels_tray/').length).toBe(3)
	})

	it('never retries not_found, private_account or writes after a 5xx', async () => {
		const ig = client()
		expect(((await failure(ig.friendships.getStatus('3'))) as IgApiError).kind).toBe('private_account')
		expect(((await failure(ig.users.getById('77'))) as IgApiError).kind).toBe('not_found')
		expect(((await failure(ig.media.like('8'))) as IgApiError).kind).toBe('upstream_error')
		expect(calls('/api/v1/friendships/show/3/').length).toBe(1)
		expect(calls('/api/v1/users/77/info/').length).toBe(1)
		expect(calls('/api/v1/web/likes/8/like/').length).toBe(1)
	})

	it('sends POST forms url-encoded with jazoest', async () => {
		await failure(client().media.like('8'))
		const request = calls('/api/v1/web/likes/8/like/').at(-1) as Seen
		expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
		const total = [...CREDENTIALS.csrfToken].reduce(
			(sum, character) => sum + (character.codePointAt(0) ?? 0),
			0
		)
		expect(new URLSearchParams(request.body).get('jazoest')).toBe(`2${total}`)
	})

	it('turns a slow answer into IgTimeoutError', async () => {
		const error = await failure(client({ timeout: 50, maxRetries: 0 }).search.explore())
		expect(error).toBeInstanceOf(IgTimeoutError)
		expect((error as IgTimeoutError).kind).toBe('upstream_timeout')
	})

	it('turns a refused connection into IgNetworkError after retries', async () => {
		const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
		const url = closed.url.href
		closed.stop(true)
		const ig = new InstagramClient({
			baseURL: url,
			credentials: CREDENTIALS,
			rateLimits: false,
			retryBaseDelayMs: 1,
			maxRetries: 1
		})
		const error = await failure(ig.media.getInfo('1'))
		expect(error).toBeInstanceOf(IgNetworkError)
		expect(ig.stats.snapshot().retries).toBe(1)
	})

	it('keeps every credential out of error messages', async () => {
		const errors = await Promise.all([
			failure(client().account.getCurrentUser()),
			failure(client().notifications.getCounts()),
			failure(client({ maxRetries: 0 }).stories.getTray()),
			failure(client({ timeout: 50, maxRetries: 0 }).search.explore())
		])
		for (const error of errors)
			for (const secret of SECRETS) expect(`${error.message} ${String(error)}`).not.toContain(secret)
	})
})

describe('without credentials', () => {
	it('throws login_required naming the variables and --demo, without any request', async () => {
		const before = seen.length
		const ig = new InstagramClient({ baseURL: upstream.url.href, rateLimits: false })
		expect(ig.loggedIn).toBe(false)
		const error = (await failure(ig.users.getByUsername('luna.explorer'))) as IgApiError
		expect(error.kind).toBe('login_required')
		for (const name of ['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID', '--demo'])
			expect(error.message).toContain(name)
		expect(seen.length).toBe(before)
	})
})

describe('statistics', () => {
	it('counts requests per endpoint template, errors and latency', async () => {
		const ig = client()
		await ig.media.getInfo('11')
		await ig.media.getInfo('12')
		await failure(ig.users.getById('77'))
		const snapshot = ig.stats.snapshot()
		expect(snapshot.endpoints['GET /api/v1/media/{pk}/info/']?.requests).toBe(2)
		expect(snapshot.endpoints['GET /api/v1/users/{pk}/info/']?.errors).toBe(1)
		expect(Object.keys(snapshot.endpoints).some((key) => /\d{2}/.test(key))).toBe(false)
		// getById tried the GraphQL query first (no such route here: 404), then the info endpoint:
		// two failed requests, one error for the caller.
		expect(snapshot.endpoints['GET /graphql/query/']?.errors).toBe(1)
		expect(snapshot.errors).toBe(1)
		expect(snapshot.errors_by_kind).toEqual({ not_found: 1 })
		expect(snapshot.requests).toBeGreaterThanOrEqual(4)
		expect(snapshot.requests_per_minute).toBe(snapshot.requests)
		expect(snapshot.latency_ms.avg).toBeGreaterThan(0)
		expect(snapshot.latency_ms.p95).toBeGreaterThan(0)
		expect(snapshot.rate_limits).toBeNull()
	})
})
