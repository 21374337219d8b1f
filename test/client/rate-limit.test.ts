import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { DEFAULT_BUDGETS, RateLimiter } from '../../src/client/rate-limit'
import { startUpstream } from '../support/upstream'

describe('RateLimiter', () => {
	it('has the budgets of docs/instagram.md, "Rate limits"', () => {
		expect(DEFAULT_BUDGETS.get_profile).toEqual({ limit: 20, windowMs: 60_000 })
		expect(DEFAULT_BUDGETS.post_dm).toEqual({ limit: 10, windowMs: 3_600_000 })
	})

	it('lets calls through until the window is full, then makes the next one wait', async () => {
		const limiter = new RateLimiter({ get_search: { limit: 2, windowMs: 80 } })
		expect(await limiter.acquire('get_search', 'GET /x')).toBe(0)
		expect(await limiter.acquire('get_search', 'GET /x')).toBe(0)
		expect(await limiter.acquire('get_search', 'GET /x')).toBeGreaterThan(0)
	})

	it('queues a concurrent burst into distinct slots', async () => {
		const limiter = new RateLimiter({ get_feed: { limit: 1, windowMs: 30 } })
		const waits = await Promise.all([0, 1, 2].map(() => limiter.acquire('get_feed', 'GET /x')))
		expect(waits[0]).toBe(0)
		expect(waits[2] as number).toBeGreaterThan(waits[1] as number)
	})

	it('fails with rate_limited when the wait would exceed maxWaitMs', async () => {
		const limiter = new RateLimiter({ post_like: 1 }, 1000)
		await limiter.acquire('post_like', 'POST /like')
		try {
			await limiter.acquire('post_like', 'POST /like')
			throw new Error('expected rate_limited')
		} catch (error) {
			expect(error).toBeInstanceOf(IgApiError)
			expect((error as IgApiError).kind).toBe('rate_limited')
			expect((error as IgApiError).upstreamStatus).toBe(0)
			expect((error as IgApiError).retryAfter).toBeGreaterThan(3000)
		}
	})

	it('gives back the slot of a wait its caller gave up, which sent no request', async () => {
		const limiter = new RateLimiter({ get_direct: { limit: 2, windowMs: 60_000 } })
		await limiter.acquire('get_direct', 'GET /x')
		await limiter.acquire('get_direct', 'GET /x')
		for (let call = 0; call < 3; call++) {
			const waiting = limiter.acquire('get_direct', 'GET /x', AbortSignal.timeout(10))
			await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' })
		}
		expect(limiter.remaining().get_direct).toMatchObject({ limit: 2, used: 2, remaining: 0 })
		// Aborted by the caller itself (a paused job), not only by a deadline.
		const later = new RateLimiter({ get_feed: { limit: 1, windowMs: 200 } })
		await later.acquire('get_feed', 'GET /x')
		const controller = new AbortController()
		const abandoned = later.acquire('get_feed', 'GET /x', controller.signal).catch(() => 'aborted')
		controller.abort()
		expect(await abandoned).toBe('aborted')
		expect(later.remaining().get_feed?.used).toBe(1)
	})

	it('reports remaining budget per category, unknown categories on get_default numbers', async () => {
		const limiter = new RateLimiter()
		await limiter.acquire('get_profile', 'GET /x')
		await limiter.acquire('something_new', 'GET /y')
		const remaining = limiter.remaining()
		expect(remaining.get_profile).toEqual({ limit: 20, window_seconds: 60, used: 1, remaining: 19 })
		expect(remaining.something_new?.limit).toBe(30)
		expect(remaining.post_like?.remaining).toBe(30)
	})

	it('does nothing when disabled', async () => {
		const limiter = new RateLimiter(false)
		for (let call = 0; call < 100; call++) expect(await limiter.acquire('get_direct', 'GET /x')).toBe(0)
		expect(limiter.enabled).toBe(false)
	})
})

describe('client budgets', () => {
	let requests = 0
	const upstream = startUpstream({
		'/api/v1/users/web_profile_info/': () => {
			requests++
			return Response.json({ data: { user: { id: '1', username: 'luna.explorer' } }, status: 'ok' })
		}
	})
	afterAll(() => upstream.stop(true))

	it('refuses a call its budget cannot fit in time, before any request, and shows it in stats', async () => {
		const ig = new InstagramClient({
			baseURL: upstream.url.href,
			credentials: { sessionId: 's', csrfToken: 'c', dsUserId: '1' },
			rateLimits: { get_profile: 1 },
			rateLimitMaxWait: 100
		})
		await ig.users.getByUsername('luna.explorer')
		const before = requests
		await expect(ig.users.getByUsername('luna.explorer')).rejects.toMatchObject({ kind: 'rate_limited' })
		expect(requests).toBe(before)
		expect(ig.stats.snapshot().rate_limits?.get_profile?.remaining).toBe(0)
	})
})
