/**
 * Cookies given where `smkit login --cookies` expects a file name are never echoed: the message
 * says they look like a Cookie header and how to give them (standard input or a file).
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UsageError } from '../../src/cli-error'
import { looksLikeCookies } from '../../src/client/cookies'
import { runLogin } from '../../src/session/login'

const folder = mkdtempSync(join(tmpdir(), 'smkit-cookies-argument-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const login = (cookies: string) =>
	runLogin({ cookies, env: join(folder, 'login.env') }).catch((error: unknown) => error)

describe('--cookies given the cookies themselves', () => {
	it('says it looks like a Cookie header, without showing it', async () => {
		for (const given of [
			'sessionid=ARGSECRET%3Axyz; csrftoken=ARGCSRF; ds_user_id=1',
			'sessionid=ARGSECRET%3Axyz',
			'Cookie: csrftoken=ARGCSRF'
		]) {
			const failure = await login(given)
			expect(failure).toBeInstanceOf(UsageError)
			const message = (failure as Error).message
			expect(message).toContain('looks like a Cookie header')
			expect(message).toContain('--cookies -')
			expect(message).not.toMatch(/ARGSECRET|ARGCSRF|xyz|sessionid=/)
		}
	})

	it('a file name that is no cookies is still named, with why it cannot be read', async () => {
		const failure = await login('nope.txt')
		expect((failure as Error).message).toBe("--cookies: cannot read 'nope.txt': there is no such file")
		expect(looksLikeCookies('sessionid-export.txt')).toBe(false)
		expect(looksLikeCookies('a=b; c=d')).toBe(true)
	})
})
