/**
 * Instagram's `login_required` to an anonymous request (the playground's `/api/public/*` send no
 * cookie) is a logged-out visitor turned away, not an expired session: the answer says so and
 * names the logged-in route, never "reconnect", and the session state stays valid.
 */
import { afterEach, describe, expect, it } from 'bun:test'
import { IgApiError } from '../../src/client/errors'
import { withSessionAdvice } from '../../src/client/session-health'
import { toFailure } from '../../src/server/errors'
import { expectFailure, expectNoLeaks, usePlayground } from '../playground/support'

const playground = usePlayground()
afterEach(() => playground.simulator.faults.clear())

/** Every anonymous strategy of the public profile and posts refused as to a logged-out visitor. */
const refuseAnonymous = () =>
	playground.simulator.faults.set({
		kind: 'login',
		pathPattern: '^/(api/v1/users/web_profile_info/|graphql/query/|api/v1/feed/user/|luna\\.explorer/)'
	})

describe('login_required to an anonymous request', () => {
	it('says Instagram refused a logged-out request and names the logged-in route, without "reconnect"', async () => {
		expect((await playground.json('/api/status')).body.data.session).toBe('valid')
		refuseAnonymous()
		const profile = await expectFailure(
			await playground.get('/api/public/profile/Luna.Explorer'),
			401,
			'login_required'
		)
		expect(profile.error).toContain('Instagram refused an anonymous (logged-out) request')
		expect(profile.error).toContain('GET /api/users/username/luna.explorer')
		expect(profile.error).not.toMatch(/expired|reconnect|smkit login/)
		const posts = await expectFailure(
			await playground.get('/api/public/posts/luna.explorer'),
			401,
			'login_required'
		)
		expect(posts.error).toContain('Instagram refused an anonymous (logged-out) request')
		expect(posts.error).toContain('GET /api/feed/user/{user_pk}')
		expect(posts.error).not.toMatch(/expired|reconnect/)
		// The history carries the same words; the session is as it was.
		const history: { path: string; error?: string }[] = (await playground.json('/api/history')).body.data
		expect(history.find((entry) => entry.path === '/api/public/profile/Luna.Explorer')?.error).toBe(
			profile.error
		)
		expect((await playground.json('/api/status')).body.data).toMatchObject({
			session: 'valid',
			client_ready: true
		})
		playground.simulator.faults.clear()
		expect((await playground.get('/api/public/profile/luna.explorer')).status).toBe(200)
	})

	it('reaches the agent, MCP and the command line with the same meaning, from the client itself', async () => {
		refuseAnonymous()
		const error = await playground.ig.public.getProfile('luna.explorer').then(
			() => undefined,
			(failure: unknown) => failure
		)
		expect(error).toBeInstanceOf(IgApiError)
		expect((error as IgApiError).anonymous).toBe(true)
		const { status, body } = toFailure(error, 'UNKNOWN', { server: 'mcp', loggedIn: true })
		expect(status).toBe(401)
		expect(body.error).toContain('Instagram refused an anonymous (logged-out) request')
		expect(body.error).not.toMatch(/expired|reconnect/)
		// Without a session there is none to ask with: how to connect one instead.
		const anonymous = toFailure(error, 'UNKNOWN', { server: 'mcp', loggedIn: false }).body.error
		expect(anonymous).toContain('Instagram refused an anonymous (logged-out) request')
		expect(anonymous).toContain('need an account: connect an account with smkit login')
		expect(anonymous).not.toContain('ask with the session')
		const advised = withSessionAdvice(error, true) as Error
		expect(advised.message).toContain('Instagram refused an anonymous (logged-out) request')
		expect(advised.message).not.toMatch(/expired|reconnect/)
		expect((await playground.json('/api/status')).body.data.session).toBe('valid')
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
