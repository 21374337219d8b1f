import { afterAll, describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { InstagramClient } from '../../src/client/client'
import { Hashtag, Place, SavedCollection, TopSearch } from '../../src/client/types'
import { parseCollectArguments } from '../../src/jobs/collect'
import { startUpstream } from '../support/upstream'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()

describe('ig.feed against the simulator', () => {
	it('pages a user feed up to count with next_max_id', async () => {
		const ig = context.client()
		const first = await ig.feed.getUserFeed(DEMO.luna.pk)
		expect(first.items.length).toBe(12)
		expect(first.next_cursor).not.toBeNull()
		const many = await ig.feed.getUserFeed(DEMO.luna.pk, { count: 50 })
		expect(many.items.length).toBe(50)
		expect(new Set(many.items.map((media) => media.pk)).size).toBe(50)
		expect(many.items[12]?.pk).toBe(
			(await ig.feed.getUserFeed(DEMO.luna.pk, { cursor: first.next_cursor })).items[0]?.pk as string
		)
	})

	it('iterates every post of a feed asynchronously', async () => {
		let total = 0
		for await (const media of await context.client().feed.getUserFeed(DEMO.luna.pk)) {
			expect(media.user.pk).toBe(DEMO.luna.pk)
			total++
		}
		expect(total).toBe((await context.client().users.getByUsername('luna.explorer')).media_count)
	})

	it('says private_account for the feed of a private account the viewer does not follow', async () => {
		expect((await failure(context.client().feed.getUserFeed(DEMO.pat.pk))).kind).toBe('private_account')
	})

	it('reads a hashtag feed through GraphQL and pages it', async () => {
		const page = await context.client().feed.getTagFeed('#sunset', { count: 30 })
		expect(page.items.length).toBe(30)
		expect(page.items.every((media) => media.caption_text.toLowerCase().includes('sunset'))).toBe(true)
	})

	it('falls back to GET /feed/tag/{tag}/ when the GraphQL query fails', async () => {
		context.sim.faults.set({ kind: 'server_error', pathPattern: '^/graphql/query$' })
		try {
			const ig = context.client({ maxRetries: 0 })
			const page = await ig.feed.getTagFeed('sunset')
			expect(page.items.length).toBeGreaterThan(0)
			expect(page.next_cursor?.startsWith('r:')).toBe(true)
			expect(ig.stats.snapshot().endpoints['GET /api/v1/feed/tag/{tag}/']?.requests).toBe(1)
			const next = await ig.feed.getTagFeed('sunset', { cursor: page.next_cursor })
			expect(next.items[0]?.pk).not.toBe(page.items[0]?.pk as string)
		} finally {
			context.sim.faults.clear()
		}
	})

	it('lists liked posts and saved collections', async () => {
		const ig = context.client()
		const liked = await ig.feed.getLiked()
		expect(liked.items.length).toBeGreaterThan(0)
		const saved = await ig.feed.getSaved()
		expect(saved.items.length).toBeGreaterThan(0)
		for (const collection of saved.items) expect(Value.Check(SavedCollection, collection)).toBe(true)
	})
})

describe('GraphQL fallback on empty results', () => {
	const upstream = startUpstream({
		'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({}),
		'/graphql/query': () =>
			Response.json({
				data: { xdt_api__v1__feed__tag__connection: { edges: [], page_info: { has_next_page: false } } },
				status: 'ok'
			}),
		'/api/v1/feed/tag/:tag/': () =>
			new Response(
				'{"items":[{"pk":3842790443716764595,"code":"DVUVYxwAOOz","media_type":1,"user":{"pk":1000000002,"username":"luna.explorer"}}],"more_available":false,"status":"ok"}'
			)
	})
	afterAll(() => upstream.stop(true))

	it('runs the REST fallback when GraphQL answers an empty first page', async () => {
		const ig = new InstagramClient({
			baseURL: upstream.url.href,
			credentials: { sessionId: 's', csrfToken: 'c', dsUserId: '1' },
			rateLimits: false
		})
		const page = await ig.feed.getTagFeed('sunset')
		expect(page.items.map((media) => media.pk)).toEqual(['3842790443716764595'])
	})
})

describe('ig.search and ig.hashtags against the simulator', () => {
	it('searches top results', async () => {
		const top = await context.client().search.top('luna')
		expect(Value.Check(TopSearch, top)).toBe(true)
		expect(top.users.some((user) => user.username === 'luna.explorer')).toBe(true)
	})

	it('searches users, hashtags and places', async () => {
		const ig = context.client()
		expect((await ig.search.users('luna')).items.some((user) => user.pk === DEMO.luna.pk)).toBe(true)
		const tags = await ig.search.hashtags('coffee')
		expect(tags.items[0]?.name).toBe('coffee')
		expect(Value.Check(Hashtag, tags.items[0])).toBe(true)
		const places = await ig.search.places('paris')
		expect(places.items.length).toBeGreaterThan(0)
		for (const place of places.items) expect(Value.Check(Place, place)).toBe(true)
	})

	it('pages the explore feed', async () => {
		const page = await context.client().search.explore({ count: 40 })
		expect(page.items.length).toBe(40)
	})

	it('gets hashtag info with its id beyond 2^53 as an exact string', async () => {
		const tag = await context.client().hashtags.getInfo('travel')
		expect(tag.name).toBe('travel')
		expect(tag.id).toMatch(/^\d{17}$/)
		expect(tag.media_count).toBeGreaterThan(0)
	})

	it('asks Instagram for a hashtag whose letters carry combining marks, # and case as typed', async () => {
		// Hindi and Thai vowel signs are marks, not letters: the name must not be refused for them.
		for (const name of ['भारत', '#กรุงเทพ', 'cafe\u0301'])
			expect(await failure(context.client().hashtags.getInfo(name))).toMatchObject({ kind: 'not_found' })
		expect(parseCollectArguments('tag', '#भारत')).toEqual({ kind: 'tag', target: 'भारत' })
		expect(() => parseCollectArguments('tag', '#no-dash')).toThrow()
	})
})
