/**
 * /api/watches in process: validation, account watches without follower lists (counts only),
 * hashtag watches (media count and top posts per run), diffs' defaults and errors, delete.
 */
import { describe, expect, it } from 'bun:test'
import { expectFailure, expectNoLeaks, expectOk, usePlayground } from '../playground/support'
import { advanceClock as moveClock } from './support'

const harness = usePlayground()

const post = (path: string, body?: unknown) =>
	harness.request('POST', path, body === undefined ? {} : { body })

const advanceClock = (hours: number) => moveClock(harness.simulator.url, hours)

describe('POST /api/watches', () => {
	it('takes exactly one of username and hashtag, an interval from 1h to 7d, and one watch per target', async () => {
		await expectFailure(await post('/api/watches', { every: '1d' }), 400, 'bad_request')
		await expectFailure(await post('/api/watches', { username: 'a', hashtag: 'b' }), 400, 'bad_request')
		const tooOften = await expectFailure(
			await post('/api/watches', { username: 'a', every: '30m' }),
			400,
			'bad_request'
		)
		expect(tooOften.error).toContain("'every'")
		await expectFailure(await post('/api/watches', { username: 'a', every: '8d' }), 400, 'bad_request')
		const badName = await expectFailure(
			await post('/api/watches', { username: 'no spaces' }),
			400,
			'bad_request'
		)
		expect(badName.error).toContain("'username'")
		await expectFailure(await post('/api/watches', { hashtag: 'a#b' }), 400, 'bad_request')
		// A hashtag has no follower list: asked for, it is refused (as smkit watch add refuses it).
		const tagFollowers = await expectFailure(
			await post('/api/watches', { hashtag: 'sunset', followers: true }),
			400,
			'bad_request'
		)
		expect(tagFollowers.error).toContain("'followers' is for accounts")
		const first = await expectOk(
			await post('/api/watches', { username: '@Dup.Name', every: '12h', check: false })
		)
		expect(first.data).toMatchObject({
			target: 'dup.name',
			every: '12h',
			every_seconds: 43200,
			followers: false
		})
		const again = await expectFailure(
			await post('/api/watches', { username: 'dup.name' }),
			400,
			'bad_request'
		)
		expect(again.error).toContain(`watch ${first.data.id}`)
		await expectOk(await harness.request('DELETE', `/api/watches/${first.data.id}`))
		await expectFailure(await harness.get(`/api/watches/${first.data.id}`), 404, 'not_found')
	})

	it('looks an account up first: one Instagram does not know is refused unless check is false', async () => {
		const targets = async () =>
			(await expectOk(await harness.get('/api/watches'))).data.map(
				(watch: { target: string }) => watch.target
			)
		const refused = await expectFailure(
			await post('/api/watches', { username: 'Typo.Here.Zz', followers: true }),
			404,
			'not_found'
		)
		expect(refused.error).toBe(
			"No Instagram account @typo.here.zz: check the spelling, or add it with 'check': false"
		)
		expect(await targets()).not.toContain('typo.here.zz')
		const unchecked = await expectOk(await post('/api/watches', { username: 'typo.here.zz', check: false }))
		expect(unchecked.message).toBe('Watching @typo.here.zz every 1d')
		await expectFailure(
			await post('/api/watches', { username: 'luna.explorer', check: 'no' }),
			400,
			'bad_request'
		)
		// A hashtag nobody has used yet is a fair thing to watch: it is not looked up.
		const before = harness.simulator.requests.count(/tags/)
		await expectOk(await post('/api/watches', { hashtag: 'launch2027xyz' }))
		expect(harness.simulator.requests.count(/tags/)).toBe(before)
		for (const watch of (await expectOk(await harness.get('/api/watches'))).data)
			await expectOk(await harness.request('DELETE', `/api/watches/${watch.id}`))
	})

	it('adds with a warning when the look-up fails, or when a private account is watched with its followers', async () => {
		// Every attempt fails, the client's retries included.
		harness.simulator.faults.set({ kind: 'malformed', pathPattern: 'web_profile_info' })
		const unchecked = await expectOk(await post('/api/watches', { username: 'mega.travel' }))
		harness.simulator.faults.clear()
		expect(unchecked.message).toStartWith(
			'Watching @mega.travel every 1d. Could not check that @mega.travel exists ('
		)
		expect(unchecked.message).toEndWith('); added anyway')
		const privateOne = await expectOk(
			await post('/api/watches', { username: 'private.pat', followers: true })
		)
		expect(privateOne.message).toBe(
			"Watching @private.pat every 1d. @private.pat is private: its follower list can only be collected while this session's account follows it"
		)
		const counted = await expectOk(await post('/api/watches', { username: 'xss.payload' }))
		expect(counted.message).toBe('Watching @xss.payload every 1d')
		for (const watch of [unchecked, privateOne, counted])
			await expectOk(await harness.request('DELETE', `/api/watches/${watch.data.id}`))
		expectNoLeaks(harness)
	})
})

describe('account watch without followers', () => {
	it('stores the profile counts per run; the diff has count changes and no lists', async () => {
		const watch = (await expectOk(await post('/api/watches', { username: 'mega.travel', every: '6h' }))).data
		const first = (await expectOk(await post(`/api/watches/${watch.id}/run`))).data
		await expectFailure(await harness.get(`/api/watches/${watch.id}/diff`), 400, 'bad_request')
		await advanceClock(24)
		const second = (await expectOk(await post(`/api/watches/${watch.id}/run`))).data
		const profile = (await expectOk(await harness.get('/api/users/username/mega.travel'))).data
		expect(second).toMatchObject({
			followers: profile.follower_count,
			following: profile.following_count,
			posts: profile.media_count,
			follower_list_size: null
		})
		const diff = (await expectOk(await harness.get(`/api/watches/${watch.id}/diff`))).data
		expect(diff.gained).toBeNull()
		expect(diff.lost).toBeNull()
		expect(diff.top_posts).toBeNull()
		expect(diff.counts.followers).toEqual({
			from: first.followers,
			to: second.followers,
			change: second.followers - first.followers
		})
		expect(diff.counts.posts.change).toBe(second.posts - first.posts)
		const missing = await expectFailure(
			await harness.get(`/api/watches/${watch.id}/diff?from=${first.id}&to=999999`),
			404,
			'not_found'
		)
		// Only the snapshot the watch lacks is named.
		expect(missing.error).toBe(`Watch ${watch.id} has no snapshot 999999`)
		const neither = await expectFailure(
			await harness.get(`/api/watches/${watch.id}/diff?from=999998&to=999999`),
			404,
			'not_found'
		)
		expect(neither.error).toBe(`Watch ${watch.id} has no snapshots 999998 and 999999`)
		// `to` alone compares with the snapshot before it, never with a later one.
		await advanceClock(24)
		const third = (await expectOk(await post(`/api/watches/${watch.id}/run`))).data
		const upToSecond = (await expectOk(await harness.get(`/api/watches/${watch.id}/diff?to=${second.id}`)))
			.data
		expect([upToSecond.from.id, upToSecond.to.id]).toEqual([first.id, second.id])
		const upToThird = (await expectOk(await harness.get(`/api/watches/${watch.id}/diff?to=${third.id}`))).data
		expect([upToThird.from.id, upToThird.to.id]).toEqual([second.id, third.id])
		const beforeFirst = await expectFailure(
			await harness.get(`/api/watches/${watch.id}/diff?to=${first.id}`),
			400,
			'bad_request'
		)
		expect(beforeFirst.error).toBe(
			`Watch ${watch.id} has no snapshot before ${first.id} to compare it with: give 'from'`
		)
		// A diff goes forward, between two snapshots: backwards, to itself, or from the last alone is refused.
		for (const [query, message] of [
			[
				`from=${third.id}&to=${first.id}`,
				`from (${third.id}) must be an earlier snapshot than to (${first.id})`
			],
			[`from=${second.id}&to=${second.id}`, `from and to are both snapshot ${second.id}`],
			[`from=${third.id}`, `from and to are both snapshot ${third.id}`]
		]) {
			const refused = await expectFailure(
				await harness.get(`/api/watches/${watch.id}/diff?${query}`),
				400,
				'bad_request'
			)
			expect(refused.error).toContain(message)
		}
		const listed = (await expectOk(await harness.get('/api/watches'))).data
		expect(listed.find((entry: { id: number }) => entry.id === watch.id)).toMatchObject({
			snapshots: 3,
			last_status: 'ok',
			running: false
		})
	})
})

describe('hashtag watch', () => {
	it('stores the media count and the top posts of each run', async () => {
		const watch = (await expectOk(await post('/api/watches', { hashtag: '#Sunset', every: '1h' }))).data
		expect(watch).toMatchObject({ kind: 'hashtag', target: 'sunset', followers: false })
		const snapshot = (await expectOk(await post(`/api/watches/${watch.id}/run`))).data
		const info = (await expectOk(await harness.get('/api/hashtags/info/sunset'))).data
		expect(snapshot.media_count).toBe(info.media_count)
		expect(snapshot.followers).toBeNull()
		// The pool: the tag's 45 most recent posts, across pages.
		const feed = (await expectOk(await harness.get('/api/feed/tag/sunset?count=45'))).data as {
			pk: string
			like_count: number
			comment_count: number
		}[]
		const engagement = (post: { like_count: number; comment_count: number }) =>
			post.like_count + post.comment_count
		const expected = feed
			.map((post, index) => ({ post, index }))
			.sort((left, right) => engagement(right.post) - engagement(left.post) || left.index - right.index)
			.slice(0, 9)
			.map(({ post }) => post.pk)
		expect(snapshot.top_posts.map((post: { pk: string }) => post.pk)).toEqual(expected)
		expect(snapshot.top_posts[0].engagement).toBe(
			engagement(feed.find((post) => post.pk === expected[0]) as never)
		)
		await advanceClock(48)
		await expectOk(await post(`/api/watches/${watch.id}/run`))
		const diff = (await expectOk(await harness.get(`/api/watches/${watch.id}/diff`))).data
		const now = (await expectOk(await harness.get('/api/hashtags/info/sunset'))).data
		expect(diff.counts.media_count).toEqual({
			from: info.media_count,
			to: now.media_count,
			change: now.media_count - info.media_count
		})
		expect(diff.gained).toBeNull()
		// The top posts that entered and left: exactly the difference of the two snapshots' lists.
		type Post = { pk: string }
		const pks = (posts: Post[]) => posts.map((post) => post.pk)
		const [older, newer] = [diff.from.top_posts as Post[], diff.to.top_posts as Post[]]
		expect(pks(diff.top_posts.entered)).toEqual(pks(newer).filter((pk) => !pks(older).includes(pk)))
		expect(pks(diff.top_posts.left)).toEqual(pks(older).filter((pk) => !pks(newer).includes(pk)))
		expect(diff.top_posts.stayed).toBe(newer.length - diff.top_posts.entered.length)
		// Two days of new posts in the demo change the ranking.
		expect(diff.top_posts.entered.length + diff.top_posts.left.length).toBeGreaterThan(0)
	})

	it('a hashtag nobody has used yet is watched at 0 posts; #İstanbul and #नमस्ते are watched by their names', async () => {
		const unused = (await expectOk(await post('/api/watches', { hashtag: '#NeverUsedTag123' }))).data
		const empty = (await expectOk(await post(`/api/watches/${unused.id}/run`))).data
		expect(empty).toMatchObject({ media_count: 0, top_posts: [] })
		const after = (await expectOk(await harness.get(`/api/watches/${unused.id}`))).data
		expect(after).toMatchObject({ last_status: 'ok', snapshots: 1 })
		// The capital dotted I lowers to i and a combining dot: the watch is of istanbul.
		const turkish = (await expectOk(await post('/api/watches', { hashtag: '#İstanbul' }))).data
		expect(turkish.target).toBe('istanbul')
		await expectOk(await post(`/api/watches/${turkish.id}/run`))
		const hindi = (await expectOk(await post('/api/watches', { hashtag: '#नमस्ते' }))).data
		expect(hindi.target).toBe('नमस्ते')
		// Instagram links no hashtag of digits only: refused, not watched at 0 posts every run.
		for (const hashtag of ['#123', '#2024', '#١٢٣']) {
			const refused = await expectFailure(await post('/api/watches', { hashtag }), 400, 'bad_request')
			expect(refused.error).toContain('digits only')
		}
		const jobRefused = await expectFailure(
			await post('/api/jobs', { kind: 'tag', target: '#2024' }),
			400,
			'bad_request'
		)
		expect(jobRefused.error).toContain('digits only')
	})

	it('a run of an account that does not exist fails with its reason and is recorded on the watch', async () => {
		const watch = (
			await expectOk(
				await post('/api/watches', { username: 'nobody.here.at.all', followers: true, check: false })
			)
		).data
		await expectFailure(await post(`/api/watches/${watch.id}/run`), 404, 'not_found')
		const after = (await expectOk(await harness.get(`/api/watches/${watch.id}`))).data
		expect(after.last_status).toBe('failed')
		expect(after.last_error).toContain('not found')
		expect(after.snapshots).toBe(0)
		expectNoLeaks(harness)
	})
})

describe('running and queued', () => {
	it('a watch waiting behind another watch run is running and queued; the one running is not queued', async () => {
		const slow = (await expectOk(await post('/api/watches', { hashtag: 'coffee', every: '1h' }))).data
		const next = (await expectOk(await post('/api/watches', { hashtag: 'travel', every: '1h' }))).data
		harness.simulator.faults.set({ kind: 'latency', latencyMs: 1500, pathPattern: 'tags/coffee' })
		try {
			const runs = [post(`/api/watches/${slow.id}/run`), post(`/api/watches/${next.id}/run`)]
			await Bun.sleep(300)
			const listed = (await expectOk(await harness.get('/api/watches'))).data as {
				id: number
				running: boolean
				queued: boolean
			}[]
			expect(listed.find((watch) => watch.id === slow.id)).toMatchObject({ running: true, queued: false })
			expect(listed.find((watch) => watch.id === next.id)).toMatchObject({ running: true, queued: true })
			for (const run of runs) await expectOk(await run)
			const after = (await expectOk(await harness.get('/api/watches'))).data as {
				id: number
				queued: boolean
			}[]
			for (const id of [slow.id, next.id])
				expect(after.find((watch) => watch.id === id)).toMatchObject({ running: false, queued: false })
		} finally {
			harness.simulator.faults.clear()
		}
	})
})
