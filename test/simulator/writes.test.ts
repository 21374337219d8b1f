import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, postJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
let other: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
	other = await startTestSimulator()
})
afterAll(async () => {
	await simulator.stop()
	await other.stop()
})

const photo = DEMO_PRESETS.media[0]
const info = async (target: Simulator) =>
	(await getJson(target, `/api/v1/media/${photo.pk}/info/`)).body.items[0]

describe('like and unlike', () => {
	it('likes a post: has_liked, like_count, likers and the liked feed change', async () => {
		const before = await info(simulator)
		expect(before.has_liked).toBe(false)
		expect((await postJson(simulator, `/api/v1/media/${photo.pk}/like/`)).body).toEqual({ status: 'ok' })
		const after = await info(simulator)
		expect(after.has_liked).toBe(true)
		expect(after.like_count).toBe(before.like_count + 1)
		const likers = (await getJson(simulator, `/api/v1/media/${photo.pk}/likers/`)).body.users
		expect(likers[0].pk).toBe(DEMO_PRESETS.viewer.pk)
		const liked = (await getJson(simulator, '/api/v1/feed/liked/')).body.items
		expect(liked[0].pk).toBe(photo.pk)
	})

	it('unlikes it through the web path', async () => {
		const before = await info(simulator)
		await postJson(simulator, `/api/v1/web/likes/${photo.pk}/unlike/`)
		const after = await info(simulator)
		expect(after.has_liked).toBe(false)
		expect(after.like_count).toBe(before.like_count - 1)
	})

	it('answers 404 for liking unknown media', async () => {
		expect((await postJson(simulator, `/api/v1/media/${DEMO_PRESETS.missing.mediaPk}/like/`)).status).toBe(
			404
		)
	})
})

describe('comment', () => {
	it('adds the comment first, counts it and returns it', async () => {
		const before = await info(simulator)
		const { status, body } = await postJson(simulator, `/api/v1/media/${photo.pk}/comment/`, {
			comment_text: 'Lovely light!'
		})
		expect(status).toBe(200)
		expect(body.comment).toMatchObject({ text: 'Lovely light!', user: { username: 'smkit_demo' } })
		expect((await info(simulator)).comment_count).toBe(before.comment_count + 1)
		const comments = (await getJson(simulator, `/api/v1/media/${photo.pk}/comments/`)).body.comments
		expect(comments[0]).toMatchObject({ pk: body.comment.pk, text: 'Lovely light!' })
	})

	it('answers the web comment shape and refuses empty text', async () => {
		const web = await postJson(simulator, `/api/v1/web/comments/${photo.pk}/add/`, {
			comment_text: 'Second one'
		})
		expect(web.body).toMatchObject({ text: 'Second one', from: { username: 'smkit_demo' }, status: 'ok' })
		expect(
			(await postJson(simulator, `/api/v1/media/${photo.pk}/comment/`, { comment_text: '   ' })).status
		).toBe(400)
	})
})

describe('text limits count characters (code points), not UTF-16 units', () => {
	it('takes a comment of 2200 emoji and refuses 2201', async () => {
		const emoji = '\u{1F600}'
		const fits = await postJson(simulator, `/api/v1/media/${photo.pk}/comment/`, {
			comment_text: emoji.repeat(2200)
		})
		expect(fits.status).toBe(200)
		const over = await postJson(simulator, `/api/v1/media/${photo.pk}/comment/`, {
			comment_text: emoji.repeat(2201)
		})
		expect(over.status).toBe(400)
		expect(over.body.message).toBe('Comment is too long')
	})

	it('takes a direct message of 2000 emoji and refuses 2001', async () => {
		const emoji = '\u{1F600}'
		const send = (text: string) =>
			postJson(simulator, '/api/v1/direct_v2/threads/broadcast/text/', {
				recipient_users: `[["${DEMO_PRESETS.luna.pk}"]]`,
				text
			})
		expect((await send(emoji.repeat(2000))).status).toBe(200)
		const over = await send(emoji.repeat(2001))
		expect(over.status).toBe(400)
		expect(over.body.message).toBe('Message is too long')
	})
})

describe('follow and unfollow', () => {
	const target = () =>
		simulator.state.data.users.find(
			(user) => !user.isPrivate && user.pk !== DEMO_PRESETS.viewer.pk && !simulator.state.isFollowing(user.pk)
		)!

	it('follows a public account at once: status, lists and counts change', async () => {
		const user = target()
		const beforeCount = (await getJson(simulator, `/api/v1/users/${user.pk}/info/`)).body.user.follower_count
		const { body } = await postJson(simulator, `/api/v1/friendships/create/${user.pk}/`)
		expect(body.friendship_status).toMatchObject({ following: true, outgoing_request: false })
		expect(body.previous_following).toBe(false)
		expect((await getJson(simulator, `/api/v1/users/${user.pk}/info/`)).body.user.follower_count).toBe(
			beforeCount + 1
		)
		const followers = (await getJson(simulator, `/api/v1/friendships/${user.pk}/followers/`)).body.users
		expect(followers[0].pk).toBe(DEMO_PRESETS.viewer.pk)
		const following = (await getJson(simulator, `/api/v1/friendships/${DEMO_PRESETS.viewer.pk}/following/`))
			.body.users
		expect(following[0].pk).toBe(user.pk)
		await postJson(simulator, `/api/v1/friendships/destroy/${user.pk}/`)
		expect((await getJson(simulator, `/api/v1/friendships/show/${user.pk}/`)).body.following).toBe(false)
		expect((await getJson(simulator, `/api/v1/users/${user.pk}/info/`)).body.user.follower_count).toBe(
			beforeCount
		)
	})

	it('sends a request to a private account instead, and its posts stay hidden', async () => {
		const { body } = await postJson(
			simulator,
			`/api/v1/web/friendships/${DEMO_PRESETS.privateAccount.pk}/follow/`
		)
		expect(body).toEqual({ result: 'requested', status: 'ok' })
		const status = (await getJson(simulator, `/api/v1/friendships/show/${DEMO_PRESETS.privateAccount.pk}/`))
			.body
		expect(status).toMatchObject({ following: false, outgoing_request: true })
		expect((await getJson(simulator, `/api/v1/feed/user/${DEMO_PRESETS.privateAccount.pk}/`)).status).toBe(
			400
		)
		await postJson(simulator, `/api/v1/web/friendships/${DEMO_PRESETS.privateAccount.pk}/unfollow/`)
		expect(
			(await getJson(simulator, `/api/v1/friendships/show/${DEMO_PRESETS.privateAccount.pk}/`)).body
				.outgoing_request
		).toBe(false)
	})

	it('refuses to follow yourself or an unknown account', async () => {
		expect((await postJson(simulator, `/api/v1/friendships/create/${DEMO_PRESETS.viewer.pk}/`)).status).toBe(
			400
		)
		expect((await postJson(simulator, `/api/v1/friendships/create/${DEMO_PRESETS.missing.pk}/`)).status).toBe(
			404
		)
	})
})

describe('isolation', () => {
	it('keeps one simulator’s writes out of another with the same seed', async () => {
		await postJson(simulator, `/api/v1/media/${photo.pk}/like/`)
		await postJson(simulator, `/api/v1/media/${photo.pk}/comment/`, { comment_text: 'only here' })
		expect((await info(simulator)).has_liked).toBe(true)
		const elsewhere = await info(other)
		expect(elsewhere.has_liked).toBe(false)
		const comments = (await getJson(other, `/api/v1/media/${photo.pk}/comments/`)).body.comments
		expect(comments.map((comment: { text: string }) => comment.text)).not.toContain('only here')
		expect(other.state.data).toBe(simulator.state.data) // the read-only data set is shared
	})
})
