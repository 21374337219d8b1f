import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

// A real shortcode/pk pair; the pk is beyond 2^53, so it must survive as an exact string.
const PK = '3842790443716764595'

describe('/api/media', () => {
	it('GET info/{media_pk}: the media with its exact 19-digit pk', async () => {
		const body = await expectOk(await playground.get(`/api/media/info/${PK}`))
		expect(body.data).toMatchObject({ pk: PK, code: 'DVUVYxwAOOz', user: { username: 'luna.explorer' } })
		expect(body.message).toBe(`Media: ${PK}`)
	})

	it('GET info/{media_pk}: 404 for unknown media, 400 for a non-numeric pk', async () => {
		await expectFailure(await playground.get('/api/media/info/1234'), 404, 'not_found')
		const bad = await expectFailure(await playground.get('/api/media/info/DVUVYxwAOOz'), 400, 'bad_request')
		expect(bad.error).toContain("'media_pk'")
	})

	it('GET full/{media_pk} and v2/{media_pk}', async () => {
		expect((await expectOk(await playground.get(`/api/media/full/${PK}`))).data.pk).toBe(PK)
		expect((await expectOk(await playground.get(`/api/media/v2/${PK}`))).data.pk).toBe(PK)
	})

	it('GET by-url?url=: media by its post URL; 400 for something else', async () => {
		const url = encodeURIComponent('https://www.instagram.com/p/DVUVYxwAOOz/')
		const body = await expectOk(await playground.get(`/api/media/by-url?url=${url}`))
		expect(body.data.pk).toBe(PK)
		await expectFailure(await playground.get('/api/media/by-url?url=not-a-url'), 400, 'bad_request')
		await expectFailure(await playground.get('/api/media/by-url'), 400, 'bad_request')
	})

	it('GET by-url takes a URL of 2048 characters, as its schema says, and refuses 2049', async () => {
		const base = 'https://www.instagram.com/p/DVUVYxwAOOz/?utm_source='
		const at = (length: number) => `/api/media/by-url?url=${encodeURIComponent(base.padEnd(length, 'a'))}`
		expect((await expectOk(await playground.get(at(2048)))).data.pk).toBe(PK)
		await expectFailure(await playground.get(at(2049)), 400, 'bad_request')
	})

	it('GET likers/{media_pk}: a list of users', async () => {
		const body = await expectList(await playground.get(`/api/media/likers/${PK}`))
		expect(body.data.length).toBeGreaterThan(0)
		expect(typeof body.data[0].username).toBe('string')
	})

	it('GET likers/{media_pk}: Instagram sends likers in one piece, so only their own cursors page them', async () => {
		const first = await expectList(await playground.get(`/api/media/likers/${PK}?count=1`))
		expect(typeof first.next_cursor).toBe('string')
		const cursor = encodeURIComponent(first.next_cursor)
		const next = await expectList(await playground.get(`/api/media/likers/${PK}?count=1&cursor=${cursor}`))
		expect(next.data[0].pk).not.toBe(first.data[0].pk)
		// Any other cursor would be ignored upstream and answer the first likers again as the next ones.
		for (const other of ['QVFDupstream', '~p2.x']) {
			const bad = await expectFailure(
				await playground.get(`/api/media/likers/${PK}?cursor=${other}`),
				400,
				'bad_request'
			)
			expect(bad.error).toContain('cursor')
		}
	})

	it('GET comments/{media_pk}: count bounds the list and cursor resumes it', async () => {
		const first = await expectList(await playground.get(`/api/media/comments/${PK}?count=5`))
		expect(first.data.length).toBe(5)
		expect(typeof first.next_cursor).toBe('string')
		const next = await expectList(
			await playground.get(
				`/api/media/comments/${PK}?count=5&cursor=${encodeURIComponent(first.next_cursor)}`
			)
		)
		const firstIds = new Set(first.data.map((comment: { pk: string }) => comment.pk))
		expect(next.data.length).toBeGreaterThan(0)
		for (const comment of next.data) expect(firstIds.has(comment.pk)).toBe(false)
		const bad = await expectFailure(
			await playground.get(`/api/media/comments/${PK}?count=0`),
			400,
			'bad_request'
		)
		expect(bad.error).toContain("'count'")
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
