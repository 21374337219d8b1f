import { describe, expect, it } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { Comparison, ProfileAnalytics } from '../../src/client/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { expectFailure, expectNoLeaks, expectOk, startPlayground, usePlayground } from './support'

const harness = usePlayground()

interface FeedPost {
	pk: string
	code: string
	taken_at: number
	media_type: number
	product_type: string | null
	like_count: number
	comment_count: number
	caption_text: string
}

/** The account's newest `count` posts, read from the feed endpoint on their own. */
async function feedPosts(userPk: string, count: number): Promise<FeedPost[]> {
	const body = await expectOk(await harness.get(`/api/feed/user/${userPk}?count=${count}`))
	return body.data
}

/** The figures, worked out the long way from the posts. */
function byHand(posts: FeedPost[], followers: number) {
	let likes = 0
	let comments = 0
	const weekday = [0, 0, 0, 0, 0, 0, 0]
	const hour: number[] = []
	for (let index = 0; index < 24; index++) hour.push(0)
	const mix = { photo: 0, video: 0, reel: 0, carousel: 0 }
	const tags: Record<string, number> = {}
	for (const post of posts) {
		likes += post.like_count
		comments += post.comment_count
		const date = new Date(post.taken_at * 1000)
		const names = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
		const day = names.indexOf(date.toUTCString().slice(0, 3))
		weekday[day] = (weekday[day] as number) + 1
		hour[date.getUTCHours()] = (hour[date.getUTCHours()] as number) + 1
		if (post.media_type === 1) mix.photo++
		else if (post.media_type === 8) mix.carousel++
		else if (post.product_type === 'clips') mix.reel++
		else mix.video++
		const seen = new Set<string>()
		for (const word of post.caption_text.split(/\s+/)) {
			if (word.startsWith('#') && word.length > 1) seen.add(word.slice(1).toLowerCase())
		}
		for (const tag of seen) tags[tag] = (tags[tag] ?? 0) + 1
	}
	const avgLikes = likes / posts.length
	const avgComments = comments / posts.length
	const oldest = posts[posts.length - 1] as FeedPost
	const newest = posts[0] as FeedPost
	const weeks = (newest.taken_at - oldest.taken_at) / 604800
	return {
		avgLikes,
		avgComments,
		rate: ((avgLikes + avgComments) / followers) * 100,
		perWeek: (posts.length - 1) / weeks,
		weekday,
		hour,
		mix,
		tags
	}
}

describe('GET /api/analytics/profile/{username}', () => {
	it('equals the figures computed by hand from the posts it used', async () => {
		for (const posts of [30, 7, 200]) {
			const body = await expectOk(await harness.get(`/api/analytics/profile/luna.explorer?posts=${posts}`))
			const figures = body.data
			expect(Value.Check(ProfileAnalytics, figures)).toBe(true)
			const profile = await expectOk(await harness.get('/api/users/username/luna.explorer'))
			expect(figures.follower_count).toBe(profile.data.follower_count)
			const used = await feedPosts(DEMO_PRESETS.luna.pk, posts)
			expect(used.length).toBe(Math.min(posts, profile.data.media_count))
			expect(figures.posts_analyzed).toBe(used.length)
			expect(figures.posts.map((post: FeedPost) => post.pk)).toEqual(used.map((post) => post.pk))

			const hand = byHand(used, profile.data.follower_count)
			expect(figures.avg_likes).toBeCloseTo(hand.avgLikes, 2)
			expect(figures.avg_comments).toBeCloseTo(hand.avgComments, 2)
			expect(figures.engagement_rate).toBeCloseTo(hand.rate, 3)
			expect(figures.posts_per_week).toBeCloseTo(hand.perWeek, 2)
			expect(figures.by_weekday).toEqual(hand.weekday)
			expect(figures.by_hour).toEqual(hand.hour)
			expect(figures.heatmap.flat().reduce((sum: number, value: number) => sum + value, 0)).toBe(used.length)
			expect(figures.media_mix).toEqual(hand.mix)
			for (const { term, posts: count } of figures.top_hashtags) expect(count).toBe(hand.tags[term] as number)
			const mostUsedTag = Math.max(...Object.values(hand.tags))
			expect(figures.top_hashtags[0].posts).toBe(mostUsedTag)

			const engagement = used.map((post) => post.like_count + post.comment_count).sort((a, b) => b - a)
			expect(figures.top_posts.map((post: { engagement: number }) => post.engagement)).toEqual(
				engagement.slice(0, 5)
			)
			expect(figures.first_post_at).toBe((used[used.length - 1] as FeedPost).taken_at)
			expect(figures.last_post_at).toBe((used[0] as FeedPost).taken_at)
		}
	})

	it('counts mentions once per post and ranks them by posts, then name', async () => {
		const figures = (await expectOk(await harness.get('/api/analytics/profile/luna.explorer?posts=120'))).data
		const used = await feedPosts(DEMO_PRESETS.luna.pk, 120)
		const counts: Record<string, number> = {}
		for (const post of used) {
			const names = new Set<string>()
			for (const word of post.caption_text.split(/\s+/)) {
				if (word.startsWith('@'))
					names.add(
						word
							.slice(1)
							.replace(/[.,!?:;]+$/, '')
							.toLowerCase()
					)
			}
			for (const name of names) counts[name] = (counts[name] ?? 0) + 1
		}
		const expected = Object.entries(counts)
			.sort(([leftName, left], [rightName, right]) => right - left || (leftName < rightName ? -1 : 1))
			.slice(0, 10)
			.map(([term, posts]) => ({ term, posts }))
		expect(expected.length).toBeGreaterThan(0)
		expect(figures.top_mentions).toEqual(expected)
	})

	it('rejects a bad posts count and a bad username, and reports private and missing accounts', async () => {
		await expectFailure(await harness.get('/api/analytics/profile/luna.explorer?posts=0'), 400, 'bad_request')
		await expectFailure(
			await harness.get('/api/analytics/profile/luna.explorer?posts=201'),
			400,
			'bad_request'
		)
		await expectFailure(await harness.get('/api/analytics/profile/bad%20name'), 400, 'bad_request')
		await expectFailure(await harness.get('/api/analytics/profile/private.pat'), 403, 'private_account')
		await expectFailure(
			await harness.get(`/api/analytics/profile/${DEMO_PRESETS.missing.username}`),
			404,
			'not_found'
		)
	})

	it('gives no average or rate for an account without posts, as for its posting pace and best post', async () => {
		// the.vintage.notes: a public demo account with followers and no posts.
		const body = await expectOk(await harness.get('/api/analytics/profile/the.vintage.notes'))
		expect(Value.Check(ProfileAnalytics, body.data)).toBe(true)
		expect(body.data).toMatchObject({
			posts_analyzed: 0,
			avg_likes: null,
			avg_comments: null,
			engagement_rate: null,
			posts_per_week: null,
			top_posts: []
		})
		expect(body.data.follower_count).toBeGreaterThan(0)
		const compared = await expectOk(await harness.get('/api/compare?users=the.vintage.notes,luna.explorer'))
		for (const metric of ['avg_likes', 'avg_comments', 'engagement_rate', 'posts_per_week', 'top_post'])
			expect(compared.data.rows.find((row: { metric: string }) => row.metric === metric).values[0]).toBeNull()
	})

	it('works without a session, from the public profile and posts', async () => {
		const anonymous = await startPlayground({ loggedIn: false })
		try {
			const body = await expectOk(await anonymous.get('/api/analytics/profile/luna.explorer?posts=12'))
			const logged = (await expectOk(await harness.get('/api/analytics/profile/luna.explorer?posts=12'))).data
			const core = (posts: FeedPost[]) =>
				posts.map(({ pk, taken_at, like_count, comment_count }) => ({
					pk,
					taken_at,
					like_count,
					comment_count
				}))
			expect(core(body.data.posts)).toEqual(core(logged.posts))
			expect(body.data.avg_likes).toBe(logged.avg_likes)
			// A list's comparison too, and the API reference says so for both comparisons.
			const list = { name: 'pair', usernames: ['luna.explorer', 'xss.payload'] }
			await expectOk(await anonymous.request('POST', '/api/lists', { body: list }))
			const compared = await expectOk(await anonymous.get('/api/lists/pair/compare?posts=5'))
			expect(compared.data.usernames).toEqual(list.usernames)
			const { paths } = await (await anonymous.get('/openapi/json')).json()
			for (const path of ['/api/compare', '/api/lists/{name}/compare'])
				expect(paths[path].get.description).toContain('Works without Instagram credentials')
		} finally {
			await anonymous.stop()
		}
	})
})

describe('GET /api/compare', () => {
	it('puts 3 accounts side by side and names the best of each ranked row', async () => {
		const users = 'luna.explorer,xss.payload,smkit_demo'
		const body = await expectOk(await harness.get(`/api/compare?users=${users}&posts=12`))
		expect(Value.Check(Comparison, body.data)).toBe(true)
		const { usernames, rows, accounts } = body.data
		expect(usernames).toEqual(users.split(','))
		for (const [index, username] of usernames.entries()) {
			const alone = (await expectOk(await harness.get(`/api/analytics/profile/${username}?posts=12`))).data
			expect(accounts[index].avg_likes).toBe(alone.avg_likes)
			expect(rows.find((row: { metric: string }) => row.metric === 'engagement_rate').values[index]).toBe(
				alone.engagement_rate
			)
		}
		for (const row of rows) {
			const present = row.values.filter((value: number | null) => value !== null)
			const highest = Math.max(...present)
			const winners = row.values.filter((value: number | null) => value === highest).length
			if (row.metric === 'following_count' || row.metric === 'posts_analyzed' || winners !== 1) {
				expect(row.best).toBeNull()
			} else {
				expect(row.best).toBe(usernames[row.values.indexOf(highest)])
			}
		}
		expect(rows.find((row: { metric: string }) => row.metric === 'follower_count').best).toBe('luna.explorer')
	})

	it('takes 2 to 5 different valid usernames', async () => {
		await expectFailure(await harness.get('/api/compare?users=luna.explorer'), 400, 'bad_request')
		await expectFailure(
			await harness.get('/api/compare?users=luna.explorer,LUNA.explorer'),
			400,
			'bad_request'
		)
		await expectFailure(await harness.get('/api/compare?users=a,b,c,d,e,f'), 400, 'bad_request')
		await expectFailure(await harness.get('/api/compare?users=luna.explorer,bad%20name'), 400, 'bad_request')
		await expectFailure(await harness.get('/api/compare'), 400, 'bad_request')
		expectNoLeaks(harness)
	})

	it('a missing account is a 404 that names it (Instagram only says "User not found")', async () => {
		const missing = await expectFailure(
			await harness.get('/api/compare?users=luna.explorer,no.such.user.smkit'),
			404,
			'not_found'
		)
		expect(missing.error).toStartWith('@no.such.user.smkit: ')
		expect(missing.error).toContain('not found')
	})
})
