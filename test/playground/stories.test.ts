import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, usePlayground } from './support'

const playground = usePlayground()

describe('/api/stories', () => {
	it("GET user/{user_pk}: a user's active stories", async () => {
		const body = await expectList(await playground.get('/api/stories/user/1000000002'))
		expect(body.data.length).toBeGreaterThan(0)
		expect(body.message).toContain('Stories of 1000000002')
	})

	it('GET highlights/{user_pk}: the highlights tray', async () => {
		const body = await expectList(await playground.get('/api/stories/highlights/1000000002'))
		expect(typeof body.data[0].title).toBe('string')
	})

	it("GET tray: the viewer's stories tray", async () => {
		expect((await expectList(await playground.get('/api/stories/tray'))).data.length).toBeGreaterThan(0)
	})

	it('rejects a non-numeric user pk with 400', async () => {
		const body = await expectFailure(
			await playground.get('/api/stories/user/luna.explorer'),
			400,
			'bad_request'
		)
		expect(body.error).toContain("'user_pk'")
		await expectFailure(await playground.get('/api/stories/highlights/12ab'), 400, 'bad_request')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
