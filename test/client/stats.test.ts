/**
 * Client statistics as the dashboard shows them: errors are the ones a caller got (not the look-ups
 * and warm-up the client got past), and the last 60 minutes are kept as per-minute counts.
 */
import { describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError, IgArgumentError } from '../../src/client/errors'
import { ClientStats, MINUTES_KEPT } from '../../src/client/stats'
import { startUpstream } from '../support/upstream'
import { useSimulator } from './simulator-setup'

const simulator = useSimulator()

describe('errors are the ones the caller got', () => {
	it('a user search whose exact-username look-up finds nobody counts no error', async () => {
		const ig = simulator.client()
		const page = await ig.users.search('zzz')
		expect(page.items).toEqual([])
		const snapshot = ig.stats.snapshot()
		// The look-up failed (a request with an error) and the search went on without it.
		expect(snapshot.endpoints['GET /api/v1/users/web_profile_info/']?.errors).toBe(1)
		expect(snapshot.errors).toBe(0)
		expect(snapshot.errors_by_kind).toEqual({})
	})

	it('a profile that does not exist is one not_found error; an invalid argument is none', async () => {
		const ig = simulator.client()
		await expect(ig.users.getByUsername('nobody.at.all')).rejects.toBeInstanceOf(IgApiError)
		await expect(ig.users.getByUsername('no spaces allowed')).rejects.toBeInstanceOf(IgArgumentError)
		const snapshot = ig.stats.snapshot()
		expect(snapshot.errors).toBe(1)
		expect(snapshot.errors_by_kind).toEqual({ not_found: 1 })
		expect(snapshot.per_minute.at(-1)?.errors).toBe(1)
	})

	it('a failed warm-up request (Instagram answering 404) is not an error', async () => {
		const upstream = startUpstream({
			'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'fail' }, { status: 404 }),
			'/api/v1/media/:pk/info/': () =>
				Response.json({ items: [{ pk: 11, id: '11_2', code: 'x', media_type: 1 }], status: 'ok' })
		})
		try {
			const ig = new InstagramClient({
				baseURL: upstream.url.href,
				rateLimits: false,
				credentials: { sessionId: 's', csrfToken: 'c', dsUserId: '1' }
			})
			await ig.media.getInfo('11')
			const snapshot = ig.stats.snapshot()
			expect(snapshot.requests).toBe(2)
			expect(snapshot.errors).toBe(0)
			expect(snapshot.errors_by_kind).toEqual({})
		} finally {
			await upstream.stop(true)
		}
	})

	it('group methods keep their names and parameter counts', () => {
		const ig = simulator.client()
		expect(ig.users.getByUsername.name).toBe('getByUsername')
		expect(ig.users.getByUsername.length).toBe(Object.getPrototypeOf(ig.users).getByUsername.length)
		expect(ig.users.getByUsername).toBe(ig.users.getByUsername)
	})
})

describe('per-minute history', () => {
	const minute = 60_000
	const start = Date.UTC(2026, 10, 23, 19, 40, 30)

	it('lists every minute since counting started, zeros included, oldest first', () => {
		let now = start
		const stats = new ClientStats(undefined, () => now)
		stats.recordRequest('GET /a/', 5)
		now += 2 * minute
		stats.recordRequest('GET /a/', 5)
		stats.recordRequest('GET /a/', 5)
		stats.recordFailure(new IgApiError('not_found', 'gone', { upstreamStatus: 404 }))
		expect(stats.snapshot().per_minute).toEqual([
			{ minute: '2026-11-23T19:40:00.000Z', requests: 1, errors: 0 },
			{ minute: '2026-11-23T19:41:00.000Z', requests: 0, errors: 0 },
			{ minute: '2026-11-23T19:42:00.000Z', requests: 2, errors: 1 }
		])
	})

	it('keeps the last 60 minutes only', () => {
		let now = start
		const stats = new ClientStats(undefined, () => now)
		for (let index = 0; index < 90; index++) {
			for (let count = 0; count <= index % 3; count++) stats.recordRequest('GET /a/', 1)
			now += minute
		}
		now -= minute
		const minutes = stats.snapshot().per_minute
		expect(minutes).toHaveLength(MINUTES_KEPT)
		expect(minutes[0].minute).toBe(new Date(Date.UTC(2026, 10, 23, 19, 40) + 30 * minute).toISOString())
		expect(minutes.at(-1)?.minute).toBe(new Date(Date.UTC(2026, 10, 23, 19, 40) + 89 * minute).toISOString())
		expect(minutes.map((entry) => entry.requests)).toEqual(
			Array.from({ length: 60 }, (_, index) => ((index + 30) % 3) + 1)
		)
	})
})

describe('windows under load', () => {
	it('requests_per_minute counts exactly the requests of the last 60 seconds, thousands of them', () => {
		let now = Date.UTC(2026, 10, 25, 10, 0, 0)
		const stats = new ClientStats(undefined, () => now)
		// 5,000 requests 20 ms apart (100 s), then the window is read at several points.
		const times: number[] = []
		for (let index = 0; index < 5000; index++) {
			stats.recordRequest('GET /a/', 1)
			times.push(now)
			if (index % 997 === 0) {
				const expected = times.filter((time) => time > now - 60_000).length
				expect(stats.snapshot().requests_per_minute).toBe(expected)
			}
			now += 20
		}
		expect(stats.snapshot().requests_per_minute).toBe(times.filter((time) => time > now - 60_000).length)
		now += 30_000
		expect(stats.snapshot().requests_per_minute).toBe(times.filter((time) => time > now - 60_000).length)
		now += 60_000
		expect(stats.snapshot().requests_per_minute).toBe(0)
		stats.recordRequest('GET /a/', 1)
		expect(stats.snapshot().requests_per_minute).toBe(1)
		expect(stats.snapshot().requests).toBe(5001)
	})

	it('the latency figures describe the last 1,000 requests only', () => {
		const stats = new ClientStats()
		for (let index = 0; index < 700; index++) stats.recordRequest('GET /a/', 500)
		expect(stats.snapshot().latency_ms).toEqual({ avg: 500, p95: 500 })
		// 1,000 newer requests of 1-1000 ms push every 500 ms one out of the window.
		for (let index = 1; index <= 1000; index++) stats.recordRequest('GET /a/', index)
		expect(stats.snapshot().latency_ms).toEqual({ avg: 500.5, p95: 950 })
	})
})
