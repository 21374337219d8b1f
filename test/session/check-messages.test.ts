/**
 * What the start-up line and `smkit login` say when the session check gets no verdict in time: a
 * rate limit being waited out is named as such, and a login check that ran out of time says what
 * did not answer and what to do, never a bare "The operation timed out."
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { checkCookies } from '../../src/session/login'
import { describeSession } from '../../src/session/start-line'
import { startUpstream } from '../support/upstream'

const CREDENTIALS = {
	sessionId: '1000000001%3Acheck%3A12',
	csrfToken: 'csrf-check-1',
	dsUserId: '1000000001'
}
const COOKIES = `sessionid=${CREDENTIALS.sessionId}; csrftoken=${CREDENTIALS.csrfToken}; ds_user_id=${CREDENTIALS.dsUserId}`

const throttling = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	'/api/v1/accounts/current_user/': () =>
		Response.json(
			{ message: 'Please wait a few minutes before you try again.', status: 'fail' },
			{ status: 429, headers: { 'retry-after': '2' } }
		)
})
// Accepts every request and never answers it.
const silent = startUpstream({ '/*': () => new Promise<Response>(() => {}) })
afterAll(() => {
	throttling.stop(true)
	silent.stop(true)
})

describe('the start-up line', () => {
	it('names the rate limit when its deadline hits while the client waits one out', async () => {
		const ig = new InstagramClient({ baseURL: throttling.url.href, credentials: { ...CREDENTIALS } })
		const line = await describeSession(ig, 'not logged in', 300)
		expect(line).toBe('Instagram: credentials set, session not checked (rate limited by Instagram)')
		expect(ig.session.state).toBe('unchecked')
	})

	it('still says no answer when Instagram gave none', async () => {
		const ig = new InstagramClient({ baseURL: silent.url.href, credentials: { ...CREDENTIALS } })
		expect(await describeSession(ig, 'not logged in', 300)).toBe(
			'Instagram: credentials set, session not checked (no answer)'
		)
	})
})

describe('smkit login against an Instagram that never answers', () => {
	it('says what timed out, that nothing was saved and what to do', async () => {
		const failure = await checkCookies(COOKIES, { baseURL: silent.url.href }, false, 300).catch(
			(error: unknown) => error
		)
		expect((failure as Error).message).toBe(
			'Could not check the session with Instagram: Instagram did not answer within 0.3 s: check the network connection and SMKIT_UPSTREAM_URL. Nothing was saved; retry, or use --skip-check to save it unchecked'
		)
	})
})
