import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/search', () => {
	it('GET top?q=: users, hashtags and places together', async () => {
		const body = await expectOk(await playground.get('/api/search/top?q=luna'))
		expect(body.data.users.map((user: { username: string }) => user.username)).toContain('luna.explorer')
	})

	it('GET users?q=, hashtags?q=, places?q=: lists', async () => {
		const users = await expectList(await playground.get('/api/search/users?q=luna'))
		expect(users.data[0].username).toBe('luna.explorer')
		const hashtags = await expectList(await playground.get('/api/search/hashtags?q=sun'))
		expect(hashtags.data.map((tag: { name: string }) => tag.name)).toContain('sunset')
		const places = await expectList(await playground.get('/api/search/places?q=paris'))
		expect(places.data.length).toBeGreaterThan(0)
	})

	it('GET explore: posts', async () => {
		expect((await expectList(await playground.get('/api/search/explore'))).data.length).toBeGreaterThan(0)
	})

	it('rejects a missing, empty, blank or overlong q with 400 naming q', async () => {
		for (const query of ['', '?q=', '?q=%20%20', '?q=%09', `?q=${'x'.repeat(201)}`]) {
			for (const path of ['/api/search/users', '/api/search/top', '/api/users/search']) {
				const body = await expectFailure(await playground.get(`${path}${query}`), 400, 'bad_request')
				expect(body.error).toContain("'q'")
			}
		}
		await expectFailure(await playground.get('/api/search/top'), 400, 'bad_request')
		// Spaces around words are fine.
		expect(
			(await expectList(await playground.get('/api/search/users?q=%20luna%20'))).data.length
		).toBeGreaterThan(0)
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
