import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/users', () => {
	it('GET username/{username}: the profile, ids as strings', async () => {
		const body = await expectOk(await playground.get('/api/users/username/luna.explorer'))
		expect(body.message).toBe('Profile: @luna.explorer')
		expect(body.data).toMatchObject({ pk: '1000000002', username: 'luna.explorer', is_verified: true })
		expect(body.data.follower_count).toBeGreaterThan(200)
		// Instagram's usernames are lower case: the message names the account as Instagram does.
		const shouted = await expectOk(await playground.get('/api/users/username/Luna.Explorer'))
		expect(shouted.message).toBe('Profile: @luna.explorer')
		expect(shouted.data.username).toBe('luna.explorer')
	})

	it('GET username/{username}: 404 for an unknown user, 400 for an impossible name', async () => {
		await expectFailure(await playground.get('/api/users/username/no.such.user.here'), 404, 'not_found')
		const bad = await expectFailure(
			await playground.get('/api/users/username/bad%24name'),
			400,
			'bad_request'
		)
		expect(bad.error).toContain("'username'")
		await expectFailure(await playground.get(`/api/users/username/${'a'.repeat(31)}`), 400, 'bad_request')
	})

	it('GET id/{user_id}: the profile by pk; 400 for a non-numeric id', async () => {
		const body = await expectOk(await playground.get('/api/users/id/1000000002'))
		expect(body.data.username).toBe('luna.explorer')
		const bad = await expectFailure(await playground.get('/api/users/id/luna'), 400, 'bad_request')
		expect(bad.error).toContain("'user_id'")
	})

	it('GET search?q=: a list of short users; 400 without q', async () => {
		const body = await expectList(await playground.get('/api/users/search?q=luna'))
		expect(body.data.map((user: { username: string }) => user.username)).toContain('luna.explorer')
		const missing = await expectFailure(await playground.get('/api/users/search'), 400, 'bad_request')
		expect(missing.error).toContain("'q'")
	})

	it('GET full/{username}: the full profile', async () => {
		const body = await expectOk(await playground.get('/api/users/full/luna.explorer'))
		expect(body.message).toBe('Full profile: @luna.explorer')
		expect(body.data.username).toBe('luna.explorer')
	})

	it('GET bio/{username}: emails, phones, links, mentions and hashtags', async () => {
		const body = await expectOk(await playground.get('/api/users/bio/luna.explorer'))
		expect(body.data.bio_emails).toEqual(['luna.explorer@example.com'])
		expect(body.data.bio_phones.length).toBe(1)
		expect(body.data.bio_mentions).toContain('smkit_demo')
		expect(body.data.bio_hashtags).toContain('travel')
		await expectFailure(await playground.get('/api/users/bio/no.such.user.here'), 404, 'not_found')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
