import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { getJson, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

describe('the viewer account', () => {
	it('answers the current user with private fields', async () => {
		const { body } = await getJson(simulator, '/api/v1/accounts/current_user/?edit=true')
		expect(body.user.pk).toBe(DEMO_CREDENTIALS.dsUserId)
		expect(body.user.username).toBe(DEMO_PRESETS.viewer.username)
		expect(body.user.email).toBe('smkit.demo@example.com')
		expect(body.user.is_private).toBe(true)
	})

	it('lists blocked accounts as {user_id, username}', async () => {
		const { body } = await getJson(simulator, '/api/v1/users/blocked_list/')
		expect(body.blocked_list).toHaveLength(3)
		expect(Object.keys(body.blocked_list[0])).toEqual(expect.arrayContaining(['user_id', 'username']))
		const next = await getJson(
			simulator,
			`/api/v1/users/blocked_list/?max_id=${encodeURIComponent(body.next_max_id)}`
		)
		expect(next.body.blocked_list).toHaveLength(2)
		expect(next.body.next_max_id).toBeNull()
		expect(
			[...body.blocked_list, ...next.body.blocked_list].map((entry: { user_id: string }) => entry.user_id)
		).toEqual(simulator.state.data.graph.blocked)
	})

	it('lists restricted accounts, login sessions, privacy and account information', async () => {
		const restricted = (await getJson(simulator, '/api/v1/restrict_action/restricted_users/')).body
		expect(restricted.users).toHaveLength(2)
		const rest = await getJson(
			simulator,
			`/api/v1/restrict_action/restricted_users/?max_id=${encodeURIComponent(restricted.next_max_id)}`
		)
		expect(rest.body.users).toHaveLength(1)
		expect(rest.body.next_max_id).toBeNull()
		const activity = (await getJson(simulator, '/api/v1/session/login_activity/')).body
		expect(activity.sessions.filter((session: { is_current: boolean }) => session.is_current)).toHaveLength(1)
		const privacy = (await getJson(simulator, '/api/v1/accounts/privacy_and_security_info/')).body
		expect(privacy).toMatchObject({ is_private: true, two_factor_enabled: true, status: 'ok' })
		const info = (await getJson(simulator, '/api/v1/accounts/account_information_settings/')).body
		expect(info).toMatchObject({ username: 'smkit_demo', email: 'smkit.demo@example.com', status: 'ok' })
	})
})
