import { describe, expect, it } from 'bun:test'
import { expectFailure, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/hashtags', () => {
	it('GET info/{tag}: hashtag information', async () => {
		const body = await expectOk(await playground.get('/api/hashtags/info/sunset'))
		expect(body.data.name).toBe('sunset')
		expect(body.data.media_count).toBeGreaterThan(0)
		expect(body.message).toBe('Hashtag: #sunset')
	})

	it('GET info/{tag}: 404 for an unknown tag, 400 for one with # or dots', async () => {
		await expectFailure(await playground.get('/api/hashtags/info/nosuchtagxyz'), 404, 'not_found')
		const bad = await expectFailure(await playground.get('/api/hashtags/info/%23sunset'), 400, 'bad_request')
		expect(bad.error).toContain("'tag'")
		await expectFailure(await playground.get('/api/hashtags/info/a.b'), 400, 'bad_request')
	})

	it('GET info/{tag}: a format character or symbol is a 400 naming the tag, as the documented pattern says', async () => {
		// U+202E (right-to-left override), U+00D7 (×), U+2028 (line separator): none a letter, mark or digit.
		for (const encoded of ['%E2%80%AE', 'a%C3%97b', 'a%E2%80%A8b']) {
			const bad = await expectFailure(
				await playground.get(`/api/hashtags/info/${encoded}`),
				400,
				'bad_request'
			)
			expect(bad.error).toContain("'tag'")
		}
		// Letters of any script pass the check and reach Instagram.
		await expectFailure(await playground.get('/api/hashtags/info/caf%C3%A9nosuchtag'), 404, 'not_found')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
