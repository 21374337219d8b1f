import { describe, expect, it } from 'bun:test'
import { NOT_LOGGED_IN_MESSAGE } from '../../src/playground/envelope'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

// Without Instagram credentials: the server works, public endpoints answer, the rest say how to log in.
const playground = usePlayground({ loggedIn: false })

const loggedInEndpoints = [
	'/api/users/id/1000000002',
	'/api/users/search?q=luna',
	'/api/media/info/3842790443716764595',
	'/api/feed/user/1000000002',
	'/api/feed/liked',
	'/api/search/top?q=luna',
	'/api/stories/tray',
	'/api/friendships/followers/1000000002',
	'/api/account/me',
	'/api/hashtags/info/sunset',
	'/api/notifications/counts',
	'/api/direct/inbox'
]

describe('without credentials', () => {
	it('reports logged_in false', async () => {
		const body = await expectOk(await playground.get('/api/status'))
		expect(body.data.logged_in).toBe(false)
	})

	it('answers logged-in endpoints with 401 login_required naming the variables and --demo', async () => {
		for (const path of loggedInEndpoints) {
			const body = await expectFailure(await playground.get(path), 401, 'login_required')
			expect(body.error).toBe(NOT_LOGGED_IN_MESSAGE)
			expect(body.error).toContain('SESSION_ID')
			expect(body.error).toContain('--demo')
		}
	})

	it('serves the public endpoints anonymously', async () => {
		const profile = await expectOk(await playground.get('/api/public/profile/luna.explorer'))
		expect(profile.data.username).toBe('luna.explorer')
		const posts = await expectList(await playground.get('/api/public/posts/luna.explorer?count=3'))
		expect(posts.data.length).toBe(3)
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
