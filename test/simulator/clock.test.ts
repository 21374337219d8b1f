import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DATA_AS_OF, DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { SimulatorState } from '../../src/simulator/state'
import { getJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const luna = DEMO_PRESETS.luna.pk

const clockRequest = (method: string, body?: unknown) =>
	fetch(`${simulator.url}/__sim/clock`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	})

/** Every follower pk of an account, walked page by page as a client would. */
async function walkFollowers(pk: string, count = 37): Promise<string[]> {
	const pks: string[] = []
	let maxId: string | undefined
	for (let pages = 0; pages < 100; pages++) {
		const cursor = maxId ? `&max_id=${encodeURIComponent(maxId)}` : ''
		const { status, body } = await getJson(
			simulator,
			`/api/v1/friendships/${pk}/followers/?count=${count}${cursor}`
		)
		expect(status).toBe(200)
		pks.push(...body.users.map((user: { pk: string }) => user.pk))
		maxId = body.next_max_id
		if (!maxId) break
	}
	return pks
}

describe('the simulator clock', () => {
	it('starts at the data set time and refuses bad moves', async () => {
		const reading = await (await clockRequest('GET')).json()
		expect(reading).toEqual({
			hours: 0,
			now: DATA_AS_OF,
			iso: new Date(DATA_AS_OF * 1000).toISOString(),
			applied_hours: 0,
			status: 'ok'
		})
		for (const body of [
			{},
			{ advance_hours: -1 },
			{ advance_hours: 0 },
			{ advance_hours: '5' },
			{ advance_hours: 169 }
		]) {
			const response = await clockRequest('POST', body)
			expect(response.status).toBe(400)
			expect((await response.json()).status).toBe('fail')
		}
		expect((await clockRequest('PUT', {})).status).toBe(405)
	})

	it('moves followers and posts, and lists, counts and pages agree', async () => {
		const before = await walkFollowers(luna)
		const postsBefore = (await getJson(simulator, `/api/v1/users/${luna}/info/`)).body.user.media_count
		const moved = await (await clockRequest('POST', { advance_hours: 48 })).json()
		expect(moved).toMatchObject({ hours: 48, now: DATA_AS_OF + 48 * 3600, applied_hours: 48 })

		const after = await walkFollowers(luna)
		expect(new Set(after).size).toBe(after.length)
		expect(after).toEqual([...simulator.state.followersOf(luna)])
		const gained = after.filter((pk) => !before.includes(pk))
		const lost = before.filter((pk) => !after.includes(pk))
		expect(gained.length).toBeGreaterThan(0)
		expect(lost.length).toBeGreaterThan(0)
		// New followers come first, as Instagram lists them.
		expect(after.slice(0, gained.length).toSorted()).toEqual(gained.toSorted())

		const info = (await getJson(simulator, `/api/v1/users/${luna}/info/`)).body.user
		expect(info.follower_count).toBe(after.length)
		const web = await getJson(simulator, '/api/v1/users/web_profile_info/?username=luna.explorer')
		expect(web.body.data.user.edge_followed_by.count).toBe(after.length)
		// Another page size walks to the same list.
		expect(await walkFollowers(luna, 200)).toEqual(after)

		// A gained follower now lists luna among the accounts it follows; a lost one no longer does.
		for (const pk of gained.slice(0, 3)) expect(simulator.state.followingOf(pk)).toContain(luna)
		for (const pk of lost.slice(0, 3)) expect(simulator.state.followingOf(pk)).not.toContain(luna)

		const posts = simulator.state.postsOf(luna)
		expect(info.media_count).toBe(posts.length)
		expect(posts.length).toBeGreaterThanOrEqual(postsBefore)
		const published = simulator.state.allMedia().filter((media) => media.takenAt > DATA_AS_OF)
		expect(published.length).toBeGreaterThan(0)
		for (const media of published) expect(media.takenAt).toBeLessThanOrEqual(DATA_AS_OF + 48 * 3600)
		const newest = published.find((media) => !simulator.state.user(media.ownerPk)?.isPrivate)
		if (!newest) throw new Error('no public post published')
		const feed = await getJson(simulator, `/api/v1/feed/user/${newest.ownerPk}/?count=3`)
		expect(String(feed.body.items[0].pk)).toBe(String(newest.pk))
		const media = await getJson(simulator, `/api/v1/media/${newest.pk}/info/`)
		expect(media.body.items[0].code).toBe(newest.code)
	})

	it('gives the same world for a seed and a clock reading, however the clock moved', () => {
		const atOnce = new SimulatorState()
		atOnce.live.advance(30)
		const inSteps = new SimulatorState()
		inSteps.live.advance(0.5)
		inSteps.live.advance(9.5)
		inSteps.live.advance(20)
		expect(inSteps.live.reading()).toEqual(atOnce.live.reading())
		for (const user of atOnce.data.users.slice(0, 60)) {
			expect(inSteps.followersOf(user.pk)).toEqual(atOnce.followersOf(user.pk))
			expect(inSteps.followingOf(user.pk)).toEqual(atOnce.followingOf(user.pk))
			expect(inSteps.postsOf(user.pk).map((media) => media.pk)).toEqual(
				atOnce.postsOf(user.pk).map((media) => media.pk)
			)
		}
		// An untouched instance of the same seed still sees the data set as built.
		expect(new SimulatorState().followersOf(luna).length).toBe(263)
	})

	it('keeps every follower list and following list in step', () => {
		const state = new SimulatorState()
		state.live.advance(72)
		for (const user of state.data.users) {
			for (const follower of state.followersOf(user.pk)) {
				if (follower !== state.viewerPk) expect(state.followingOf(follower)).toContain(user.pk)
			}
		}
		for (const media of state.allMedia().slice(0, 50)) {
			expect(state.media(String(media.pk))).toBe(media)
			expect(state.mediaByCode(media.code)).toBe(media)
			for (const tag of media.hashtags) {
				if (!state.user(media.ownerPk)?.isPrivate) expect(state.postsTagged(tag)).toContain(media)
			}
		}
	})
})
