import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import type { Simulator } from '../../src/simulator/server'
import { readBody, SESSION_COOKIE, sessionGet, sessionPost, startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const LOGIN_REQUIRED = { message: 'login_required', require_login: true, status: 'fail' }
const SESSION_PATHS = [
	'/api/v1/users/1000000002/info/',
	'/api/v1/feed/user/1000000002/',
	'/api/v1/friendships/1000000002/followers/',
	'/api/v1/media/3842790443716764595/info/',
	'/api/v1/web/search/topsearch/?query=luna&context=blended',
	'/api/v1/accounts/current_user/?edit=true',
	'/api/v1/direct_v2/inbox/'
]

describe('session cookie check', () => {
	it('answers 403 login_required without a cookie', async () => {
		for (const path of SESSION_PATHS) {
			const { status, body } = await readBody(await fetch(`${simulator.url}${path}`))
			expect({ path, status, body }).toEqual({ path, status: 403, body: LOGIN_REQUIRED })
		}
	})

	it('answers 403 login_required for a wrong sessionid', async () => {
		const response = await fetch(`${simulator.url}/api/v1/users/1000000002/info/`, {
			headers: { cookie: 'sessionid=1000000001%3Awrong%3A1%3Anope; csrftoken=x' }
		})
		expect(await readBody(response)).toMatchObject({ status: 403, body: LOGIN_REQUIRED })
	})

	it('accepts the demo session, also URL-decoded', async () => {
		expect((await sessionGet(simulator, '/api/v1/users/1000000002/info/')).status).toBe(200)
		const decoded = `sessionid=${decodeURIComponent(DEMO_CREDENTIALS.sessionId)}`
		const response = await fetch(`${simulator.url}/api/v1/users/1000000002/info/`, {
			headers: { cookie: decoded }
		})
		expect(response.status).toBe(200)
	})

	it('requires the csrftoken cookie and a matching x-csrftoken header on POSTs', async () => {
		const path = '/api/v1/news/inbox/'
		const noHeader = await fetch(`${simulator.url}${path}`, {
			method: 'POST',
			headers: { cookie: SESSION_COOKIE }
		})
		expect(await readBody(noHeader)).toMatchObject({ status: 403, body: LOGIN_REQUIRED })
		const wrongHeader = await fetch(`${simulator.url}${path}`, {
			method: 'POST',
			headers: { cookie: SESSION_COOKIE, 'x-csrftoken': 'not-the-token' }
		})
		expect(wrongHeader.status).toBe(403)
		expect((await sessionPost(simulator, path)).status).toBe(200)
	})

	it('serves the anonymous paths without a cookie', async () => {
		const profile = await fetch(`${simulator.url}/api/v1/users/web_profile_info/?username=luna.explorer`)
		expect(profile.status).toBe(200)
		const hash = await fetch(
			`${simulator.url}/graphql/query/?query_hash=c9100bf9110dd6361671f113dd02e7d6&variables=${encodeURIComponent('{"username":"luna.explorer"}')}`
		)
		expect(hash.status).toBe(200)
		expect((await fetch(`${simulator.url}/luna.explorer/`)).status).toBe(200)
		expect((await fetch(`${simulator.url}/p/DVUVYxwAOOz/embed/captioned/`)).status).toBe(200)
	})

	it('keeps the other query hashes behind the session', async () => {
		const liked = await fetch(
			`${simulator.url}/graphql/query/?query_hash=d5d763b1e2acf209d62d22d184488e57&variables={}`
		)
		expect(await readBody(liked)).toMatchObject({ status: 403, body: LOGIN_REQUIRED })
	})
})

describe('routing', () => {
	it('answers unknown API paths with a 404 fail body and wrong methods with 405', async () => {
		expect(await readBody(await sessionGet(simulator, '/api/v1/no/such/path/'))).toMatchObject({
			status: 404,
			body: { status: 'fail' }
		})
		expect((await sessionGet(simulator, '/api/v1/friendships/create/1000000002/')).status).toBe(405)
	})

	it('matches paths with or without the trailing slash', async () => {
		expect((await sessionGet(simulator, '/api/v1/users/1000000002/info')).status).toBe(200)
	})

	it('answers the warm-up with the www-claim header and a server revision', async () => {
		const response = await fetch(`${simulator.url}/api/v1/web/fxcal/ig_sso_users/`, {
			headers: { cookie: SESSION_COOKIE }
		})
		expect(response.status).toBe(200)
		expect(response.headers.get('x-ig-set-www-claim')).toStartWith('hmac.')
		expect(await response.text()).toMatch(/"server_revision":\d+/)
	})

	it('refreshes only the demo session on one_tap_web_login', async () => {
		const good = await sessionPost(simulator, '/api/v1/web/accounts/one_tap_web_login/', {
			user_id: DEMO_CREDENTIALS.dsUserId
		})
		expect(good.status).toBe(200)
		const bad = await fetch(`${simulator.url}/api/v1/web/accounts/one_tap_web_login/`, {
			method: 'POST',
			body: 'user_id=1'
		})
		expect(bad.status).toBe(400)
		expect(bad.headers.get('set-cookie')).toContain('sessionid=delete')
	})
})
