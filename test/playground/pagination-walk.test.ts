/**
 * The pagination rule, on every list endpoint of the playground over the simulator: walking a list
 * with any sequence of `count` values (1 to the maximum), each request passing the previous
 * `next_cursor`, yields exactly the whole list in order, with no gap and no duplicate, and
 * `next_cursor` is null only at the end. The expected lists come from the simulator's own data, not
 * from the client, so a client that drops or repeats records cannot agree with them by accident.
 * The simulator's upstream page sizes differ between endpoints (9, 11, 15, 16, 24, ...), so a
 * cursor that skips or repeats the rest of an upstream page shows up on some list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Random } from '../../src/simulator/prng'
import { expectList, type PlaygroundHarness, startPlayground } from './support'

const LUNA = '1000000002'
const VIEWER = '1000000001'
const POST = '3842790443716764595'

type Record = { [key: string]: unknown }

/** One list endpoint: its path, the largest `count` it takes, a record's identity, the expected identities. */
interface ListCase {
	name: string
	path: string
	max: number
	key: (record: Record) => string
	expected: (harness: PlaygroundHarness) => Promise<string[]> | string[]
}

const byPk = (record: Record) => String(record.pk)

/** The whole list as one request returns it: for lists Instagram sends in one piece (search results, tray). */
async function onePiece(harness: PlaygroundHarness, path: string, key: (record: Record) => string) {
	const body = await expectList(await harness.get(`${path}${path.includes('?') ? '&' : '?'}count=200`))
	expect(body.next_cursor).toBeNull()
	return (body.data as Record[]).map(key)
}

const CASES: ListCase[] = [
	{
		name: 'followers',
		path: `/api/friendships/followers/${LUNA}`,
		max: 1000,
		key: byPk,
		expected: ({ simulator }) => [...simulator.state.followersOf(LUNA)]
	},
	{
		name: 'following',
		path: `/api/friendships/following/${VIEWER}`,
		max: 1000,
		key: byPk,
		expected: ({ simulator }) => [...simulator.state.followingOf(VIEWER)]
	},
	{
		name: 'mutual followers',
		path: `/api/friendships/mutual/${LUNA}`,
		max: 200,
		key: byPk,
		expected: ({ simulator: { state } }) => state.followersOf(LUNA).filter((pk) => state.isFollowing(pk))
	},
	{
		name: 'pending requests',
		path: '/api/friendships/pending',
		max: 200,
		key: byPk,
		expected: ({ simulator }) => [...simulator.state.data.graph.pendingRequests]
	},
	{
		name: 'user feed',
		path: `/api/feed/user/${LUNA}`,
		max: 200,
		key: byPk,
		expected: ({ simulator }) =>
			(simulator.state.data.mediaByOwner.get(LUNA) ?? []).map((media) => String(media.pk))
	},
	{
		name: 'tag feed',
		path: '/api/feed/tag/sunset',
		max: 200,
		key: byPk,
		expected: ({ simulator }) =>
			(simulator.state.data.mediaByTag.get('sunset') ?? []).map((media) => String(media.pk))
	},
	{
		name: 'liked feed',
		path: '/api/feed/liked',
		max: 200,
		key: byPk,
		expected: ({ simulator }) => simulator.state.likedMedia().map((media) => String(media.pk))
	},
	{
		name: 'saved collections',
		path: '/api/feed/saved',
		max: 200,
		key: (record) => String(record.collection_id),
		expected: ({ simulator }) => simulator.state.data.viewer.collections.map((collection) => collection.id)
	},
	{
		name: 'explore',
		path: '/api/search/explore',
		max: 200,
		key: byPk,
		expected: ({ simulator: { state } }) =>
			state.data.media
				.filter(
					(media) =>
						media.ownerPk !== state.viewerPk &&
						!state.isFollowing(media.ownerPk) &&
						state.canView(null, media.ownerPk)
				)
				.sort((left, right) => right.likerCount - left.likerCount || (right.pk > left.pk ? 1 : -1))
				.slice(0, 240)
				.map((media) => String(media.pk))
	},
	{
		name: 'comments',
		path: `/api/media/comments/${POST}`,
		max: 200,
		key: byPk,
		expected: ({ simulator: { state } }) => {
			const media = state.media(POST)
			return media ? state.commentsOf(media).map((comment) => String(comment.pk)) : []
		}
	},
	{
		// luna.explorer's post DIGTDkeJd6Y and its comment with four replies (two a simulator page).
		name: 'comment replies',
		path: '/api/media/comments/3604652359959305880/replies/18928815347468480',
		max: 200,
		key: byPk,
		expected: ({ simulator: { state } }) => {
			const media = state.media('3604652359959305880')
			const thread = media && state.commentsOf(media).find((comment) => comment.pk === '18928815347468480')
			return thread ? thread.replies.map((reply) => String(reply.pk)) : []
		}
	},
	{
		name: 'likers',
		path: `/api/media/likers/${POST}`,
		max: 200,
		key: byPk,
		expected: ({ simulator: { state } }) => {
			const media = state.media(POST)
			return media ? [...state.likersOf(media)] : []
		}
	},
	{
		name: 'public posts',
		path: '/api/public/posts/luna.explorer',
		max: 200,
		key: byPk,
		expected: ({ simulator }) =>
			(simulator.state.data.mediaByOwner.get(LUNA) ?? []).map((media) => String(media.pk))
	},
	{
		name: 'user search',
		path: '/api/users/search?q=a',
		max: 200,
		key: byPk,
		expected: (harness) => onePiece(harness, '/api/users/search?q=a', byPk)
	},
	{
		name: 'search users',
		path: '/api/search/users?q=a',
		max: 200,
		key: byPk,
		expected: (harness) => onePiece(harness, '/api/search/users?q=a', byPk)
	},
	{
		name: 'search hashtags',
		path: '/api/search/hashtags?q=a',
		max: 200,
		key: (record) => String(record.name),
		expected: (harness) => onePiece(harness, '/api/search/hashtags?q=a', (record) => String(record.name))
	},
	{
		name: 'search places',
		path: '/api/search/places?q=a',
		max: 200,
		key: byPk,
		expected: (harness) => onePiece(harness, '/api/search/places?q=a', byPk)
	},
	...(
		[
			['parsed', () => true],
			['follows', (kind: string) => kind === 'user_followed'],
			['likes', (kind: string) => kind === 'like' || kind === 'comment_like']
		] as const
	).map(
		([name, keep]): ListCase => ({
			name: `notifications ${name}`,
			path: `/api/notifications/${name}`,
			max: 200,
			key: byPk,
			expected: ({ simulator }) => {
				const all = simulator.state.data.viewer.notifications
				return [...all.filter((item) => item.isNew), ...all.filter((item) => !item.isNew)]
					.filter((item) => keep(item.kind))
					.map((item) => item.pk)
			}
		})
	),
	{
		name: 'highlights',
		path: `/api/stories/highlights/${LUNA}`,
		max: 200,
		key: (record) => String(record.id),
		expected: ({ simulator }) =>
			(simulator.state.data.highlights.get(LUNA) ?? []).map((highlight) => highlight.id)
	},
	{
		name: 'stories',
		path: `/api/stories/user/${LUNA}`,
		max: 200,
		key: byPk,
		expected: ({ simulator }) =>
			(simulator.state.data.stories.get(LUNA) ?? []).map((story) => String(story.pk))
	},
	{
		name: 'stories tray',
		path: '/api/stories/tray',
		max: 200,
		key: (record) => String(record.id),
		expected: (harness) => onePiece(harness, '/api/stories/tray', (record) => String(record.id))
	},
	{
		name: 'blocked',
		path: '/api/account/blocked',
		max: 200,
		key: byPk,
		expected: ({ simulator }) => [...simulator.state.data.graph.blocked]
	},
	{
		name: 'restricted',
		path: '/api/account/restricted',
		max: 200,
		key: byPk,
		expected: ({ simulator }) => [...simulator.state.data.graph.restricted]
	},
	{
		name: 'direct inbox',
		path: '/api/direct/inbox',
		max: 200,
		key: (record) => String(record.thread_id),
		expected: ({ simulator }) => simulator.state.threads().map((thread) => thread.threadId)
	}
]

/**
 * Lists Instagram sends in one piece (docs/api-contract.md, "Pagination"): their only cursors point
 * inside the piece, so any other is a 400 rather than sent upstream, ignored, and answered with the
 * first records as if they came after it.
 */
const ONE_PIECE = new Set([
	'pending requests',
	'likers',
	'user search',
	'search users',
	'search hashtags',
	'search places',
	'highlights',
	'stories',
	'stories tray'
])

/** Walks a list to its end; `countAt(step)` is the `count` of each request. Checks each page as it goes. */
async function walk(harness: PlaygroundHarness, list: ListCase, countAt: (step: number) => number) {
	const keys: string[] = []
	let cursor: string | null = null
	for (let step = 0; ; step++) {
		if (step > 5000) throw new Error(`${list.name}: the walk does not end`)
		const count = countAt(step)
		const query = `count=${count}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`
		const url = `${list.path}${list.path.includes('?') ? '&' : '?'}${query}`
		const body = await expectList(await harness.get(url))
		const page = body.data as Record[]
		// Every page but the last is full: null comes only at the end, and a cursor only with `count` records.
		if (body.next_cursor !== null) expect({ url, received: page.length }).toEqual({ url, received: count })
		else expect(page.length).toBeLessThanOrEqual(count)
		keys.push(...page.map(list.key))
		cursor = body.next_cursor
		if (cursor === null) return keys
	}
}

/** The count sequences every list is walked with: fixed sizes, the maximum, and seeded random mixes. */
function sequences(max: number): [string, (step: number) => number][] {
	const mixes = [1, 2].map((seed): [string, (step: number) => number] => {
		const random = new Random(seed * 7919)
		const counts: number[] = []
		return [
			`random mix ${seed}`,
			(step) => {
				// Mostly small counts, now and then a large one, so cuts land all over the upstream pages.
				counts[step] ??= random.chance(0.15) ? random.int(1, max) : random.int(1, 40)
				return counts[step] as number
			}
		]
	})
	return [
		['count=1', () => 1],
		['count=2', () => 2],
		['count=3', () => 3],
		['count=7', () => 7],
		[`count=${max}`, () => max],
		['1, 2, 3, ... growing', (step) => Math.min(max, step + 1)],
		...mixes
	]
}

let harness: PlaygroundHarness
beforeAll(async () => {
	harness = await startPlayground()
})
afterAll(async () => {
	await harness.stop()
})

describe('every list walks to exactly its full contents with any count sequence', () => {
	for (const list of CASES) {
		it(list.name, async () => {
			const expected = await list.expected(harness)
			expect(expected.length).toBeGreaterThan(0)
			for (const [label, countAt] of sequences(list.max)) {
				const keys = await walk(harness, list, countAt)
				expect({ sequence: label, keys }).toEqual({ sequence: label, keys: expected })
			}
		})
	}

	it('a list sent in one piece refuses any cursor it did not issue', async () => {
		// An upstream cursor of another list (followers) and text that is no cursor at all.
		const followers = await expectList(await harness.get(`/api/friendships/followers/${LUNA}?count=50`))
		expect(typeof followers.next_cursor).toBe('string')
		for (const list of CASES.filter((item) => ONE_PIECE.has(item.name))) {
			for (const cursor of ['garbage', followers.next_cursor as string]) {
				const url = `${list.path}${list.path.includes('?') ? '&' : '?'}count=2&cursor=${encodeURIComponent(cursor)}`
				const { status, body } = await harness.json(url)
				expect({ url, status, code: body.code }).toEqual({ url, status: 400, code: 'bad_request' })
			}
		}
		expect(CASES.filter((item) => ONE_PIECE.has(item.name)).length).toBe(ONE_PIECE.size)
	})

	it('lists Instagram pages span several upstream pages here, so the walks cross page boundaries', () => {
		// Page sizes of the simulator: comments 15, explore 24, tag 9, liked 16, saved 3, inbox news 11,
		// blocked 3, restricted 2, direct 20 threads: each of these lists is longer than one page.
		const state = harness.simulator.state
		const media = state.media(POST)
		expect(media ? state.commentsOf(media).length : 0).toBeGreaterThan(2 * 15)
		expect(state.data.viewer.notifications.length).toBeGreaterThan(11)
		expect(state.data.graph.blocked.length).toBeGreaterThan(3)
		expect(state.data.graph.restricted.length).toBeGreaterThan(2)
		expect(state.threads().length).toBeGreaterThan(20)
		expect(state.data.viewer.collections.length).toBeGreaterThan(3)
	})
})
