/**
 * A session check whose answer ends the session (`Set-Cookie: sessionid=""`, Instagram answering
 * as to an anonymous visitor) says expired, whatever the body: the check, the start-up line,
 * connecting an account and `smkit login` all refuse it, and nothing is saved.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InstagramClient } from '../../src/client/client'
import { checkImportedSession, refusalMessage } from '../../src/session/connect'
import { runLogin } from '../../src/session/login'
import { describeSession } from '../../src/session/start-line'
import { startUpstream } from '../support/upstream'

const CREDENTIALS = {
	sessionId: '1000000001%3Aended%3A12',
	csrfToken: 'csrf-ended-1',
	dsUserId: '1000000001'
}
const COOKIES = `sessionid=${CREDENTIALS.sessionId}; csrftoken=${CREDENTIALS.csrfToken}; ds_user_id=${CREDENTIALS.dsUserId}`

const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	// The viewer's profile is answered, but the session cookie is emptied: the session is over.
	'/api/v1/accounts/current_user/': () =>
		Response.json(
			{ user: { pk: '1000000001', username: 'smkit_demo' }, status: 'ok' },
			{ headers: { 'set-cookie': 'sessionid=""; Path=/; Max-Age=0' } }
		)
})
const folder = mkdtempSync(join(tmpdir(), 'smkit-ended-session-'))
afterAll(() => {
	upstream.stop(true)
	rmSync(folder, { recursive: true, force: true })
})

const client = () =>
	new InstagramClient({ baseURL: upstream.url.href, credentials: { ...CREDENTIALS }, rateLimits: false })

describe('a session check answered with the session cookie emptied', () => {
	it('reports expired, not valid', async () => {
		const ig = client()
		const report = await ig.checkSession()
		expect(report).toMatchObject({ session: 'expired', username: null })
		expect(ig.session.state).toBe('expired')
	})

	it('makes the start-up line say Instagram does not accept the session', async () => {
		const line = await describeSession(client(), 'not logged in')
		expect(line).toStartWith('Instagram: Instagram does not accept this session (login_required)')
		expect(line).not.toContain('session valid')
	})

	it('is refused when an account is connected from cookies', async () => {
		const checked = await checkImportedSession(COOKIES, { baseURL: upstream.url.href })
		expect(checked.report.session).toBe('expired')
		expect(refusalMessage(checked.report)).toStartWith('Instagram does not accept this session')
	})

	it('makes smkit login refuse it and save nothing', async () => {
		const envPath = join(folder, 'login.env')
		const cookies = join(folder, 'cookies.txt')
		writeFileSync(envPath, `SMKIT_UPSTREAM_URL=${upstream.url.href}\n`, { mode: 0o600 })
		writeFileSync(cookies, COOKIES)
		const failure = await runLogin({ cookies, env: envPath }).catch((error: unknown) => error)
		expect(failure).toBeInstanceOf(Error)
		expect((failure as Error).message).toStartWith('Instagram does not accept this session (login_required)')
		expect((failure as Error).message).toEndWith('Nothing was saved')
		expect(existsSync(envPath) && readFileSync(envPath, 'utf8')).toBe(
			`SMKIT_UPSTREAM_URL=${upstream.url.href}\n`
		)
	})
})
