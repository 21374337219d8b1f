import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/public', () => {
	it('GET profile/{username}: the public profile', async () => {
		const body = await expectOk(await playground.get('/api/public/profile/luna.explorer'))
		expect(body.data).toMatchObject({ pk: '1000000002', username: 'luna.explorer' })
		await expectFailure(await playground.get('/api/public/profile/no.such.user.here'), 404, 'not_found')
	})

	it('GET posts/{username}: 12 by default, count bounds it, out of range is 400', async () => {
		const body = await expectList(await playground.get('/api/public/posts/luna.explorer'))
		expect(body.data.length).toBe(12)
		expect(body.data[0].user.username).toBe('luna.explorer')
		expect(
			(await expectList(await playground.get('/api/public/posts/luna.explorer?count=3'))).data.length
		).toBe(3)
		await expectFailure(await playground.get('/api/public/posts/luna.explorer?count=201'), 400, 'bad_request')
		await expectFailure(await playground.get('/api/public/posts/bad..name%3F'), 400, 'bad_request')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
