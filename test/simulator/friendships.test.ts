import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

async function pageAll(path: string, count: number) {
	const pks: string[] = []
	let maxId: string | undefined
	let pages = 0
	do {
		const query = `count=${count}${maxId ? `&max_id=${encodeURIComponent(maxId)}` : ''}`
		const { status, body } = await getJson(simulator, `${path}?${query}`)
		expect(status).toBe(200)
		expect(body.has_more).toBe(false) // Instagram's quirk: only next_max_id says there is more
		expect(body.big_list).toBe(body.next_max_id !== undefined)
		pks.push(...body.users.map((user: { pk: string }) => user.pk))
		maxId = body.next_max_id
		pages++
	} while (maxId && pages < 50)
	return { pks, pages }
}

describe('follower and following lists', () => {
	it('pages through all followers of luna.explorer with no duplicates', async () => {
		const { pks, pages } = await pageAll(`/api/v1/friendships/${DEMO_PRESETS.luna.pk}/followers/`, 50)
		expect(pks.length).toBeGreaterThan(200)
		expect(pages).toBe(Math.ceil(pks.length / 50))
		expect(new Set(pks).size).toBe(pks.length)
		expect(pks).toContain(DEMO_PRESETS.viewer.pk)
		const profile = await getJson(simulator, `/api/v1/users/${DEMO_PRESETS.luna.pk}/info/`)
		expect(pks.length).toBe(profile.body.user.follower_count)
	})

	it('pages through the following list with the default page size', async () => {
		const { pks } = await pageAll(`/api/v1/friendships/${DEMO_PRESETS.viewer.pk}/following/`, 25)
		expect(new Set(pks).size).toBe(pks.length)
		expect(pks).toContain(DEMO_PRESETS.luna.pk)
		expect(pks).not.toContain(DEMO_PRESETS.privateAccount.pk)
	})

	it('refuses the lists of a private account the viewer does not follow', async () => {
		const { status, body } = await getJson(
			simulator,
			`/api/v1/friendships/${DEMO_PRESETS.privateAccount.pk}/followers/`
		)
		expect({ status, body }).toEqual({
			status: 400,
			body: { message: 'Not authorized to view user', status: 'fail' }
		})
	})

	it('refuses a cursor of another list', async () => {
		const first = await getJson(simulator, `/api/v1/friendships/${DEMO_PRESETS.luna.pk}/followers/?count=10`)
		const foreign = await getJson(
			simulator,
			`/api/v1/friendships/${DEMO_PRESETS.luna.pk}/following/?max_id=${encodeURIComponent(first.body.next_max_id)}`
		)
		expect(foreign.status).toBe(400)
	})

	it('lists mutual followers: followers of the target whom the viewer follows', async () => {
		const { body } = await getJson(
			simulator,
			`/api/v1/friendships/${DEMO_PRESETS.luna.pk}/mutual_followers/?count=200`
		)
		expect(body.users.length).toBeGreaterThan(0)
		const following = new Set(simulator.state.followingOf(DEMO_PRESETS.viewer.pk))
		for (const user of body.users) expect(following.has(user.pk)).toBe(true)
	})
})

describe('GET /api/v1/friendships/show/{pk}/ and pending', () => {
	it('reports the relation keys', async () => {
		const luna = await getJson(simulator, `/api/v1/friendships/show/${DEMO_PRESETS.luna.pk}/`)
		expect(luna.body).toEqual({
			following: true,
			followed_by: true,
			blocking: false,
			muting: false,
			is_private: false,
			incoming_request: false,
			outgoing_request: false,
			is_bestie: true,
			is_restricted: false,
			is_feed_favorite: false,
			subscribed: false,
			is_eligible_to_subscribe: false,
			status: 'ok'
		})
		const pat = await getJson(simulator, `/api/v1/friendships/show/${DEMO_PRESETS.privateAccount.pk}/`)
		expect(pat.body.following).toBe(false)
		expect(pat.body.is_private).toBe(true)
	})

	it('lists the pending follow requests of the private viewer', async () => {
		const { body } = await getJson(simulator, '/api/v1/friendships/pending/')
		expect(body.users.length).toBe(8)
		expect(body.users[0]).toHaveProperty('username')
	})
})
