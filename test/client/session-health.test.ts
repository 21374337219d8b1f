import { afterAll, beforeEach, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { LOGIN_HINT, RECONNECT_HINT, withSessionAdvice } from '../../src/client/session-health'
import { createDemoClient } from '../../src/demo'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startSimulator } from '../../src/simulator/server'

const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
afterAll(() => simulator.stop())
beforeEach(() => {
	simulator.session.set('valid')
	simulator.faults.clear()
})

const newClient = () =>
	new InstagramClient({
		baseURL: simulator.url,
		credentials: { ...DEMO_CREDENTIALS },
		rateLimits: false,
		retryBaseDelayMs: 1
	})

describe('session health', () => {
	it('is none without credentials and unchecked with them until Instagram answers', async () => {
		expect(new InstagramClient({ baseURL: simulator.url }).session.report()).toEqual({
			session: 'none',
			username: null,
			checked_at: null
		})
		const ig = newClient()
		expect(ig.session.state).toBe('unchecked')
		// Anonymous calls say nothing about the session.
		await ig.public.getProfile('luna.explorer')
		expect(ig.session.state).toBe('unchecked')
		const report = await ig.checkSession()
		expect(report.session).toBe('valid')
		expect(report.username).toBe('smkit_demo')
		expect(Date.parse(report.checked_at ?? '')).toBeGreaterThan(0)
	})

	it('flips to expired on the first login_required of a normal call, and back to valid after a good answer', async () => {
		const ig = newClient()
		await ig.checkSession()
		simulator.session.set('expired')
		const failure = await ig.account.getBlockedUsers().catch((error) => error)
		expect(failure).toBeInstanceOf(IgApiError)
		expect((failure as IgApiError).kind).toBe('login_required')
		expect(ig.session.report()).toMatchObject({ session: 'expired', username: null })
		expect((await ig.checkSession()).session).toBe('expired')
		simulator.session.set('valid')
		await ig.account.getBlockedUsers()
		// A good answer proves the session; the username from the last check is kept.
		expect(ig.session.report()).toMatchObject({ session: 'valid', username: 'smkit_demo' })
	})

	it('flips to expired when an answer empties the session cookie, and stays so until new credentials', async () => {
		const ig = newClient()
		await ig.checkSession()
		simulator.session.set('expired')
		// A profile is still answered (as to an anonymous visitor), with sessionid emptied.
		const profile = await ig.users.getByUsername('luna.explorer')
		expect(profile.username).toBe('luna.explorer')
		expect(ig.session.report()).toMatchObject({ session: 'expired', username: null })
		// Answers after it (anonymous ones, as far as smkit can tell) do not make it valid again.
		simulator.session.set('valid')
		await ig.users.getByUsername('luna.explorer')
		expect(ig.session.state).toBe('expired')
		expect((await ig.checkSession()).session).toBe('expired')
		// Connected again, the new session is checked afresh.
		ig.setCredentials({ ...DEMO_CREDENTIALS })
		expect((await ig.checkSession()).session).toBe('valid')
	})

	it('says challenge when Instagram asks for one', async () => {
		const ig = newClient()
		simulator.session.set('challenge')
		expect((await ig.checkSession()).session).toBe('challenge')
	})

	it('keeps the state when the check meets a rate limit or a server error, and throws that error', async () => {
		const ig = newClient()
		await ig.checkSession()
		simulator.faults.set({ kind: 'server_error', status: 503, pathPattern: 'current_user' })
		const failure = await ig.checkSession().catch((error) => error)
		expect((failure as IgApiError).kind).toBe('upstream_error')
		expect(ig.session.state).toBe('valid')
	})

	it('starts over when the credentials change', async () => {
		const ig = newClient()
		await ig.checkSession()
		ig.setCredentials(undefined)
		expect(ig.session.state).toBe('none')
		expect(ig.loggedIn).toBe(false)
		ig.setCredentials({ ...DEMO_CREDENTIALS })
		expect(ig.session.state).toBe('unchecked')
		expect((await ig.checkSession()).session).toBe('valid')
	})

	it('demo clients start valid as the demo account', () => {
		expect(createDemoClient(simulator.url).session.report()).toMatchObject({
			session: 'valid',
			username: 'smkit_demo'
		})
		expect(createDemoClient(simulator.url, { credentials: undefined }).session.state).toBe('none')
	})
})

describe('the simulator session control', () => {
	const control = (init?: RequestInit) =>
		fetch(`${simulator.url}/__sim/session`, { ...init, headers: { 'content-type': 'application/json' } })

	it('reads, sets and resets the demo session state over HTTP', async () => {
		expect(await (await control()).json()).toEqual({ state: 'valid', status: 'ok' })
		const set = await control({ method: 'POST', body: JSON.stringify({ state: 'expired' }) })
		expect(await set.json()).toEqual({ state: 'expired', status: 'ok' })
		const profile = await fetch(`${simulator.url}/api/v1/accounts/current_user/?edit=true`, {
			headers: { cookie: `sessionid=${DEMO_CREDENTIALS.sessionId}` }
		})
		expect(profile.status).toBe(403)
		expect(await profile.json()).toMatchObject({ message: 'login_required', status: 'fail' })
		const bad = await control({ method: 'POST', body: JSON.stringify({ state: 'gone' }) })
		expect(bad.status).toBe(400)
		expect(await bad.json()).toMatchObject({
			message: 'Invalid session state: state must be one of valid, expired, challenge'
		})
		expect((await control({ method: 'POST', body: 'not json' })).status).toBe(400)
		expect(await (await control({ method: 'DELETE' })).json()).toEqual({ state: 'valid', status: 'ok' })
		expect((await control({ method: 'PUT' })).status).toBe(405)
	})
})

describe('withSessionAdvice', () => {
	it('tells a client without credentials it is not logged in, never that a session expired', async () => {
		// Refused by the transport before any request: its message says how to log in or use --demo.
		const never = new InstagramClient({ baseURL: simulator.url, rateLimits: false })
		const missing = await never.users.getByUsername('luna.explorer').catch((error: unknown) => error)
		const advised = withSessionAdvice(missing, never.loggedIn) as Error
		expect(advised.message).toStartWith('Not logged in: connect an account with smkit login')
		expect(advised.message).toContain('--demo')
		expect(advised.message).not.toContain('expired')
		expect(withSessionAdvice(missing)).toBe(missing)
		// Instagram asking anonymous access to log in (a login wall): no session to have expired either.
		const wall = new IgApiError('login_required', 'login required', { upstreamStatus: 401 })
		const walled = (withSessionAdvice(wall, false) as Error).message
		expect(walled).toBe(`login required. Not logged in: ${LOGIN_HINT}`)
	})

	it('says a session Instagram no longer accepts has expired, and how to reconnect', () => {
		const refused = new IgApiError('login_required', 'login required', { upstreamStatus: 403 })
		expect((withSessionAdvice(refused) as Error).message).toBe(
			`login required. The session has expired: to reconnect, ${RECONNECT_HINT}`
		)
		const other = new IgApiError('not_found', 'User not found', { upstreamStatus: 404 })
		expect(withSessionAdvice(other)).toBe(other)
	})
})
