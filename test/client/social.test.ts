import { describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import {
	Activity,
	DirectThread,
	FriendshipStatus,
	Highlight,
	Notification,
	ReelTrayItem,
	Story,
	User
} from '../../src/client/types'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()

describe('ig.stories against the simulator', () => {
	it('lists active stories, highlights and the tray', async () => {
		const ig = context.client()
		const stories = await ig.stories.getUserStories(DEMO.luna.pk)
		expect(stories.items.length).toBeGreaterThan(0)
		for (const story of stories.items) expect(Value.Check(Story, story)).toBe(true)
		expect(stories.items[0]?.user?.username).toBe('luna.explorer')
		const highlights = await ig.stories.getHighlights(DEMO.luna.pk)
		expect(highlights.items.length).toBeGreaterThan(0)
		expect(Value.Check(Highlight, highlights.items[0])).toBe(true)
		expect(highlights.items[0]?.id).toBe(`highlight:${highlights.items[0]?.pk}`)
		const tray = await ig.stories.getTray()
		expect(tray.items.length).toBeGreaterThan(0)
		expect(Value.Check(ReelTrayItem, tray.items[0])).toBe(true)
	})
})

describe('ig.friendships against the simulator', () => {
	it('pages followers while next_max_id is present (has_more stays false) up to count', async () => {
		const ig = context.client()
		const user = await ig.users.getByUsername('luna.explorer')
		const first = await ig.friendships.getFollowers(DEMO.luna.pk)
		expect(first.items.length).toBe(50)
		expect(first.next_cursor).not.toBeNull()
		const all = await ig.friendships.getFollowers(DEMO.luna.pk, { count: 1000 })
		expect(all.items.length).toBe(user.follower_count)
		expect(new Set(all.items.map((follower) => follower.pk)).size).toBe(user.follower_count)
		expect(all.next_cursor).toBeNull()
		expect((await ig.friendships.getFollowers(DEMO.luna.pk, { count: 120 })).items.length).toBe(120)
	})

	it('lists following, mutual followers and pending requests', async () => {
		const ig = context.client()
		expect((await ig.friendships.getFollowing(DEMO.luna.pk)).items.length).toBeGreaterThan(0)
		expect((await ig.friendships.getMutualFollowers(DEMO.luna.pk)).items.length).toBeGreaterThan(0)
		expect((await ig.friendships.getPendingRequests()).items.length).toBeGreaterThan(0)
	})

	it('reads the relationship, follows and unfollows', async () => {
		const ig = context.client()
		const status = await ig.friendships.getStatus(DEMO.pat.pk)
		expect(Value.Check(FriendshipStatus, status)).toBe(true)
		expect(status).toMatchObject({ user_pk: DEMO.pat.pk, following: false, is_private: true })
		expect((await ig.friendships.follow(DEMO.pat.pk)).outgoing_request).toBe(true)
		expect(context.sim.state.hasOutgoingRequest(DEMO.pat.pk)).toBe(true)
		expect((await ig.friendships.unfollow(DEMO.pat.pk)).outgoing_request).toBe(false)
		expect(context.sim.state.hasOutgoingRequest(DEMO.pat.pk)).toBe(false)
	})

	it('says private_account for the followers of a private account', async () => {
		expect((await failure(context.client().friendships.getFollowers(DEMO.pat.pk))).kind).toBe(
			'private_account'
		)
	})
})

describe('ig.account against the simulator', () => {
	it('gets the current user and the account pages', async () => {
		const ig = context.client()
		const me = await ig.account.getCurrentUser()
		expect(Value.Check(User, me)).toBe(true)
		expect(me).toMatchObject({ pk: DEMO.viewerPk, username: 'smkit_demo' })
		expect((await ig.account.getAccountInfo()).status).toBeUndefined()
		expect((await ig.account.getBlockedUsers()).items[0]?.pk).toMatch(/^\d+$/)
		expect((await ig.account.getRestrictedUsers()).items.length).toBeGreaterThan(0)
		expect(Object.keys(await ig.account.getLoginActivity()).length).toBeGreaterThan(0)
		expect(Object.keys(await ig.account.getPrivacySettings()).length).toBeGreaterThan(0)
	})

	it('falls back to /users/{ds_user_id}/info/ when current_user fails', async () => {
		context.sim.faults.set({ kind: 'server_error', pathPattern: 'current_user' })
		try {
			const me = await context.client({ maxRetries: 0 }).account.getCurrentUser()
			expect(me.username).toBe('smkit_demo')
		} finally {
			context.sim.faults.clear()
		}
	})
})

describe('ig.notifications against the simulator', () => {
	it('reads the activity inbox, counts and filtered lists', async () => {
		const ig = context.client()
		const activity = await ig.notifications.getActivity()
		expect(Value.Check(Activity, activity)).toBe(true)
		const counts = await ig.notifications.getCounts()
		expect(typeof counts.likes).toBe('number')
		const parsed = await ig.notifications.getParsed()
		expect(parsed.items.length).toBe(activity.new_stories.length + activity.old_stories.length)
		for (const item of parsed.items) expect(Value.Check(Notification, item)).toBe(true)
		const follows = await ig.notifications.getFollowNotifications()
		expect(follows.items.length).toBeGreaterThan(0)
		expect(follows.items.every((item) => item.notif_name === 'user_followed')).toBe(true)
		const likes = await ig.notifications.getLikeNotifications()
		expect(likes.items.length).toBeGreaterThan(0)
		expect(likes.items.every((item) => ['like', 'comment_like'].includes(item.notif_name))).toBe(true)
	})
})

describe('ig.direct against the simulator', () => {
	it('pages the inbox with oldest_cursor', async () => {
		const ig = context.client()
		const first = await ig.direct.getInbox()
		expect(first.items.length).toBeGreaterThan(0)
		expect(Value.Check(DirectThread, first.items[0])).toBe(true)
		expect(first.next_cursor).not.toBeNull()
		const next = await ig.direct.getInbox({ cursor: first.next_cursor })
		expect(next.items.length).toBeGreaterThan(0)
		expect(first.items.map((thread) => thread.thread_id)).not.toContain(next.items[0]?.thread_id as string)
	})

	it('sends a text and the thread shows it', async () => {
		const ig = context.client()
		const sent = await ig.direct.sendText(DEMO.luna.pk, 'Hello from the client test')
		expect(sent.thread_id).toMatch(/^\d+$/)
		const thread = context.sim.state.thread(sent.thread_id)
		expect(thread?.messages.at(-1)?.text).toBe('Hello from the client test')
	})
})
