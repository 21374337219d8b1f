/**
 * Values Instagram sets (`Set-Cookie`) while answering the session check of Connect account and
 * `smkit login` replace the exported ones, as after every other answer (docs/instagram.md,
 * "Session updates"): the playground's next request sends them, and the environment file holds them.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadEnvFile } from '../../src/client/env'
import { runLogin } from '../../src/session/login'
import { expectOk, startPlayground } from '../playground/support'
import { startUpstream } from '../support/upstream'

const EXPORTED = {
	sessionId: '1000000001%3AEXPORTED-SESSION%3A12',
	csrfToken: 'EXPORTED-CSRF-1a2b',
	dsUserId: '1000000001'
}
const FRESH_SESSION = '1000000001%3AFRESH-SESSION%3A13'
const FRESH_CSRF = 'FRESH-CSRF-9z8y'
const COOKIES = `sessionid=${EXPORTED.sessionId}; csrftoken=${EXPORTED.csrfToken}; ds_user_id=${EXPORTED.dsUserId}`

/** The Cookie header of each request for a profile, as Instagram received it. */
const sent: string[] = []
const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	// The check is answered, and Instagram hands the session new values with it.
	'/api/v1/accounts/current_user/': () =>
		Response.json(
			{ user: { pk: '1000000001', username: 'smkit_demo' }, status: 'ok' },
			{
				headers: [
					['set-cookie', `sessionid=${FRESH_SESSION}; Path=/; Secure; HttpOnly`],
					['set-cookie', `csrftoken=${FRESH_CSRF}; Path=/; Secure`]
				]
			}
		),
	'/api/v1/users/web_profile_info/': (request: Request) => {
		sent.push(request.headers.get('cookie') ?? '')
		return Response.json({ data: { user: { id: '1000000002', username: 'luna.explorer' } }, status: 'ok' })
	}
})
const folder = mkdtempSync(join(tmpdir(), 'smkit-connect-set-cookie-'))
const harness = await startPlayground({
	loggedIn: false,
	client: { baseURL: upstream.url.href },
	deps: { demo: false, envPath: join(folder, 'playground.env') }
})
afterAll(async () => {
	await harness.stop()
	upstream.stop(true)
	rmSync(folder, { recursive: true, force: true })
})

const FRESH = { SESSION_ID: FRESH_SESSION, CSRF_TOKEN: FRESH_CSRF, DS_USER_ID: EXPORTED.dsUserId }

describe("the connect check's Set-Cookie updates", () => {
	it('Connect account: the next request sends the values Instagram set, and the file holds them', async () => {
		const connected = await expectOk(
			await harness.request('POST', '/api/session', { body: { cookies: COOKIES } })
		)
		expect(connected.data).toMatchObject({ session: 'valid', username: 'smkit_demo' })
		await expectOk(await harness.get('/api/users/username/luna.explorer'))
		const cookie = sent.at(-1) ?? ''
		expect(cookie).toContain(`sessionid=${FRESH_SESSION}`)
		expect(cookie).toContain(`csrftoken=${FRESH_CSRF}`)
		expect(cookie).not.toContain('EXPORTED')
		expect(loadEnvFile(join(folder, 'playground.env'))).toEqual(FRESH)
		// Neither value ever reaches an answer.
		for (const body of harness.bodies) expect(body).not.toMatch(/FRESH-|EXPORTED-/)
	})

	it('smkit login writes the values Instagram set while checking', async () => {
		const envPath = join(folder, 'login.env')
		const cookies = join(folder, 'cookies.txt')
		writeFileSync(envPath, `SMKIT_UPSTREAM_URL=${upstream.url.href}\n`, { mode: 0o600 })
		writeFileSync(cookies, COOKIES)
		await runLogin({ cookies, env: envPath })
		expect(loadEnvFile(envPath)).toEqual({ SMKIT_UPSTREAM_URL: upstream.url.href, ...FRESH })
		expect(readFileSync(envPath, 'utf8')).not.toContain('EXPORTED')
	})
})
