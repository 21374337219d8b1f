import { afterAll, beforeEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { DEMO_SECRETS, demoCookieHeader, demoCookiesTxt } from '../support/demo-cookies'
import { expectFailure, expectOk, startPlayground } from './support'

const directory = mkdtempSync(join(tmpdir(), 'smkit-session-'))
const envPath = join(directory, '.env')
// A real-account playground (not demo mode): no session yet, Connect account stores into envPath.
const harness = await startPlayground({ loggedIn: false, deps: { demo: false, envPath } })
afterAll(async () => {
	await harness.stop()
	rmSync(directory, { recursive: true, force: true })
})
beforeEach(() => harness.simulator.session.set('valid'))

const status = async () => (await harness.json('/api/status')).body.data

describe('session health and Connect account', () => {
	it('starts with session none; connecting stores exactly the session variables (0600) and uses them at once', async () => {
		expect(await status()).toMatchObject({
			session: 'none',
			username: null,
			logged_in: false,
			client_ready: false
		})
		expect(await harness.json('/api/account/blocked')).toMatchObject({ status: 401 })
		const connected = await expectOk(
			await harness.request('POST', '/api/session', { body: { cookies: demoCookiesTxt() } })
		)
		expect(connected.data).toMatchObject({
			session: 'valid',
			username: 'smkit_demo',
			stored: ['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID']
		})
		expect(connected.message).toBe('Connected as @smkit_demo; 3 variables stored')
		expect(readFileSync(envPath, 'utf8').trim().split('\n')).toEqual([
			`SESSION_ID=${DEMO_CREDENTIALS.sessionId}`,
			`CSRF_TOKEN=${DEMO_CREDENTIALS.csrfToken}`,
			`DS_USER_ID=${DEMO_CREDENTIALS.dsUserId}`
		])
		expect(statSync(envPath).mode & 0o777).toBe(0o600)
		expect(await status()).toMatchObject({
			session: 'valid',
			username: 'smkit_demo',
			logged_in: true,
			client_ready: true
		})
		await expectOk(await harness.get('/api/account/blocked'))
	})

	it('a login_required during use flips the status to expired at once, with a reconnect hint', async () => {
		harness.simulator.session.set('expired')
		const failure = await expectFailure(await harness.get('/api/account/blocked'), 401, 'login_required')
		expect(failure.error).toContain(
			'The session has expired: to reconnect, log in to instagram.com in the browser'
		)
		expect(failure.error).toContain('Connect account')
		expect(await status()).toMatchObject({ session: 'expired', username: null, client_ready: false })
		expect(Date.parse((await status()).session_checked_at)).toBeGreaterThan(0)
		// Checking again asks Instagram, which still refuses.
		const check = await expectOk(await harness.request('POST', '/api/session/check'))
		expect(check.data.session).toBe('expired')
		expect(check.message).toContain('Session expired: to reconnect, log in to instagram.com in the browser')
		harness.simulator.session.set('valid')
		expect((await expectOk(await harness.request('POST', '/api/session/check'))).data).toMatchObject({
			session: 'valid',
			username: 'smkit_demo'
		})
	})

	it('a challenge during use says how to pass it', async () => {
		harness.simulator.session.set('challenge')
		const failure = await expectFailure(await harness.get('/api/account/blocked'), 403, 'challenge_required')
		expect(failure.error).toContain(
			'Instagram asks this session to pass a challenge: open instagram.com in the browser and complete it'
		)
		expect(await status()).toMatchObject({ session: 'challenge', client_ready: false })
	})

	it('an answer that ends the session flips the status and says so in a header on that answer', async () => {
		const before = await harness.get('/api/users/username/luna.explorer')
		expect(before.headers.get('x-smkit-session')).toBeNull()
		await before.text()
		harness.simulator.session.set('expired')
		// Instagram still answers a profile (as to an anonymous visitor) but empties the session cookie.
		const answered = await harness.get('/api/users/username/luna.explorer')
		expect(answered.status).toBe(200)
		expect(answered.headers.get('x-smkit-session')).toBe('expired')
		expect((await answered.json()).data.username).toBe('luna.explorer')
		expect(await status()).toMatchObject({ session: 'expired', username: null })
		harness.simulator.session.set('valid')
		await expectOk(await harness.request('POST', '/api/session/check'))
	})

	it('refuses cookies Instagram does not accept, and unusable cookies, storing nothing', async () => {
		const before = readFileSync(envPath, 'utf8')
		harness.simulator.session.set('expired')
		const expired = await expectFailure(
			await harness.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
			401,
			'login_required'
		)
		expect(expired.error).toContain('Instagram does not accept this session (login_required)')
		harness.simulator.session.set('challenge')
		await expectFailure(
			await harness.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
			403,
			'challenge_required'
		)
		harness.simulator.session.set('valid')
		const unusable = await expectFailure(
			await harness.request('POST', '/api/session', { body: { cookies: 'csrftoken=abc; mid=x' } }),
			400,
			'bad_request'
		)
		expect(unusable.error).toContain('No usable sessionid, ds_user_id cookies in the Cookie header')
		await expectFailure(
			await harness.request('POST', '/api/session', { body: { cookies: '' } }),
			400,
			'bad_request'
		)
		// A whole browser's cookies.txt past the limit: the answer says what to send instead.
		const everySite = `${demoCookiesTxt()}${'.example.com\tTRUE\t/\tFALSE\t0\tname\tvalue\n'.repeat(8000)}`
		const tooLarge = await expectFailure(
			await harness.request('POST', '/api/session', { body: { cookies: everySite } }),
			400,
			'bad_request'
		)
		expect(tooLarge.error).toContain('at most 256 KB')
		expect(tooLarge.error).toContain("export only instagram.com's or paste the Cookie header")
		expect(readFileSync(envPath, 'utf8')).toBe(before)
	})

	it('says when the server process environment also sets the session, which wins at the next start', async () => {
		const before = process.env.SESSION_ID
		process.env.SESSION_ID = 'from-the-process-environment'
		try {
			const connected = await expectOk(
				await harness.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } })
			)
			expect(connected.message).toBe(
				"Connected as @smkit_demo; 3 variables stored; note: SESSION_ID is also set in the server's process environment, which wins over the environment file: at the next start it will replace the stored ones"
			)
			const disconnected = await expectOk(await harness.request('DELETE', '/api/session'))
			expect(disconnected.message).toBe(
				"Disconnected: the session is no longer used; note: SESSION_ID is also set in the server's process environment, which wins over the environment file: at the next start it will bring it back"
			)
			expect(JSON.stringify([connected, disconnected])).not.toContain('from-the-process-environment')
		} finally {
			if (before === undefined) delete process.env.SESSION_ID
			else process.env.SESSION_ID = before
		}
		// Connected again, as the tests below expect.
		await expectOk(await harness.request('POST', '/api/session', { body: { cookies: demoCookiesTxt() } }))
	})

	it('disconnect stops using the session and removes it from the file', async () => {
		writeFileSync(envPath, `KEEP=1\n${readFileSync(envPath, 'utf8')}`, { mode: 0o600 })
		const removed = await expectOk(await harness.request('DELETE', '/api/session'))
		expect(removed.data).toMatchObject({
			session: 'none',
			removed: ['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID']
		})
		expect(readFileSync(envPath, 'utf8')).toBe('KEEP=1\n')
		expect(await status()).toMatchObject({ session: 'none', logged_in: false })
	})

	it('never answers or records a cookie value', async () => {
		const history = await harness.json('/api/history')
		expect(history.body.data.map((entry: { path: string }) => entry.path)).toContain('/api/session')
		for (const text of harness.bodies) for (const secret of DEMO_SECRETS) expect(text).not.toContain(secret)
	})
})

describe('demo mode', () => {
	it('keeps the demo account: connecting and disconnecting are refused', async () => {
		const demo = await startPlayground()
		try {
			expect((await demo.json('/api/status')).body.data).toMatchObject({
				session: 'valid',
				username: 'smkit_demo',
				speed: 'unlimited',
				proxies: null
			})
			const refused = await expectFailure(
				await demo.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
				400,
				'bad_request'
			)
			expect(refused.error).toContain('Demo mode uses the built-in demo account')
			await expectFailure(await demo.request('DELETE', '/api/session'), 400, 'bad_request')
		} finally {
			await demo.stop()
		}
	})

	it('a playground whose --env is a folder, or in a missing folder, says so instead of failing inside', async () => {
		for (const [path, expected] of [
			[directory, '--env names a folder, not a file: restart it with --env naming the environment file'],
			[join(directory, 'missing', '.env'), "The folder of this playground's --env file does not exist"]
		] as const) {
			const misplaced = await startPlayground({ loggedIn: false, deps: { demo: false, envPath: path } })
			try {
				const body = await expectFailure(
					await misplaced.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
					400,
					'bad_request'
				)
				expect(body.error).toContain(expected)
				expect(body.error).not.toContain(directory)
				expect(misplaced.simulator.requests.records()).toEqual([])
			} finally {
				await misplaced.stop()
			}
		}
		const folder = await startPlayground({ loggedIn: true, deps: { demo: false, envPath: directory } })
		try {
			await expectFailure(await folder.request('DELETE', '/api/session'), 400, 'bad_request')
			expect((await folder.json('/api/status')).body.data.session).not.toBe('none')
		} finally {
			await folder.stop()
		}
	})

	it('a session that cannot be stored (an unwritable folder) is said plainly, without the server path', async () => {
		// Even root cannot make files in /proc: as a folder nobody may write.
		const unwritable = await startPlayground({
			loggedIn: false,
			deps: { demo: false, envPath: '/proc/smkit.env' }
		})
		try {
			const body = await expectFailure(
				await unwritable.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
				500,
				'internal_error'
			)
			expect(body.error).toStartWith(
				'The session is valid but could not be stored: the environment file smkit.env cannot be written ('
			)
			expect(body.error).not.toContain('/proc')
		} finally {
			await unwritable.stop()
		}
	})

	it('a playground without an environment file cannot store a session', async () => {
		const bare = await startPlayground({ loggedIn: false, deps: { demo: false } })
		try {
			const body = await expectFailure(
				await bare.request('POST', '/api/session', { body: { cookies: demoCookieHeader() } }),
				400,
				'bad_request'
			)
			expect(body.error).toContain('no environment file')
			// Checking without a session says what to do first.
			const check = await expectOk(await bare.request('POST', '/api/session/check'))
			expect(check.data.session).toBe('none')
			expect(check.message).toContain('no Instagram session to check; connect an account first')
		} finally {
			await bare.stop()
		}
	})
})
