import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/notifications', () => {
	it('GET /api/notifications: the raw activity with counts', async () => {
		const body = await expectOk(await playground.get('/api/notifications'))
		expect(typeof body.data.counts).toBe('object')
	})

	it('GET counts: numbers by kind', async () => {
		const body = await expectOk(await playground.get('/api/notifications/counts'))
		for (const value of Object.values(body.data)) expect(typeof value).toBe('number')
	})

	it('GET parsed, follows, likes: lists; follows only hold follows', async () => {
		const parsed = await expectList(await playground.get('/api/notifications/parsed'))
		const follows = await expectList(await playground.get('/api/notifications/follows'))
		const likes = await expectList(await playground.get('/api/notifications/likes'))
		expect(parsed.data.length).toBeGreaterThanOrEqual(follows.data.length + likes.data.length)
		expect(follows.data.length).toBeGreaterThan(0)
		for (const item of follows.data) expect(item.notif_name).toContain('follow')
	})

	it('rejects an out-of-range count with 400', async () => {
		await expectFailure(await playground.get('/api/notifications/parsed?count=0'), 400, 'bad_request')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
