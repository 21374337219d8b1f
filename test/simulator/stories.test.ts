import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, sessionGet, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

describe('GET /api/v1/feed/user/{pk}/story/', () => {
	it('answers an active reel whose story pks are exact bare numbers', async () => {
		const response = await sessionGet(simulator, `/api/v1/feed/user/${DEMO_PRESETS.luna.pk}/story/`)
		const text = await response.text()
		const stories = simulator.state.data.stories.get(DEMO_PRESETS.luna.pk) ?? []
		expect(stories.length).toBe(4)
		for (const story of stories) expect(text).toContain(`"pk":${story.pk},`)
		const { body } = await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.luna.pk}/story/`)
		const now = Date.now() / 1000
		expect(body.reel.user.username).toBe('luna.explorer')
		expect(body.reel.items).toHaveLength(4)
		for (const item of body.reel.items) {
			expect(item.expiring_at).toBeGreaterThan(now)
			expect(item.taken_at).toBeLessThan(now)
			expect(item.id).toBe(`${item.pk}_${DEMO_PRESETS.luna.pk}`)
			expect(item.image_versions2.candidates.length).toBeGreaterThan(0)
		}
		const stickers = body.reel.items.flatMap((item: Record<string, unknown[]>) => [
			...item.reel_mentions,
			...item.story_hashtags,
			...item.story_locations
		])
		expect(stickers.length).toBeGreaterThanOrEqual(3)
	})

	it('answers reel null for a private account the viewer does not follow', async () => {
		const { body } = await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.privateAccount.pk}/story/`)
		expect(body).toEqual({ reel: null, status: 'ok' })
	})
})

describe('highlights and the reels tray', () => {
	it('lists highlights with cover images', async () => {
		const { body } = await getJson(simulator, `/api/v1/highlights/${DEMO_PRESETS.luna.pk}/highlights_tray/`)
		expect(body.tray.map((highlight: { title: string }) => highlight.title)).toEqual([
			'Paris',
			'Lisbon',
			'Iceland',
			'Food',
			'Gear',
			'Q&A'
		])
		expect(body.tray[0].id).toMatch(/^highlight:\d+$/)
		expect(body.tray[0].cover_media.cropped_image_version.url).toContain('/__sim/img/')
	})

	it('puts the viewer first in the tray, then followed accounts with active stories', async () => {
		const { body } = await getJson(simulator, '/api/v1/feed/reels_tray/')
		expect(body.tray[0].user.username).toBe('smkit_demo')
		const ids = body.tray.map((reel: { id: string }) => reel.id)
		expect(ids).toContain(DEMO_PRESETS.luna.pk)
		expect(ids).not.toContain(DEMO_PRESETS.privateAccount.pk)
		expect(body.tray[1].items.length).toBeGreaterThan(0)
		expect(typeof body.story_ranking_token).toBe('string')
	})
})
