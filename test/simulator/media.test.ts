import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS, XSS_PAYLOADS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { encodeShortcode } from '../../src/simulator/shortcode'
import { expectShape, getJson, readBody, sessionGet, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const [photo, reel, carousel] = DEMO_PRESETS.media

describe('GET /api/v1/media/{pk}/info/', () => {
	it('sends the pk as a bare JSON number with every digit', async () => {
		const response = await sessionGet(simulator, `/api/v1/media/${photo.pk}/info/`)
		const text = await response.text()
		expect(text).toContain(`"pk":${photo.pk},`)
		expect(text).toContain(`"id":"${photo.pk}_${DEMO_PRESETS.luna.pk}"`)
		// JSON.parse would round it: the digits differ after a plain parse.
		expect(String(JSON.parse(text).items[0].pk)).not.toBe(photo.pk)
	})

	it('answers items[0] with the documented keys', async () => {
		const { status, body } = await getJson(simulator, `/api/v1/media/${photo.pk}/info/`)
		expect(status).toBe(200)
		expectShape(body, { num_results: 1, more_available: false, status: 'ok' })
		const item = body.items[0]
		expectShape(item, {
			pk: photo.pk,
			code: 'DVUVYxwAOOz',
			media_type: 1,
			product_type: 'feed',
			taken_at: expect.any(Number),
			like_count: expect.any(Number),
			comment_count: expect.any(Number),
			caption: { text: expect.stringContaining('#sunset'), pk: expect.any(String) },
			user: { pk: DEMO_PRESETS.luna.pk, username: 'luna.explorer' },
			has_liked: false,
			image_versions2: { candidates: expect.any(Array) }
		})
		expectShape(item.image_versions2.candidates[0], { width: expect.any(Number), url: expect.any(String) })
		expectShape(item.location, { name: expect.any(String), lat: expect.any(Number) })
	})

	it('describes the reel and the carousel presets', async () => {
		const reelItem = (await getJson(simulator, `/api/v1/media/${reel.pk}/info/`)).body.items[0]
		expectShape(reelItem, { media_type: 2, product_type: 'clips', has_liked: true })
		expect(reelItem.video_versions.length).toBeGreaterThan(0)
		expect(reelItem.music_metadata.music_info.music_asset_info.title).toEqual(expect.any(String))
		const carouselItem = (await getJson(simulator, `/api/v1/media/${carousel.pk}/info/`)).body.items[0]
		expect(carouselItem.media_type).toBe(8)
		expect(carouselItem.carousel_media).toHaveLength(carouselItem.carousel_media_count)
		expect(typeof carouselItem.carousel_media[0].pk).toBe('string')
	})

	it('accepts the "<pk>_<owner>" id form', async () => {
		expect(
			(await sessionGet(simulator, `/api/v1/media/${photo.pk}_${DEMO_PRESETS.luna.pk}/info/`)).status
		).toBe(200)
	})

	it('answers 404 for unknown media and for posts of a private account the viewer does not follow', async () => {
		const missing = await getJson(simulator, `/api/v1/media/${DEMO_PRESETS.missing.mediaPk}/info/`)
		expectShape(missing, { status: 404, body: { message: 'Media not found or unavailable', status: 'fail' } })
		const hidden = simulator.state.data.mediaByOwner.get(DEMO_PRESETS.privateAccount.pk)?.[0]
		expect((await sessionGet(simulator, `/api/v1/media/${hidden?.pk}/info/`)).status).toBe(404)
	})

	it('uses the real shortcode encoding for every post', () => {
		for (const media of simulator.state.data.media.slice(0, 200))
			expect(media.code).toBe(encodeShortcode(media.pk))
	})
})

describe('GET /api/v1/media/{pk}/likers/', () => {
	it('lists as many distinct likers as like_count', async () => {
		const { body } = await getJson(simulator, `/api/v1/media/${reel.pk}/likers/`)
		const info = (await getJson(simulator, `/api/v1/media/${reel.pk}/info/`)).body.items[0]
		expect(body.user_count).toBe(info.like_count)
		expect(new Set(body.users.map((user: { pk: string }) => user.pk)).size).toBe(body.users.length)
		expectShape(body.users[0], { pk: DEMO_PRESETS.viewer.pk }) // the viewer liked the reel preset
	})
})

describe('GET /api/v1/media/{pk}/comments/', () => {
	it('pages with next_min_id to the end without duplicates', async () => {
		const seen: string[] = []
		let cursor: string | undefined
		let pages = 0
		let total = 0
		do {
			const query = cursor ? `&min_id=${encodeURIComponent(cursor)}` : ''
			const { status, body } = await getJson(
				simulator,
				`/api/v1/media/${photo.pk}/comments/?can_support_threading=true&permalink_enabled=false${query}`
			)
			expect(status).toBe(200)
			total = body.comment_count
			seen.push(...body.comments.map((comment: { pk: string }) => comment.pk))
			expect(body.has_more_comments).toBe(body.next_min_id !== undefined)
			cursor = body.next_min_id
			pages++
		} while (cursor && pages < 20)
		const media = simulator.state.media(photo.pk)
		expect(pages).toBeGreaterThan(1)
		expect(new Set(seen).size).toBe(seen.length)
		expect(seen.length).toBe(media?.topLevelCommentCount ?? -1)
		expect(total).toBe((media?.topLevelCommentCount ?? 0) + (media?.replyCount ?? 0))
	})

	it("puts the hostile comment of xss.payload first on its own first post, not on luna.explorer's", async () => {
		const hostile = await getJson(simulator, `/api/v1/media/${DEMO_PRESETS.xssMediaPks[0]}/comments/`)
		expectShape(hostile.body.comments[0], {
			user: { username: 'xss.payload' },
			text: expect.stringContaining(XSS_PAYLOADS.imgOnerror)
		})
		const { body } = await getJson(simulator, `/api/v1/media/${photo.pk}/comments/`)
		expect(JSON.stringify(body.comments)).not.toContain(XSS_PAYLOADS.imgOnerror)
		const withReplies = body.comments.find(
			(comment: { child_comment_count: number }) => comment.child_comment_count > 0
		)
		if (withReplies) expect(withReplies.preview_child_comments.length).toBeGreaterThan(0)
		expect(body.comments[0]).toHaveProperty('comment_like_count')
		expect(body.comments[0]).toHaveProperty('is_ranked_comment')
	})

	it('refuses a foreign cursor', async () => {
		const { status } = await readBody(
			await sessionGet(simulator, `/api/v1/media/${photo.pk}/comments/?min_id=garbage`)
		)
		expect(status).toBe(400)
	})
})
