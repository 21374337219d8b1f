import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, postJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

describe('POST /api/v1/news/inbox/', () => {
	it('answers counts, new and old stories with the story types of each kind', async () => {
		const { status, body } = await postJson(simulator, '/api/v1/news/inbox/')
		expect(status).toBe(200)
		expect(body.new_stories).toHaveLength(6)
		// Pages of 11 (new ones first): the rest of the first page is old ones.
		expect(body.old_stories).toHaveLength(5)
		expect(body.is_last_page).toBe(false)
		const all = [...body.new_stories, ...body.old_stories]
		const kinds = new Map(
			all.map((story: { notif_name: string; story_type: number }) => [story.notif_name, story.story_type])
		)
		expect(Object.fromEntries(kinds)).toEqual({ user_followed: 101, like: 60, comment_like: 13, comment: 12 })
		for (const key of [
			'likes',
			'comments',
			'comment_likes',
			'relationships',
			'requests',
			'activity_feed_dot_badge'
		]) {
			expect(typeof body.counts[key]).toBe('number')
		}
		const follow = all.find((story: { notif_name: string }) => story.notif_name === 'user_followed')
		expect(follow.args.inline_follow.user_info.username).toBe(follow.args.profile_name)
		const like = all.find((story: { notif_name: string }) => story.notif_name === 'like')
		expect(like.args.media[0].shortcode).toEqual(expect.any(String))
		expect(body.partition.time_bucket.headers).toHaveLength(4)
	})

	it('pages with continuation_token until is_last_page, every notification once', async () => {
		const pks: string[] = []
		let token: string | undefined
		for (let page = 0; page < 20; page++) {
			const { body } = await postJson(
				simulator,
				'/api/v1/news/inbox/',
				token ? { continuation_token: token } : {}
			)
			if (page > 0) expect(body.new_stories).toHaveLength(0)
			expect(body.new_stories.length + body.old_stories.length).toBeLessThanOrEqual(11)
			pks.push(...[...body.new_stories, ...body.old_stories].map((story: { pk: string }) => story.pk))
			if (body.is_last_page) break
			token = body.continuation_token
		}
		expect(pks).toEqual(simulator.state.data.viewer.notifications.map((notification) => notification.pk))
		const bad = await postJson(simulator, '/api/v1/news/inbox/', { continuation_token: 'nonsense' })
		expect(bad.status).toBe(400)
	})
})

describe('GET /api/v1/direct_v2/inbox/', () => {
	it('pages threads with oldest_cursor, most recent activity first', async () => {
		const first = await getJson(simulator, '/api/v1/direct_v2/inbox/?limit=20')
		expect(first.body.viewer.username).toBe('smkit_demo')
		const threads = first.body.inbox.threads
		expect(threads).toHaveLength(20)
		expect(first.body.inbox.has_older).toBe(true)
		const activity = threads.map((thread: { last_activity_at: number }) => thread.last_activity_at)
		expect(activity).toEqual([...activity].sort((left, right) => right - left))
		expect(threads[0].items[0]).toMatchObject({ item_type: 'text', item_id: expect.any(String) })
		const second = await getJson(
			simulator,
			`/api/v1/direct_v2/inbox/?limit=20&cursor=${encodeURIComponent(first.body.inbox.oldest_cursor)}`
		)
		const ids = [...threads, ...second.body.inbox.threads].map(
			(thread: { thread_id: string }) => thread.thread_id
		)
		expect(new Set(ids).size).toBe(36)
		expect(second.body.inbox.has_older).toBe(false)
	})

	it('sends a text with recipient_users and shows it at the top of the inbox', async () => {
		const sent = await postJson(simulator, '/api/v1/direct_v2/threads/broadcast/text/', {
			recipient_users: `[["${DEMO_PRESETS.luna.pk}"]]`,
			text: 'Hello from the test',
			action: 'send_item'
		})
		expect(sent.status).toBe(200)
		expect(sent.body).toMatchObject({ action: 'item_ack', status: 'ok' })
		const { body } = await getJson(simulator, '/api/v1/direct_v2/inbox/')
		const top = body.inbox.threads[0]
		expect(top.thread_id).toBe(sent.body.payload.thread_id)
		expect(top.users[0].pk).toBe(DEMO_PRESETS.luna.pk)
		expect(top.items[0]).toMatchObject({ text: 'Hello from the test', user_id: DEMO_PRESETS.viewer.pk })
	})

	it('opens a new thread for a first message and rejects bad recipients', async () => {
		const stranger = simulator.state.data.graph.blocked[0] as string
		const sent = await postJson(simulator, '/api/v1/direct_v2/threads/broadcast/text/', {
			recipient_users: `[[${stranger}]]`,
			text: 'hi'
		})
		expect(simulator.state.thread(sent.body.payload.thread_id)?.userPks).toEqual([stranger])
		expect(
			(
				await postJson(simulator, '/api/v1/direct_v2/threads/broadcast/text/', {
					recipient_users: 'nope',
					text: 'x'
				})
			).status
		).toBe(400)
		expect(
			(
				await postJson(simulator, '/api/v1/direct_v2/threads/broadcast/text/', {
					recipient_users: `[["${DEMO_PRESETS.luna.pk}"]]`
				})
			).status
		).toBe(400)
	})
})

describe('activity times', () => {
	it('keeps notifications and direct messages recent relative to now', async () => {
		const now = Date.now() / 1000
		const news = (await postJson(simulator, '/api/v1/news/inbox/')).body
		const newest = news.new_stories[0].args.timestamp
		expect(newest).toBeLessThanOrEqual(now + 1)
		expect(newest).toBeGreaterThan(now - 86400)
		const inbox = (await getJson(simulator, '/api/v1/direct_v2/inbox/')).body
		for (const thread of inbox.inbox.threads)
			expect(thread.last_activity_at / 1e6).toBeLessThanOrEqual(now + 1)
		// The fourth thread is seeded data (a test above only wrote to one thread).
		expect(inbox.inbox.threads[3].last_activity_at / 1e6).toBeGreaterThan(now - 30 * 86400)
	})
})
