import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { GRAPHQL_IDS } from '../../src/simulator/routes/graphql'
import type { Simulator } from '../../src/simulator/server'
import { docQuery, getJson, readBody, SESSION_COOKIE, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const queryHash = (hash: string, variables: unknown) =>
	`/graphql/query/?query_hash=${hash}&variables=${encodeURIComponent(JSON.stringify(variables))}`

describe('GET /graphql/query/ (query_hash)', () => {
	it('answers the profile by id or by username, anonymously', async () => {
		const byId = await readBody(
			await fetch(
				`${simulator.url}${queryHash(GRAPHQL_IDS.userByIdOrUsername, { id: DEMO_PRESETS.luna.pk, render_surface: 'PROFILE' })}`
			)
		)
		expect(byId.body.data.user.username).toBe('luna.explorer')
		const byName = await readBody(
			await fetch(`${simulator.url}${queryHash(GRAPHQL_IDS.userByIdOrUsername, { username: 'xss.payload' })}`)
		)
		expect(byName.body.data.user.id).toBe(DEMO_PRESETS.xss.pk)
		const missing = await readBody(
			await fetch(
				`${simulator.url}${queryHash(GRAPHQL_IDS.userByIdOrUsername, { id: DEMO_PRESETS.missing.pk })}`
			)
		)
		expect(missing.body).toEqual({ data: { user: null }, extensions: { is_final: true }, status: 'ok' })
	})

	it('pages public posts with first/after to the end', async () => {
		const ids: string[] = []
		let after: string | null = null
		let pages = 0
		do {
			const { body } = await readBody(
				await fetch(
					`${simulator.url}${queryHash(GRAPHQL_IDS.publicPosts, { id: DEMO_PRESETS.luna.pk, first: 50, after })}`
				)
			)
			const media = body.data.user.edge_owner_to_timeline_media
			expect(media.count).toBe(120)
			ids.push(...media.edges.map((edge: { node: { id: string } }) => edge.node.id))
			after = media.page_info.has_next_page ? media.page_info.end_cursor : null
			pages++
		} while (after && pages < 10)
		expect(pages).toBe(3)
		expect(new Set(ids).size).toBe(120)
	})

	it('continues from the web profile end_cursor', async () => {
		const profile = await readBody(
			await fetch(`${simulator.url}/api/v1/users/web_profile_info/?username=luna.explorer`)
		)
		const cursor = profile.body.data.user.edge_owner_to_timeline_media.page_info.end_cursor
		const { body } = await readBody(
			await fetch(
				`${simulator.url}${queryHash(GRAPHQL_IDS.publicPosts, { id: DEMO_PRESETS.luna.pk, first: 12, after: cursor })}`
			)
		)
		const firstTwelve = profile.body.data.user.edge_owner_to_timeline_media.edges.map(
			(edge: { node: { id: string } }) => edge.node.id
		)
		expect(firstTwelve).not.toContain(body.data.user.edge_owner_to_timeline_media.edges[0].node.id)
	})

	it('answers liked and saved fallbacks in the doc_id shapes, and 400 for an unknown hash', async () => {
		const liked = await getJson(simulator, queryHash(GRAPHQL_IDS.likedHash, { first: 5 }))
		expect(liked.body.data.xdt_api__v1__feed__liked__connection.edges).toHaveLength(5)
		const saved = await getJson(simulator, queryHash(GRAPHQL_IDS.savedHash, {}))
		expect(saved.body.data.xdt_api__v1__collections__list_graphql_connection.edges.length).toBeGreaterThan(0)
		expect((await getJson(simulator, queryHash('0123456789abcdef0123456789abcdef', {}))).status).toBe(400)
	})
})

describe('POST /graphql/query (doc_id)', () => {
	it('pages the hashtag feed connection with after', async () => {
		const variables = {
			data: { count: 20, include_relationship_info: true },
			tag_name: 'coffee',
			after: null,
			before: null,
			first: 20,
			last: null
		}
		const first = await docQuery(simulator, GRAPHQL_IDS.tagFeedDoc, variables)
		const connection = first.body.data.xdt_api__v1__feed__tag__connection
		// The tag feed serves at most 9 posts per page, whatever `first` asks.
		expect(connection.edges).toHaveLength(9)
		expect(connection.edges[0].node.media.caption.text).toContain('#coffee')
		expect(connection.page_info.has_next_page).toBe(true)
		const second = await docQuery(simulator, GRAPHQL_IDS.tagFeedDoc, {
			...variables,
			after: connection.page_info.end_cursor
		})
		const next = second.body.data.xdt_api__v1__feed__tag__connection.edges[0].node.media.pk
		expect(
			connection.edges.map((edge: { node: { media: { pk: string } } }) => edge.node.media.pk)
		).not.toContain(next)
	})

	it('answers the liked posts and the saved collections', async () => {
		const liked = await docQuery(simulator, GRAPHQL_IDS.likedDoc, {
			data: { count: 20 },
			id: DEMO_PRESETS.viewer.pk,
			first: 20
		})
		for (const edge of liked.body.data.xdt_api__v1__feed__liked__connection.edges)
			expect(edge.node.media.has_liked).toBe(true)
		const saved = await docQuery(simulator, GRAPHQL_IDS.savedDoc, {
			collection_types: ['ALL_MEDIA_AUTO_COLLECTION', 'MEDIA', 'AUDIO_AUTO_COLLECTION'],
			count: 20,
			get_cover_media_lists: true
		})
		const nodes = saved.body.data.xdt_api__v1__collections__list_graphql_connection.edges.map(
			(edge: { node: unknown }) => edge.node
		)
		expect(nodes[0]).toMatchObject({ collection_name: 'All posts', collection_media_count: 60 })
		expect(nodes[0].cover_media_list[0].image_versions2.candidates.length).toBeGreaterThan(0)
	})

	it('answers 400 for an unknown doc_id and for variables that are not JSON', async () => {
		expect((await docQuery(simulator, '1', {})).status).toBe(400)
		const broken = await fetch(`${simulator.url}/graphql/query`, {
			method: 'POST',
			headers: { cookie: SESSION_COOKIE, 'x-csrftoken': simulator.credentials.csrfToken },
			body: `doc_id=${GRAPHQL_IDS.likedDoc}&variables=%7Bnot-json`
		})
		expect(broken.status).toBe(400)
	})
})

describe('POST /api/graphql (anonymous doc_id)', () => {
	it('answers the shortcode media doc without a session and keeps the others behind it', async () => {
		const form = (docId: string, variables: unknown) =>
			fetch(`${simulator.url}/api/graphql`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-fb-lsd': 'AVqbxe3J_YA' },
				body: new URLSearchParams({ doc_id: docId, variables: JSON.stringify(variables) })
			})
		const media = await readBody(await form(GRAPHQL_IDS.shortcodeMediaDoc, { shortcode: 'DUQoGM4juNA' }))
		expect(media.body.data.xdt_shortcode_media).toMatchObject({
			shortcode: 'DUQoGM4juNA',
			__typename: 'GraphSidecar'
		})
		expect((await form(GRAPHQL_IDS.likedDoc, {})).status).toBe(403)
	})
})
