import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

const pks = (body: { data: { pk: string }[] }) => body.data.map((user) => user.pk)

describe('/api/friendships', () => {
	it('GET followers/{user_pk}: 50 by default, more on request, cursor resumes without repeats', async () => {
		const first = await expectList(await playground.get('/api/friendships/followers/1000000002'))
		expect(first.data.length).toBe(50)
		expect(typeof first.next_cursor).toBe('string')
		const many = await expectList(await playground.get('/api/friendships/followers/1000000002?count=120'))
		expect(new Set(pks(many)).size).toBe(120)
		const next = await expectList(
			await playground.get(
				`/api/friendships/followers/1000000002?cursor=${encodeURIComponent(first.next_cursor)}`
			)
		)
		const seen = new Set(pks(first))
		for (const pk of pks(next)) expect(seen.has(pk)).toBe(false)
	})

	it('GET followers/{user_pk}?count=: 1-1000, else 400', async () => {
		await expectFailure(
			await playground.get('/api/friendships/followers/1000000002?count=1001'),
			400,
			'bad_request'
		)
		await expectFailure(
			await playground.get('/api/friendships/followers/1000000002?count=0'),
			400,
			'bad_request'
		)
		expect(
			(await expectList(await playground.get('/api/friendships/followers/1000000002?count=1'))).data.length
		).toBe(1)
	})

	it('GET followers/{user_pk}?q=: only the followers whose username or full name contains it', async () => {
		const all = (await expectList(await playground.get('/api/friendships/followers/1000000002?count=1000')))
			.data as {
			pk: string
			username: string
			full_name: string
		}[]
		const text = 'an'
		// Names match without case or accents: "Ána" contains "an".
		const plain = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
		const expected = all.filter(
			(user) => user.username.includes(text) || plain(user.full_name).includes(text)
		)
		expect(expected.length).toBeGreaterThan(0)
		expect(expected.length).toBeLessThan(all.length)
		const found = await expectList(
			await playground.get(`/api/friendships/followers/1000000002?q=${text}&count=1000`)
		)
		expect(pks(found)).toEqual(expected.map((user) => user.pk))
		expect(found.message).toBe(`Followers of 1000000002 matching "${text}": ${expected.length} users`)
		const empty = await expectFailure(
			await playground.get('/api/friendships/followers/1000000002?q='),
			400,
			'bad_request'
		)
		expect(empty.error).toBe("Invalid query parameter 'q': expected 1-100 characters, not only spaces")
	})

	it('GET following/{user_pk}: 50 by default', async () => {
		expect(
			(await expectList(await playground.get('/api/friendships/following/1000000002'))).data.length
		).toBe(50)
	})

	it("GET followers with a cursor Instagram refuses: 400 naming the cursor, with Instagram's words", async () => {
		const bad = await expectFailure(
			await playground.get('/api/friendships/followers/1000000002?cursor=garbage'),
			400,
			'bad_request'
		)
		expect(bad.error).toBe(
			'cursor is not a next_cursor this list returned: Instagram refused it (Invalid max_id)'
		)
	})

	it("GET followers of a private account the viewer doesn't follow: 403 private_account", async () => {
		await expectFailure(await playground.get('/api/friendships/followers/1000000003'), 403, 'private_account')
	})

	it('GET status/{user_pk}, mutual/{user_pk}, pending', async () => {
		const status = await expectOk(await playground.get('/api/friendships/status/1000000002'))
		expect(typeof status.data.following).toBe('boolean')
		await expectList(await playground.get('/api/friendships/mutual/1000000002'))
		await expectList(await playground.get('/api/friendships/pending'))
		await expectFailure(await playground.get('/api/friendships/status/abc'), 400, 'bad_request')
	})

	it('GET pending: Instagram sends the requests in one piece, so only their own cursors page them', async () => {
		const all = await expectList(await playground.get('/api/friendships/pending?count=200'))
		expect(all.data.length).toBeGreaterThan(3)
		const first = await expectList(await playground.get('/api/friendships/pending?count=3'))
		expect(typeof first.next_cursor).toBe('string')
		const next = await expectList(
			await playground.get(`/api/friendships/pending?count=3&cursor=${encodeURIComponent(first.next_cursor)}`)
		)
		expect([...pks(first), ...pks(next)]).toEqual(pks(all).slice(0, 6))
		// Any other cursor would be ignored upstream and answer the first requests again as the next ones.
		for (const other of ['garbage', 'QVFDupstream', '~p2.x', '~p1.e30']) {
			const bad = await expectFailure(
				await playground.get(`/api/friendships/pending?count=3&cursor=${other}`),
				400,
				'bad_request'
			)
			expect(bad.error).toContain('cursor')
		}
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
