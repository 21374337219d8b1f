import { describe, expect, it } from 'bun:test'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

describe('/api/account', () => {
	it('GET me: the demo viewer', async () => {
		const body = await expectOk(await playground.get('/api/account/me'))
		expect(body.data).toMatchObject({ pk: '1000000001', username: 'smkit_demo' })
		expect(body.message).toBe('Current user: @smkit_demo')
	})

	it('GET blocked and restricted: lists of users', async () => {
		await expectList(await playground.get('/api/account/blocked'))
		await expectList(await playground.get('/api/account/restricted'))
	})

	it('GET login-activity, privacy and info: objects', async () => {
		for (const path of ['login-activity', 'privacy', 'info']) {
			const body = await expectOk(await playground.get(`/api/account/${path}`))
			expect(typeof body.data).toBe('object')
		}
	})

	it('answers an expired session with 401 login_required', async () => {
		playground.simulator.faults.set({ kind: 'login', pathPattern: 'current_user' })
		try {
			await expectFailure(await playground.get('/api/account/me'), 401, 'login_required')
		} finally {
			playground.simulator.faults.clear()
		}
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
