import { describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { FullProfile, ParsedBio, User } from '../../src/client/types'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()

describe('ig.users against the simulator', () => {
	it('gets a profile by username, normalised to the User model', async () => {
		const user = await context.client().users.getByUsername('@Luna.Explorer')
		expect(Value.Check(User, user)).toBe(true)
		expect(user).toMatchObject({
			pk: DEMO.luna.pk,
			username: 'luna.explorer',
			is_verified: true,
			is_private: false
		})
		expect(user.follower_count).toBeGreaterThan(200)
		expect(user.bio_links.length).toBeGreaterThan(0)
	})

	it('gets a profile by pk through the GraphQL profile query', async () => {
		const ig = context.client()
		const user = await ig.users.getById(DEMO.luna.pk)
		expect(user.username).toBe('luna.explorer')
		expect(ig.stats.snapshot().endpoints['GET /graphql/query/']?.requests).toBe(1)
	})

	it('falls back to /users/{pk}/info/ when the GraphQL query fails', async () => {
		context.sim.faults.set({ kind: 'server_error', pathPattern: '^/graphql/query/' })
		try {
			const user = await context.client({ maxRetries: 0 }).users.getById(DEMO.luna.pk)
			expect(user.username).toBe('luna.explorer')
			expect(user.contact.email).toContain('@')
		} finally {
			context.sim.faults.clear()
		}
	})

	it('answers not_found for unknown users, by username and by pk', async () => {
		const ig = context.client()
		expect((await failure(ig.users.getByUsername('nobody.at.all.here'))).kind).toBe('not_found')
		expect((await failure(ig.users.getById('999999999'))).kind).toBe('not_found')
	})

	it('searches users with real pks and the exact match first', async () => {
		const page = await context.client().users.search('luna.explorer')
		expect(page.items[0]?.username).toBe('luna.explorer')
		for (const user of page.items) expect(user.pk).toMatch(/^[1-9]\d*$/)
	})

	it('builds a full profile from web profile, user info and the bio', async () => {
		const profile = await context.client().users.getFullProfile('luna.explorer')
		expect(Value.Check(FullProfile, profile)).toBe(true)
		expect(profile.sources).toEqual(['web_profile_info', 'user_info'])
		expect(profile.contact.city).not.toBeNull()
		expect(profile.bio_emails.length).toBe(1)
		expect(profile.bio_phones.length).toBe(1)
		expect(profile.bio_mentions).toContain('smkit_demo')
		expect(profile.bio_hashtags).toContain('travel')
	})

	it("parses luna's bio: e-mail, phone, URL, mention, hashtag, links and entities", async () => {
		const bio = await context.client().users.parseBio('luna.explorer')
		expect(Value.Check(ParsedBio, bio)).toBe(true)
		expect(bio.bio_emails).toEqual(['luna.explorer@example.com'])
		expect(bio.bio_phones[0]).toContain('555')
		expect(bio.bio_urls.length).toBeGreaterThan(0)
		expect(bio.bio_mentions).toEqual(['smkit_demo'])
		expect(bio.bio_hashtags).toEqual(['travel'])
		expect(bio.bio_entities).toContainEqual({ type: 'hashtag', name: 'travel' })
		expect(bio.bio_links.length).toBeGreaterThan(0)
	})

	it('keeps HTML payloads as plain text (escaping is the renderer’s job)', async () => {
		const user = await context.client().users.getByUsername(DEMO.xss.username)
		expect(`${user.full_name}${user.biography}`).toMatch(/<script>|onerror|<svg/)
	})

	it('rejects a malformed username before any request', async () => {
		const ig = context.client()
		const before = context.sim.requests.total
		expect((await failure(ig.users.getByUsername('bad name!'))).kind).toBe('bad_request')
		expect(context.sim.requests.total).toBe(before)
	})
})

describe('ig.public against the simulator (anonymous)', () => {
	it('gets a profile without login and without any cookie', async () => {
		context.sent.length = 0
		const ig = context.client({ credentials: undefined })
		const profile = await ig.public.getProfile('luna.explorer')
		expect(profile.username).toBe('luna.explorer')
		expect(profile.source).toBe('web_profile_info')
		expect(profile.recent_posts.length).toBeGreaterThan(0)
		expect(context.sent.length).toBeGreaterThan(0)
		for (const request of context.sent) {
			expect(request.headers.get('cookie')).toBeNull()
			expect(request.headers.get('x-csrftoken')).toBeNull()
		}
	})

	it('sends no cookie even when the client is logged in', async () => {
		context.sent.length = 0
		await context.client().public.getPosts('luna.explorer', { count: 30 })
		expect(context.sent.length).toBeGreaterThan(1)
		for (const request of context.sent) expect(request.headers.get('cookie')).toBeNull()
	})

	it('pages public posts up to count through the GraphQL timeline query', async () => {
		const page = await context
			.client({ credentials: undefined })
			.public.getPosts('luna.explorer', { count: 30 })
		expect(page.items.length).toBe(30)
		expect(new Set(page.items.map((post) => post.pk)).size).toBe(30)
		expect(page.items[0]?.user.username).toBe('luna.explorer')
	})

	it('names the owner on every page of public posts, not only on the first', async () => {
		const ig = context.client({ credentials: undefined })
		const owners = new Set<string>()
		for await (const post of await ig.public.getPosts(DEMO.luna.username, { count: 5 }))
			owners.add(`${post.user.pk} ${post.user.username}`)
		expect([...owners]).toEqual([`${DEMO.luna.pk} luna.explorer`])
	})

	it('falls back to the GraphQL query, then the HTML page, when web_profile_info fails', async () => {
		context.sim.faults.set({ kind: 'server_error', pathPattern: 'web_profile_info' })
		try {
			const viaGraphql = await context
				.client({ credentials: undefined, maxRetries: 0 })
				.public.getProfile('luna.explorer')
			expect(viaGraphql.source).toBe('graphql')
			context.sim.faults.set([
				{ kind: 'server_error', pathPattern: 'web_profile_info' },
				{ kind: 'server_error', pathPattern: '^/graphql/query/' }
			])
			const viaHtml = await context
				.client({ credentials: undefined, maxRetries: 0 })
				.public.getProfile('luna.explorer')
			expect(viaHtml.source).toBe('html')
			expect(viaHtml.username).toBe('luna.explorer')
			expect(viaHtml.follower_count).toBeGreaterThan(200)
		} finally {
			context.sim.faults.clear()
		}
	})

	it('malformed answers from every strategy are an upstream error, never a profile without its pk', async () => {
		context.sim.faults.set({ kind: 'malformed' })
		try {
			const ig = context.client({ credentials: undefined, maxRetries: 0 })
			await expect(ig.public.getProfile('luna.explorer')).rejects.toMatchObject({ kind: 'upstream_error' })
			await expect(ig.public.getPosts('luna.explorer', { count: 3 })).rejects.toMatchObject({
				kind: 'upstream_error'
			})
		} finally {
			context.sim.faults.clear()
		}
	})

	it("refuses another account's public posts cursor and a made-up one instead of reading the wrong posts", async () => {
		const ig = context.client({ credentials: undefined })
		const luna = await ig.public.getPosts(DEMO.luna.username, { count: 12 })
		expect(luna.next_cursor).not.toBeNull()
		// The sources page by user id: read for xss.payload, luna's cursor would go on with luna's posts.
		for (const cursor of [luna.next_cursor, 'garbage', `q:${DEMO.luna.pk}:QVFDcG9zdHM6MTI`]) {
			const error = await failure(ig.public.getPosts(DEMO.xss.username, { count: 3, cursor }))
			expect({ cursor, kind: error.kind }).toEqual({ cursor, kind: 'bad_request' })
		}
		// Its own account still reads on from it, in any spelling of the username.
		const next = await ig.public.getPosts('@Luna.Explorer', { count: 3, cursor: luna.next_cursor })
		expect(next.items.map((post) => post.user.pk)).toEqual([DEMO.luna.pk, DEMO.luna.pk, DEMO.luna.pk])
	})

	it('says private_account for the posts of a private account, not_found for an unknown one', async () => {
		const ig = context.client({ credentials: undefined })
		expect((await failure(ig.public.getPosts(DEMO.pat.username))).kind).toBe('private_account')
		expect((await failure(ig.public.getProfile('nobody.at.all.here'))).kind).toBe('not_found')
	})
})
