import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { expectShape, getJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

describe('GET /api/v1/feed/user/{pk}/', () => {
	it('pages with next_max_id (the last item id) to the end, newest first, without duplicates', async () => {
		const pks: string[] = []
		let maxId: string | undefined
		let pages = 0
		do {
			const query = maxId ? `&max_id=${encodeURIComponent(maxId)}` : ''
			const { status, body } = await getJson(
				simulator,
				`/api/v1/feed/user/${DEMO_PRESETS.luna.pk}/?count=25${query}`
			)
			expect(status).toBe(200)
			expect(body.num_results).toBe(body.items.length)
			expect(body.more_available).toBe(body.next_max_id !== undefined)
			if (body.next_max_id) expect(body.next_max_id).toBe(body.items.at(-1).id)
			pks.push(...body.items.map((item: { pk: string }) => item.pk))
			maxId = body.next_max_id
			pages++
		} while (maxId && pages < 20)
		expect(pages).toBe(5)
		expect(pks).toHaveLength(120)
		expect(new Set(pks).size).toBe(120)
		const sorted = [...pks].sort((left, right) => (BigInt(right) > BigInt(left) ? 1 : -1))
		expect(pks).toEqual(sorted)
		expect(pks).toContain(DEMO_PRESETS.media[0].pk)
	})

	it('defaults to 12 items and names the owner', async () => {
		const { body } = await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.luna.pk}/`)
		expect(body.items).toHaveLength(12)
		expect(body.user.username).toBe('luna.explorer')
	})

	it('refuses a private account the viewer does not follow, but shows the viewer their own', async () => {
		const hidden = await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.privateAccount.pk}/`)
		expect(hidden).toEqual({
			status: 400,
			body: { message: 'Not authorized to view user', status: 'fail' },
			text: expect.any(String)
		})
		expect(
			(await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.viewer.pk}/`)).body.items
		).toHaveLength(12)
		expect((await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.missing.pk}/`)).status).toBe(404)
	})
})

describe('GET /api/v1/feed/tag/{tag}/', () => {
	it('pages through public posts carrying the hashtag, nested in sections', async () => {
		const medias = (body: { sections: { layout_content: { medias: { media: any }[] } }[] }) =>
			body.sections.flatMap((section) => section.layout_content.medias.map((entry) => entry.media))
		const first = await getJson(simulator, '/api/v1/feed/tag/sunset/')
		expect(first.status).toBe(200)
		expect(first.body.items).toBeUndefined()
		const firstPage = medias(first.body)
		expect(firstPage).toHaveLength(20)
		expect(first.body.more_available).toBe(true)
		for (const media of firstPage) expect(media.caption.text.toLowerCase()).toContain('#sunset')
		const cursor = encodeURIComponent(first.body.next_max_id)
		const second = await getJson(simulator, `/api/v1/feed/tag/sunset/?max_id=${cursor}`)
		const pks = [...firstPage, ...medias(second.body)].map((media) => media.pk)
		expect(new Set(pks).size).toBe(40)
	})

	it('answers an empty feed for a hashtag nobody used', async () => {
		const { body } = await getJson(simulator, '/api/v1/feed/tag/nosuchtagsmkit/')
		expectShape(body, { sections: [], more_available: false, status: 'ok' })
	})
})

describe('REST liked and saved feeds', () => {
	it('lists the liked posts with has_liked and the saved posts wrapped as {media}', async () => {
		const liked = await getJson(simulator, '/api/v1/feed/liked/')
		expect(liked.body.items.length).toBe(20)
		for (const item of liked.body.items) expect(item.has_liked).toBe(true)
		const saved = await getJson(simulator, '/api/v1/feed/saved/posts/')
		for (const entry of saved.body.items) expect(entry.media.has_viewer_saved).toBe(true)
	})
})
