import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, sessionGet, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

describe('GET /api/v1/web/search/topsearch/', () => {
	it('blends users, hashtags and places with positions', async () => {
		const { body } = await getJson(simulator, '/api/v1/web/search/topsearch/?query=paris&context=blended')
		expect(body.places.length).toBeGreaterThan(3)
		expect(body.places[0].place.location).toHaveProperty('pk')
		expect(body.hashtags.map((entry: { hashtag: { name: string } }) => entry.hashtag.name)).toContain('paris')
		const positions = [...body.users, ...body.hashtags, ...body.places].map(
			(entry: { position: number }) => entry.position
		)
		expect(new Set(positions).size).toBe(positions.length)
	})

	it('answers only users for context=user, best match first', async () => {
		const { body } = await getJson(
			simulator,
			'/api/v1/web/search/topsearch/?query=luna.explorer&context=user'
		)
		expect(body.users[0].user.username).toBe('luna.explorer')
		expect(body.hashtags).toEqual([])
		expect(body.places).toEqual([])
	})

	it('writes hashtag ids as bare 17-digit numbers', async () => {
		const text = await (await sessionGet(simulator, '/api/v1/web/search/topsearch/?query=sunset')).text()
		const id = simulator.state.data.hashtags.get('sunset')?.id
		expect(text).toContain(`"id":${id},`)
		expect(String(id)).toHaveLength(17)
	})
})

describe('hashtags, places and explore', () => {
	it('searches hashtags with media counts', async () => {
		const { body } = await getJson(simulator, '/api/v1/tags/search/?q=coff')
		expect(body.results[0]).toMatchObject({
			name: 'coffee',
			search_result_subtitle: expect.stringMatching(/posts$/)
		})
		expect(body.results[0].media_count).toBeGreaterThan(100)
	})

	it('finds places for paris', async () => {
		const { body } = await getJson(simulator, `/api/v1/fbsearch/places/?query=${DEMO_PRESETS.placeQuery}`)
		expect(body.items.length).toBeGreaterThanOrEqual(5)
		for (const item of body.items) expect(item.location.city).toBe('Paris, France')
	})

	it('answers hashtag info, 404 for an unknown hashtag', async () => {
		const { body } = await getJson(simulator, '/api/v1/tags/travel/info/')
		expect(body.name).toBe('travel')
		expect(body.media_count).toBe(simulator.state.data.mediaByTag.get('travel')?.length)
		expect((await getJson(simulator, '/api/v1/tags/nosuchtagsmkit/info/')).status).toBe(404)
	})

	it('pages the explore grid with max_id', async () => {
		const first = await getJson(simulator, '/api/v1/discover/topical_explore/')
		const medias = first.body.sectional_items.flatMap(
			(section: { layout_content: { medias: unknown[] } }) => section.layout_content.medias
		)
		expect(medias).toHaveLength(24)
		expect(first.body.more_available).toBe(true)
		const second = await getJson(
			simulator,
			`/api/v1/discover/topical_explore/?max_id=${encodeURIComponent(first.body.next_max_id)}`
		)
		expect(second.body.sectional_items[0].layout_content.medias[0].media.pk).not.toBe(medias[0].media.pk)
	})
})
