import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS, XSS_PAYLOADS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { expectShape, getJson, readBody, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const anonymousProfile = async (username: string) =>
	readBody(
		await fetch(`${simulator.url}/api/v1/users/web_profile_info/?username=${encodeURIComponent(username)}`)
	)

describe('GET /api/v1/users/web_profile_info/', () => {
	it('answers data.user with string id, counts, bio entities and the 12 newest posts', async () => {
		const { status, body } = await anonymousProfile('luna.explorer')
		expect(status).toBe(200)
		expect(body.status).toBe('ok')
		const user = body.data.user
		expectShape(user, {
			id: DEMO_PRESETS.luna.pk,
			username: 'luna.explorer',
			is_private: false,
			is_verified: true,
			is_business_account: true,
			business_email: 'luna.explorer@example.com'
		})
		expect(user.edge_followed_by.count).toBeGreaterThan(200)
		expect(user.edge_owner_to_timeline_media.count).toBe(120)
		expect(user.edge_owner_to_timeline_media.edges).toHaveLength(12)
		expectShape(user.edge_owner_to_timeline_media.page_info, { has_next_page: true })
		expect(user.biography).toMatch(/@smkit_demo/)
		expect(user.biography).toMatch(/#travel/)
		expect(user.biography).toMatch(/https:\/\//)
		expect(user.biography_with_entities.entities).toEqual([
			{ user: { username: 'smkit_demo' } },
			{ hashtag: { name: 'travel' } }
		])
		expectShape(user.bio_links[0], { title: 'Travel guides', link_type: 'external' })
		const node = user.edge_owner_to_timeline_media.edges[0].node
		expectShape(node, {
			__typename: expect.stringMatching(/^Graph(Image|Video|Sidecar)$/),
			shortcode: expect.any(String)
		})
		expect(typeof node.id).toBe('string')
		expect(node.edge_liked_by.count).toBeGreaterThanOrEqual(0)
	})

	it('hides the posts of a private account but keeps its counts', async () => {
		const { body } = await anonymousProfile('private.pat')
		expect(body.data.user.is_private).toBe(true)
		expect(body.data.user.edge_owner_to_timeline_media.count).toBe(18)
		expect(body.data.user.edge_owner_to_timeline_media.edges).toEqual([])
	})

	it('carries the hostile payloads of xss.payload verbatim', async () => {
		const { body } = await anonymousProfile('xss.payload')
		expect(body.data.user.full_name).toBe(XSS_PAYLOADS.imgOnerror)
		expect(body.data.user.biography).toContain(XSS_PAYLOADS.script)
		expect(body.data.user.external_url).toBe(XSS_PAYLOADS.javascriptUrl)
	})

	it('answers 404 User not found for an unknown username and 400 without one', async () => {
		expectShape(await anonymousProfile(DEMO_PRESETS.missing.username), {
			status: 404,
			body: { message: 'User not found', status: 'fail' }
		})
		expect((await readBody(await fetch(`${simulator.url}/api/v1/users/web_profile_info/`))).status).toBe(400)
	})

	it('adds viewer relations when logged in', async () => {
		const { body } = await getJson(simulator, '/api/v1/users/web_profile_info/?username=luna.explorer')
		expect(body.data.user.followed_by_viewer).toBe(true)
		expect(body.data.user.edge_mutual_followed_by.count).toBeGreaterThan(0)
	})
})

describe('GET /api/v1/users/{pk}/info/', () => {
	it('answers the REST profile with counts and contact fields', async () => {
		const { status, body } = await getJson(simulator, `/api/v1/users/${DEMO_PRESETS.luna.pk}/info/`)
		expect(status).toBe(200)
		expectShape(body.user, {
			pk: DEMO_PRESETS.luna.pk,
			username: 'luna.explorer',
			follower_count: expect.any(Number),
			following_count: expect.any(Number),
			media_count: 120,
			public_email: 'luna.explorer@example.com',
			public_phone_country_code: '1',
			is_active_on_text_post_app: true,
			hd_profile_pic_url_info: { url: expect.stringContaining('/__sim/img/') }
		})
		expect(body.user.follower_count).toBeGreaterThan(200)
	})

	it('answers 404 User not found for an unknown pk', async () => {
		expectShape(await getJson(simulator, `/api/v1/users/${DEMO_PRESETS.missing.pk}/info/`), {
			status: 404,
			body: { message: 'User not found', status: 'fail' }
		})
	})
})

describe('GET /api/v1/users/search/', () => {
	it('finds accounts by username prefix', async () => {
		const { body } = await getJson(simulator, '/api/v1/users/search/?q=luna')
		expect(body.users[0].username).toBe('luna.explorer')
		expect(body.num_results).toBe(body.users.length)
	})
})
