import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, usePlayground } from './support'

const playground = usePlayground()

describe('/api/direct', () => {
	it('GET inbox: threads, with a cursor for older ones', async () => {
		const first = await expectList(await playground.get('/api/direct/inbox'))
		expect(first.data.length).toBeGreaterThan(0)
		expect(typeof first.data[0].thread_id).toBe('string')
		if (first.next_cursor) {
			const older = await expectList(
				await playground.get(`/api/direct/inbox?cursor=${encodeURIComponent(first.next_cursor)}`)
			)
			const seen = new Set(first.data.map((thread: { thread_id: string }) => thread.thread_id))
			for (const thread of older.data) expect(seen.has(thread.thread_id)).toBe(false)
		}
	})

	it('is read-only: POST and DELETE are 405', async () => {
		await expectFailure(
			await playground.request('POST', '/api/direct/inbox', { body: {} }),
			405,
			'method_not_allowed'
		)
		await expectFailure(await playground.request('DELETE', '/api/direct/inbox'), 405, 'method_not_allowed')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
