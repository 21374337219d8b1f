/**
 * A success answer of valid JSON without the object a single-object endpoint is about
 * (`{"status":"ok"}`, `null`, `""`, `{"data":{}}`) is malformed: the same `upstream_error` (the API's
 * 502) as a body that is not JSON, never a "not found" nor a record made of defaults (every flag
 * false, empty search results, a hashtag of 0 posts). A user Instagram says does not exist (a 404,
 * or `data.user` null) stays not_found. Checked against the simulator's `wrong_shape` fault.
 */
import { describe, expect, it } from 'bun:test'
import type { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import { expectFailure, expectOk, usePlayground } from '../playground/support'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()
const post = DEMO.posts[0][1]

/** A single-object call and the requests (path patterns) the fault answers. */
interface ObjectCase {
	name: string
	paths: string[]
	call(ig: InstagramClient): Promise<unknown>
}

const cases: ObjectCase[] = [
	{
		name: 'users.getByUsername',
		paths: ['/web_profile_info/'],
		call: (ig) => ig.users.getByUsername(DEMO.luna.username)
	},
	{
		name: 'users.getById (GraphQL, then /users/{pk}/info/)',
		paths: ['/graphql/query', '/users/\\d+/info/'],
		call: (ig) => ig.users.getById(DEMO.luna.pk)
	},
	{
		name: 'users.getFullProfile',
		paths: ['/web_profile_info/'],
		call: (ig) => ig.users.getFullProfile(DEMO.luna.username)
	},
	{ name: 'hashtags.getInfo', paths: ['/tags/sunset/info/'], call: (ig) => ig.hashtags.getInfo('sunset') },
	{ name: 'media.getInfo', paths: ['/media/\\d+/info/'], call: (ig) => ig.media.getInfo(post) },
	{ name: 'media.getFullInfo', paths: ['/media/\\d+/info/'], call: (ig) => ig.media.getFullInfo(post) },
	{
		name: 'account.getCurrentUser (and both of its fallbacks)',
		paths: ['/current_user/', '/users/\\d+/info/', '/account_information_settings/'],
		call: (ig) => ig.account.getCurrentUser()
	},
	{
		name: 'friendships.getStatus',
		paths: ['/friendships/show/'],
		call: (ig) => ig.friendships.getStatus(DEMO.luna.pk)
	},
	{
		name: 'friendships.follow',
		paths: ['/friendships/create/'],
		call: (ig) => ig.friendships.follow(DEMO.xss.pk)
	},
	{
		name: 'friendships.unfollow',
		paths: ['/friendships/destroy/'],
		call: (ig) => ig.friendships.unfollow(DEMO.xss.pk)
	},
	{ name: 'search.top', paths: ['/topsearch/'], call: (ig) => ig.search.top('luna') },
	{ name: 'media.comment', paths: ['/web/comments/'], call: (ig) => ig.media.comment(post, 'Nice one') },
	{
		name: 'direct.sendText',
		paths: ['/broadcast/text/'],
		call: (ig) => ig.direct.sendText(DEMO.luna.pk, 'Hello')
	},
	{
		name: 'notifications.getActivity',
		paths: ['/news/inbox/'],
		call: (ig) => ig.notifications.getActivity()
	},
	{ name: 'notifications.getCounts', paths: ['/news/inbox/'], call: (ig) => ig.notifications.getCounts() },
	{
		name: 'account.getAccountInfo',
		paths: ['/account_information_settings/'],
		call: (ig) => ig.account.getAccountInfo()
	},
	{
		name: 'account.getPrivacySettings',
		paths: ['/privacy_and_security_info/'],
		call: (ig) => ig.account.getPrivacySettings()
	},
	{
		name: 'account.getLoginActivity',
		paths: ['/login_activity/'],
		call: (ig) => ig.account.getLoginActivity()
	},
	{
		name: 'public.getProfile (every anonymous strategy)',
		paths: ['/web_profile_info/', '/graphql/query', '/luna\\.explorer/'],
		call: (ig) => ig.public.getProfile(DEMO.luna.username)
	},
	{
		name: "public.getPosts, the first page's profile (web_profile_info, then the HTML page)",
		paths: ['/web_profile_info/', '/luna\\.explorer/'],
		call: (ig) => ig.public.getPosts(DEMO.luna.username)
	}
]

const MALFORMED_BODIES = ['{"status":"ok"}', 'null', '""']

/** Runs `call` while the simulator answers `paths` with `body` (HTTP 200). */
async function under<T>(paths: string[], body: string, call: () => Promise<T>): Promise<T> {
	context.sim.faults.set(paths.map((pathPattern) => ({ kind: 'wrong_shape', body, pathPattern })))
	try {
		return await call()
	} finally {
		context.sim.faults.clear()
	}
}

function expectMalformed(error: Error & Record<string, any>) {
	expect(error).toBeInstanceOf(IgApiError)
	expect(error).toMatchObject({ kind: 'upstream_error', upstreamStatus: 200 })
	expect(error.message).toMatch(/malformed answer, without|answered without data/)
}

describe('a single-object endpoint answered with valid JSON but without its object', () => {
	for (const object of cases)
		for (const body of MALFORMED_BODIES)
			it(`${object.name}: ${body} is a malformed answer (upstream_error), not not_found nor defaults`, async () => {
				const ig = context.client()
				expectMalformed(await failure(under(object.paths, body, () => object.call(ig))))
			})

	it('the message names what was missing and the request', async () => {
		const ig = context.client()
		const profile = await failure(
			under(['/web_profile_info/'], '{"status":"ok"}', () => ig.users.getByUsername('luna.explorer'))
		)
		expect(profile.message).toBe(
			'Instagram: malformed answer, without its object (data.user) (HTTP 200 from GET /api/v1/users/web_profile_info/)'
		)
		const hashtag = await failure(under(['/tags/'], '{"status":"ok"}', () => ig.hashtags.getInfo('sunset')))
		expect(hashtag.message).toContain('without its hashtag (name, id)')
		expect(hashtag.message).toContain('GET /api/v1/tags/sunset/info/')
		// Its name without its count: not a tag of 0 posts.
		const uncounted = await failure(
			under(['/tags/'], '{"name":"sunset","id":"17841563269074470","status":"ok"}', () =>
				ig.hashtags.getInfo('sunset')
			)
		)
		expect(uncounted.message).toContain('without its media count (media_count)')
		const status = await failure(
			under(['/friendships/show/'], '{"status":"ok"}', () => ig.friendships.getStatus(DEMO.luna.pk))
		)
		expect(status.message).toContain(
			`without its friendship flags (following) (HTTP 200 from GET /api/v1/friendships/show/${DEMO.luna.pk}/)`
		)
		// A user without its name is no user: not a profile of an empty name and zero followers.
		const partial = await failure(
			under(['/web_profile_info/'], '{"data":{"user":{"id":"1000000002"}},"status":"ok"}', () =>
				ig.users.getByUsername('luna.explorer')
			)
		)
		expect(partial.message).toBe(
			'Instagram answered the profile of @luna.explorer without its username (GET /api/v1/users/web_profile_info/)'
		)
		const partialInfo = await failure(
			under(['/graphql/query', '/users/\\d+/info/'], '{"user":{"pk":"1000000002"},"status":"ok"}', () =>
				ig.users.getById(DEMO.luna.pk)
			)
		)
		expect(partialInfo.message).toContain('without its username')
		// A read sent as POST (the activity inbox) is no write: no warning that it may have been done.
		const counts = await failure(
			under(['/news/inbox/'], '{"status":"ok"}', () => ig.notifications.getCounts())
		)
		expect(counts.message).not.toContain('may have been done')
		// A write so answered may have been done: say so, or a comment goes twice.
		const comment = await failure(
			under(['/web/comments/'], '{"status":"ok"}', () => ig.media.comment(post, 'Nice one'))
		)
		expect(comment.message).toContain('the action may have been done, look before sending it again')
		expect(profile.message).not.toContain('may have been done')
		const top = await failure(under(['/topsearch/'], '{"status":"ok"}', () => ig.search.top('luna')))
		expect(top.message).toContain('without its list (users|hashtags|places)')
	})

	it('a container without the key, or a value that is not an object, is malformed too', async () => {
		const ig = context.client()
		for (const body of [
			'{"data":{},"status":"ok"}',
			'{"data":{"user":"luna.explorer"},"status":"ok"}',
			'{"data":{"user":[]},"status":"ok"}',
			'{"data":null,"status":"ok"}'
		])
			expectMalformed(
				await failure(under(['/web_profile_info/'], body, () => ig.users.getByUsername(DEMO.luna.username)))
			)
		// Every anonymous strategy answers `data` without the user (the HTML page is then no profile).
		expectMalformed(
			await failure(
				under(
					['/web_profile_info/', '/graphql/query', '/luna\\.explorer/'],
					'{"data":{},"status":"ok"}',
					() => ig.public.getProfile(DEMO.luna.username)
				)
			)
		)
		expectMalformed(
			await failure(
				under(
					['/current_user/', '/users/\\d+/info/', '/account_information_settings/'],
					'{"user":null}',
					() => ig.account.getCurrentUser()
				)
			)
		)
		expectMalformed(
			await failure(
				under(['/friendships/create/'], '{"friendship_status":true,"status":"ok"}', () =>
					ig.friendships.follow(DEMO.xss.pk)
				)
			)
		)
	})
})

describe('what does not exist is still not_found', () => {
	const notFound = (error: Error & Record<string, any>) => {
		expect(error).toBeInstanceOf(IgApiError)
		expect(error.kind).toBe('not_found')
	}

	it('a user Instagram answers with a 404, or with data.user null', async () => {
		const ig = context.client()
		notFound(await failure(ig.users.getByUsername('no.such.user.here')))
		notFound(
			await failure(
				under(['/web_profile_info/'], '{"data":{"user":null},"status":"ok"}', () =>
					ig.users.getByUsername(DEMO.luna.username)
				)
			)
		)
		notFound(await failure(ig.users.getById('1999999999')))
		notFound(
			await failure(
				under(
					['/graphql/query', '/users/\\d+/info/'],
					'{"data":{"user":null},"user":null,"status":"ok"}',
					() => ig.users.getById(DEMO.luna.pk)
				)
			)
		)
		notFound(await failure(ig.public.getProfile('no.such.user.here')))
		notFound(
			await failure(
				under(
					['/web_profile_info/', '/graphql/query', '/luna\\.explorer/'],
					'{"data":{"user":null},"status":"ok"}',
					() => ig.public.getProfile(DEMO.luna.username)
				)
			)
		)
	})

	it('a hashtag or a media Instagram answers with a 404; a media info with an empty items list', async () => {
		const ig = context.client()
		notFound(await failure(ig.hashtags.getInfo('neverusedtag123')))
		notFound(await failure(ig.media.getInfo('1234567890123')))
		notFound(
			await failure(
				under(['/media/\\d+/info/'], '{"items":[],"num_results":0,"status":"ok"}', () =>
					ig.media.getInfo(post)
				)
			)
		)
		notFound(await failure(ig.friendships.getStatus('1999999999')))
	})

	it('real answers still read as before', async () => {
		const ig = context.client()
		expect((await ig.users.getByUsername(DEMO.luna.username)).pk).toBe(DEMO.luna.pk)
		expect((await ig.users.getById(DEMO.luna.pk)).username).toBe(DEMO.luna.username)
		expect((await ig.hashtags.getInfo('sunset')).media_count).toBeGreaterThan(0)
		expect((await ig.media.getInfo(post)).pk).toBe(post)
		expect((await ig.account.getCurrentUser()).pk).toBe(DEMO.viewerPk)
		expect((await ig.friendships.getStatus(DEMO.luna.pk)).user_pk).toBe(DEMO.luna.pk)
		const top = await ig.search.top('luna')
		expect(top.users.length).toBeGreaterThan(0)
		expect(Object.keys(await ig.notifications.getCounts()).length).toBeGreaterThan(0)
		expect((await ig.notifications.getActivity()).new_stories.length).toBeGreaterThanOrEqual(0)
		expect((await ig.public.getProfile(DEMO.luna.username)).pk).toBe(DEMO.luna.pk)
		// Only the users list of a blended search is enough (the others may be absent).
		const usersOnly = await under(['/topsearch/'], '{"users":[],"status":"ok"}', () => ig.search.top('luna'))
		expect(usersOnly).toEqual({ users: [], hashtags: [], places: [] })
	})
})

describe('a hashtag watch run', () => {
	it('fails with the malformed answer and stores no snapshot of 0 posts', async () => {
		const store = openStore(':memory:')
		const watches = new WatchStore(store)
		const options = { watches, jobs: new JobStore(store), ig: context.client() }
		const watch = watches.create({
			kind: 'hashtag',
			target: 'sunset',
			every_seconds: 86_400,
			followers: false
		})
		try {
			expectMalformed(
				await failure(under(['/tags/sunset/info/'], '{"status":"ok"}', () => runWatch(watch, options)))
			)
			expect(watches.snapshots(watch.id)).toHaveLength(0)
			const snapshot = await runWatch(watch, options)
			expect(snapshot.media_count).toBeGreaterThan(0)
		} finally {
			store.close()
		}
	})
})

describe('through the playground API', () => {
	const playground = usePlayground({ client: { maxRetries: 0 } })
	const routes: [string, string[]][] = [
		['/api/users/username/luna.explorer', ['/web_profile_info/']],
		['/api/hashtags/info/sunset', ['/tags/sunset/info/']],
		[`/api/friendships/status/${DEMO.luna.pk}`, ['/friendships/show/']],
		['/api/search/top?q=luna', ['/topsearch/']],
		[`/api/media/info/${post}`, ['/media/\\d+/info/']],
		['/api/account/me', ['/current_user/', '/users/\\d+/info/', '/account_information_settings/']]
	]

	for (const [route, paths] of routes)
		it(`${route}: a 200 {"status":"ok"} is a 502 upstream_error envelope`, async () => {
			playground.simulator.faults.set(
				paths.map((pathPattern) => ({ kind: 'wrong_shape', body: '{"status":"ok"}', pathPattern }))
			)
			try {
				const body = await expectFailure(await playground.get(route), 502, 'upstream_error')
				expect(body.error).toContain('malformed answer')
			} finally {
				playground.simulator.faults.clear()
			}
			await expectOk(await playground.get(route))
		})

	it('a user that does not exist is still a 404, whether Instagram says so by status or with data.user null', async () => {
		await expectFailure(await playground.get('/api/users/username/no.such.user.here'), 404, 'not_found')
		playground.simulator.faults.set({
			kind: 'wrong_shape',
			body: '{"data":{"user":null},"status":"ok"}',
			pathPattern: '/web_profile_info/'
		})
		try {
			await expectFailure(await playground.get('/api/users/username/luna.explorer'), 404, 'not_found')
		} finally {
			playground.simulator.faults.clear()
		}
		await expectFailure(await playground.get('/api/hashtags/info/neverusedtag123'), 404, 'not_found')
	})
})
