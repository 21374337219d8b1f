/**
 * API walks (a list method with `count`, and iteration over a page) whose upstream misbehaves: a
 * repeated cursor or pages of records returned already stop the walk with a `next_cursor` that
 * continues (never null, which means the end of the list), or an `upstream_error` when the call
 * has nothing; a record repeated within one call is returned once. Also: a dropped connection's
 * message without Bun's debugging advice, and requests without the client's own retries.
 */
import { describe, expect, it } from 'bun:test'
import { IgApiError, IgNetworkError } from '../../src/client/errors'
import { fetchFailure } from '../../src/client/fetch-failure'
import { ListStalledError, type PageFetcher, paginate } from '../../src/client/pagination'
import { withoutClientRetries } from '../../src/client/retry-scope'
import { encodeCursor } from '../../src/simulator/cursor'
import { MEGA_FOLLOWER_COUNT } from '../../src/simulator/dataset-mega'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { useSimulator } from './simulator-setup'

const context = useSimulator()
const mega = DEMO_PRESETS.mega
/** mega.travel's follower page at `offset`, as the client asks for it. */
const followerPage = (offset: number) =>
	`/friendships/${mega.pk}/followers/\\?.*max_id=${encodeCursor(`followers-${mega.pk}`, offset)}(&|$)`
const pks = (items: readonly { pk: string }[]) => items.map((item) => item.pk)

describe('a walk of several pages under a repeated cursor', () => {
	it('returns what it has with a cursor that continues, then completes once the fault clears', async () => {
		const ig = context.client()
		context.sim.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(400) })
		try {
			const first = await ig.friendships.getFollowers(mega.pk, { count: 1000 })
			expect(first.items.length).toBe(600)
			expect(first.next_cursor).not.toBeNull()
			// Still repeating: nothing to return from there is an upstream error, not the end of the list.
			const error = await ig.friendships
				.getFollowers(mega.pk, { count: 1000, cursor: first.next_cursor })
				.catch((caught: unknown) => caught)
			expect(error).toBeInstanceOf(ListStalledError)
			expect(error).toMatchObject({ kind: 'upstream_error' })
			context.sim.faults.clear()
			const all = pks(first.items)
			let cursor = first.next_cursor
			while (cursor) {
				const page = await ig.friendships.getFollowers(mega.pk, { count: 1000, cursor })
				all.push(...pks(page.items))
				cursor = page.next_cursor
			}
			expect(all.length).toBe(MEGA_FOLLOWER_COUNT)
			expect(new Set(all).size).toBe(MEGA_FOLLOWER_COUNT)
		} finally {
			context.sim.faults.clear()
		}
	})

	it('iterating over the list fails at a repeated cursor instead of ending early', async () => {
		const ig = context.client()
		context.sim.faults.set({ kind: 'repeat_cursor', pathPattern: followerPage(400) })
		try {
			const seen: string[] = []
			const error = await (async () => {
				for await (const user of await ig.friendships.getFollowers(mega.pk)) seen.push(user.pk)
			})().catch((caught: unknown) => caught)
			expect(error).toBeInstanceOf(ListStalledError)
			expect(seen.length).toBeGreaterThanOrEqual(400)
			expect(new Set(seen).size).toBe(seen.length)
		} finally {
			context.sim.faults.clear()
		}
	})
})

describe('a walk of several pages served the same page under new cursors', () => {
	it('stops after a few pages with each record once and a cursor that continues', async () => {
		const ig = context.client()
		context.sim.faults.set({
			kind: 'stale_page',
			pathPattern: `/friendships/${mega.pk}/followers/\\?.*max_id=`
		})
		try {
			context.sim.requests.clear()
			const page = await ig.friendships.getFollowers(mega.pk, { count: 1000 })
			expect(page.items.length).toBe(400)
			expect(new Set(pks(page.items)).size).toBe(400)
			expect(page.next_cursor).not.toBeNull()
			// The first page, the page the fault first answered, five with nothing new.
			expect(context.sim.requests.count(/\/followers\//)).toBe(7)
		} finally {
			context.sim.faults.clear()
		}
	})
})

describe('records repeated within one call', () => {
	/** Pages of three users, each page beginning with the last user of the page before. */
	const overlapping: PageFetcher<{ pk: string }> = async (cursor) => {
		const start = cursor ? Number(cursor) : 0
		const items = [start - 1, start, start + 1, start + 2].filter((n) => n >= 0).map((n) => ({ pk: `u${n}` }))
		return { items, next_cursor: start + 3 < 12 ? String(start + 3) : null }
	}

	it('are returned once, as jobs store them once', async () => {
		const page = await paginate(overlapping, { count: 100 })
		expect(pks(page.items)).toEqual(Array.from({ length: 12 }, (_, n) => `u${n}`))
		expect(page.next_cursor).toBeNull()
	})

	it('a count ends after new records only, and the next call does not begin with a repeat', async () => {
		const first = await paginate(overlapping, { count: 5 })
		expect(pks(first.items)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4'])
		const rest = await paginate(overlapping, { count: 100, cursor: first.next_cursor })
		expect(pks(rest.items)).toEqual(['u5', 'u6', 'u7', 'u8', 'u9', 'u10', 'u11'])
	})
})

describe('a dropped connection', () => {
	it("is said without Bun's advice to pass verbose: true to fetch()", () => {
		const reset = Object.assign(
			new Error(
				'The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()'
			),
			{ code: 'ECONNRESET' }
		)
		const failure = fetchFailure(reset, {
			endpoint: 'GET /api/v1/friendships/1/followers/',
			timeoutMs: 1000,
			timedOut: false,
			callerAborted: false,
			redact: (text) => text
		})
		expect(failure).toBeInstanceOf(IgNetworkError)
		expect(failure?.message).toBe(
			'Could not reach Instagram (GET /api/v1/friendships/1/followers/): The socket connection was closed unexpectedly.'
		)
	})
})

describe('requests without the client retries', () => {
	it('a 429 reaches the caller at its first answer, while other callers keep the retries', async () => {
		const ig = context.client({ maxRetries: 3 })
		await ig.users.getByUsername('luna.explorer')
		context.sim.faults.set({ kind: 'rate_limit', retryAfter: 0, pathPattern: '/followers/', times: 1 })
		context.sim.requests.clear()
		const error = await withoutClientRetries(() => ig.friendships.getFollowers(mega.pk)).catch(
			(caught: unknown) => caught
		)
		expect(error).toBeInstanceOf(IgApiError)
		expect(error).toMatchObject({ kind: 'rate_limited' })
		expect(context.sim.requests.count(/\/followers\//)).toBe(1)

		context.sim.faults.set({ kind: 'rate_limit', retryAfter: 0, pathPattern: '/followers/', times: 1 })
		const page = await ig.friendships.getFollowers(mega.pk)
		expect(page.items.length).toBeGreaterThan(0)
		expect(context.sim.requests.count(/\/followers\//)).toBe(3)
		context.sim.faults.clear()
	})

	it('a dropped connection too', async () => {
		let calls = 0
		const ig = context.client({
			maxRetries: 3,
			fetch: (url, init) => {
				if (!url.pathname.includes('/followers/')) return fetch(url, init)
				if (++calls === 1) throw Object.assign(new Error('socket closed'), { code: 'ECONNRESET' })
				return fetch(url, init)
			}
		})
		const error = await withoutClientRetries(() => ig.friendships.getFollowers(mega.pk)).catch(
			(caught: unknown) => caught
		)
		expect(error).toBeInstanceOf(IgNetworkError)
		expect(calls).toBe(1)
		// Outside, the client tries again at once.
		calls = 0
		expect((await ig.friendships.getFollowers(mega.pk)).items.length).toBeGreaterThan(0)
		expect(calls).toBe(2)
	})
})
