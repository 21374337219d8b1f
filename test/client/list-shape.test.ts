/**
 * A success answer of valid JSON without the list a list endpoint always sends (`{"status":"ok"}`,
 * `null`, `""`) is malformed, the same `upstream_error` as a body that is not JSON (which a job asks
 * again), never an empty page: read as one, it ended the walk of a list that had not ended. Checked
 * for every list method, against the simulator's `wrong_shape` fault; an empty list stays empty.
 */
import { describe, expect, it } from 'bun:test'
import type { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { DEMO, useSimulator } from './simulator-setup'

const context = useSimulator()

/** A list call: `prepare` runs before the fault (to find a cursor or a comment), `call` under it. */
interface ListCase {
	name: string
	/** The requests the fault answers. */
	paths: string[]
	call(ig: InstagramClient, prepared: unknown): Promise<unknown>
	prepare?(ig: InstagramClient): Promise<unknown>
}

const post = DEMO.posts[0][1]
const mega = DEMO_PRESETS.mega

const cases: ListCase[] = [
	{ name: 'followers', paths: ['/followers/'], call: (ig) => ig.friendships.getFollowers(DEMO.luna.pk) },
	{ name: 'following', paths: ['/following/'], call: (ig) => ig.friendships.getFollowing(DEMO.luna.pk) },
	{ name: 'pending requests', paths: ['/pending/'], call: (ig) => ig.friendships.getPendingRequests() },
	{ name: 'user feed', paths: ['/feed/user/\\d+/\\?'], call: (ig) => ig.feed.getUserFeed(DEMO.luna.pk) },
	{
		name: 'tag feed (GraphQL, then its REST fallback)',
		paths: ['/graphql/query', '/feed/tag/'],
		call: (ig) => ig.feed.getTagFeed('sunset')
	},
	{
		name: 'tag feed, a later GraphQL page',
		paths: ['/graphql/query'],
		prepare: async (ig) => (await ig.feed.getTagFeed('sunset')).next_cursor,
		call: (ig, cursor) => ig.feed.getTagFeed('sunset', { cursor: cursor as string })
	},
	{ name: 'liked posts', paths: ['/graphql/query'], call: (ig) => ig.feed.getLiked() },
	{ name: 'saved collections', paths: ['/graphql/query'], call: (ig) => ig.feed.getSaved() },
	{ name: 'comments', paths: ['/comments/\\?'], call: (ig) => ig.media.getComments(post) },
	{
		name: "a comment's replies",
		paths: ['/child_comments/'],
		prepare: async (ig) => {
			for (const [, pk] of DEMO.posts) {
				const comments = await ig.media.getComments(pk, { count: 200 })
				const thread = comments.items.find((comment) => comment.reply_count > 0)
				if (thread) return [pk, thread.pk]
			}
			throw new Error('no comment with replies')
		},
		call: (ig, prepared) => {
			const [pk, comment] = prepared as [string, string]
			return ig.media.getCommentReplies(pk, comment)
		}
	},
	{ name: 'likers', paths: ['/likers/'], call: (ig) => ig.media.getLikers(post) },
	{ name: 'user search', paths: ['/topsearch/'], call: (ig) => ig.search.users('luna') },
	{ name: 'users.search', paths: ['/topsearch/'], call: (ig) => ig.users.search('luna explorer') },
	{ name: 'hashtag search', paths: ['/tags/search/'], call: (ig) => ig.search.hashtags('coffee') },
	{ name: 'place search', paths: ['/fbsearch/places/'], call: (ig) => ig.search.places('paris') },
	{ name: 'explore', paths: ['/topical_explore/'], call: (ig) => ig.search.explore() },
	{ name: 'stories', paths: ['/story/'], call: (ig) => ig.stories.getUserStories(DEMO.luna.pk) },
	{ name: 'highlights', paths: ['/highlights_tray/'], call: (ig) => ig.stories.getHighlights(DEMO.luna.pk) },
	{ name: 'stories tray', paths: ['/reels_tray/'], call: (ig) => ig.stories.getTray() },
	{ name: 'notifications', paths: ['/news/inbox/'], call: (ig) => ig.notifications.getParsed() },
	{ name: 'direct inbox', paths: ['/direct_v2/inbox/'], call: (ig) => ig.direct.getInbox() },
	{ name: 'blocked users', paths: ['/blocked_list/'], call: (ig) => ig.account.getBlockedUsers() },
	{ name: 'restricted users', paths: ['/restricted_users/'], call: (ig) => ig.account.getRestrictedUsers() },
	{
		name: 'public posts, a later page',
		paths: ['/graphql/query/', '/feed/user/'],
		prepare: async (ig) => (await ig.public.getPosts(mega.username)).next_cursor,
		call: (ig, cursor) => ig.public.getPosts(mega.username, { cursor: cursor as string })
	}
]

/** Answers without the list: for GraphQL also `data` without the connection (no `data` was an error already). */
const bodiesOf = (list: ListCase) => [
	'{"status":"ok"}',
	'null',
	'""',
	...(list.paths.some((path) => path.includes('graphql')) ? ['{"data":{},"status":"ok"}'] : [])
]

describe('a list page answered with valid JSON but without its list', () => {
	for (const list of cases)
		for (const body of bodiesOf(list))
			it(`${list.name}: ${body} is a malformed answer (upstream_error), not an empty page`, async () => {
				const ig = context.client()
				context.sim.faults.clear()
				const prepared = await list.prepare?.(ig)
				if (list.prepare) expect(prepared).toBeTruthy()
				context.sim.faults.set(list.paths.map((pathPattern) => ({ kind: 'wrong_shape', body, pathPattern })))
				try {
					const error = await list.call(ig, prepared).catch((caught: unknown) => caught)
					expect(error).toBeInstanceOf(IgApiError)
					expect(error).toMatchObject({ kind: 'upstream_error', upstreamStatus: 200 })
					expect((error as Error).message).toMatch(/malformed answer, without its list|answered without data/)
				} finally {
					context.sim.faults.clear()
				}
			})
})

describe('an empty list is still an empty list', () => {
	it('stories of a user without any: Instagram answers reel null', async () => {
		const ig = context.client()
		expect((await ig.stories.getUserStories(mega.pk)).items).toEqual([])
		expect((await ig.stories.getUserStories(DEMO.luna.pk)).items.length).toBeGreaterThan(0)
	})
})
