import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, usePlayground } from './support'

const playground = usePlayground()

describe('/api/feed', () => {
	it('GET user/{user_pk}: 12 posts by default, a next_cursor that resumes', async () => {
		const first = await expectList(await playground.get('/api/feed/user/1000000002'))
		expect(first.data.length).toBe(12)
		expect(first.message).toBe('Feed of 1000000002: 12 posts')
		expect(typeof first.next_cursor).toBe('string')
		const next = await expectList(
			await playground.get(
				`/api/feed/user/1000000002?count=5&cursor=${encodeURIComponent(first.next_cursor)}`
			)
		)
		expect(next.data.length).toBe(5)
		const seen = new Set(first.data.map((media: { pk: string }) => media.pk))
		for (const media of next.data) expect(seen.has(media.pk)).toBe(false)
	})

	it('GET user/{user_pk}?count=: pages upstream until count; out of 1-200 is a 400', async () => {
		const body = await expectList(await playground.get('/api/feed/user/1000000002?count=40'))
		expect(body.data.length).toBe(40)
		expect(new Set(body.data.map((media: { pk: string }) => media.pk)).size).toBe(40)
		for (const count of ['0', '201', '-1', '1.5', 'abc']) {
			await expectFailure(
				await playground.get(`/api/feed/user/1000000002?count=${count}`),
				400,
				'bad_request'
			)
		}
	})

	it("GET user/{user_pk}: a private account's feed is 403 private_account", async () => {
		await expectFailure(await playground.get('/api/feed/user/1000000003'), 403, 'private_account')
	})

	it('GET tag/{hashtag}: posts of a hashtag; 400 with # or a slash', async () => {
		const body = await expectList(await playground.get('/api/feed/tag/sunset'))
		expect(body.data.length).toBeGreaterThan(0)
		await expectFailure(await playground.get('/api/feed/tag/%23sunset'), 400, 'bad_request')
		await expectFailure(await playground.get('/api/feed/tag/sun%2Fset'), 400, 'bad_request')
	})

	it("GET liked and saved: the viewer's liked posts and saved collections", async () => {
		expect((await expectList(await playground.get('/api/feed/liked'))).data.length).toBeGreaterThan(0)
		expect((await expectList(await playground.get('/api/feed/saved'))).data.length).toBeGreaterThan(0)
		await expectFailure(await playground.get('/api/feed/liked?count=500'), 400, 'bad_request')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
