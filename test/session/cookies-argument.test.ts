/**
 * Cookies given where `smkit login --cookies` expects a file name are never echoed, in any of their
 * forms (a Cookie header, a JSON export, a cookies.txt line): the argument is shown back only when
 * it looks like a plain path; else the message says it looks like cookies pasted in place of a file
 * name and how to give them (standard input or a file).
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UsageError } from '../../src/cli-error'
import { looksLikePlainPath } from '../../src/client/cookies'
import { runLogin } from '../../src/session/login'

const folder = mkdtempSync(join(tmpdir(), 'smkit-cookies-argument-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const login = (cookies: string) =>
	runLogin({ cookies, env: join(folder, 'login.env') }).catch((error: unknown) => error)

/** Every form a browser's cookies come in, given in place of the file name. */
const PASTED: Record<string, string> = {
	'Cookie header': 'sessionid=ARGSECRET%3Axyz; csrftoken=ARGCSRF; ds_user_id=1',
	'one cookie': 'sessionid=ARGSECRET%3Axyz',
	'Cookie: line': 'Cookie: csrftoken=ARGCSRF',
	'JSON array': '[{"name":"sessionid","value":"ARGSECRET","domain":".instagram.com"}]',
	'JSON object': '{"sessionid":"ARGSECRET","csrftoken":"ARGCSRF"}',
	'cookies.txt line': '.instagram.com\tTRUE\t/\tTRUE\t1999999999\tsessionid\tARGSECRET',
	'cookies.txt line, spaces for tabs': '.instagram.com TRUE / TRUE 1999999999 sessionid ARGSECRET',
	'cookies.txt lines': '# Netscape HTTP Cookie File\n.instagram.com\tTRUE\t/\tTRUE\t0\tcsrftoken\tARGCSRF',
	'a long text': `${'ARGSECRET'.repeat(30)}.txt`
}

describe('--cookies given the cookies themselves', () => {
	it.each(Object.entries(PASTED))('%s: says it looks like cookies, without showing it', async (_, given) => {
		const failure = await login(given)
		expect(failure).toBeInstanceOf(UsageError)
		const message = (failure as Error).message
		expect(message).toContain('looks like cookies pasted in place of a file name (not shown here)')
		expect(message).toContain('--cookies -')
		expect(message).not.toMatch(/ARGSECRET|ARGCSRF|xyz|sessionid|instagram\.com/)
	})

	it('a plain file name is still named, with why it cannot be read', async () => {
		const failure = await login('nope.txt')
		expect((failure as Error).message).toBe("--cookies: cannot read 'nope.txt': there is no such file")
		const path = join(folder, 'exports', 'www.instagram.com_cookies.txt')
		expect(((await login(path)) as Error).message).toBe(
			`--cookies: cannot read '${path}': there is no such file`
		)
	})

	it('a plain path: no separator of cookies, no session cookie name as a word, not too long', () => {
		for (const path of ['cookies.txt', '~/Downloads/instagram cookies (1).txt', 'midterm/pyramid.txt'])
			expect(looksLikePlainPath(path)).toBe(true)
		for (const text of [
			'a=b',
			'a;b',
			'a\tb',
			'a\nb',
			'{',
			'[',
			'"a"',
			'sessionid-export.txt',
			'MID',
			'x'.repeat(201)
		])
			expect(looksLikePlainPath(text)).toBe(false)
		expect(looksLikePlainPath('x'.repeat(200))).toBe(true)
	})
})
