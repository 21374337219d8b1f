/**
 * `--proxy-file` and `--proxy-mode` mistakes said plainly without credentials: a proxy URL given
 * where the file is expected, a comment after a URL in the file, and `--proxy-mode` in demo mode,
 * where the environment's proxy does not count.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { resolveUpstream } from '../../src/server/upstream-options'
import { usageError } from '../support/usage-error'

const folder = await mkdtemp(path.join(tmpdir(), 'smkit-proxy-file-'))
afterAll(() => rm(folder, { recursive: true, force: true }))

describe('a proxy URL given to --proxy-file', () => {
	it('shows no credentials and points to --proxy', () => {
		const message = usageError(() =>
			resolveUpstream({ proxyFile: 'http://pu:PFSECRET@127.0.0.1:9110' }, {})
		).message
		expect(message).toBe(
			"--proxy-file: cannot read 'http://[redacted]@127.0.0.1:9110': --proxy-file takes a file of proxy URLs; for one proxy use --proxy URL"
		)
		for (const given of ['pu:PFSECRET@127.0.0.1:9110', '10.0.0.7:8000:pu:PFSECRET']) {
			const scheme = usageError(() => resolveUpstream({ proxyFile: given }, {})).message
			expect(scheme).toContain('for one proxy use --proxy URL')
			expect(scheme).not.toMatch(/PFSECRET|pu:/)
		}
	})

	it('a missing file is still said as such, any URL credentials in its path hidden', () => {
		const missing = path.join(folder, 'missing.txt')
		expect(usageError(() => resolveUpstream({ proxyFile: missing }, {})).message).toBe(
			`--proxy-file: cannot read '${missing}': there is no such file`
		)
		const odd = usageError(() => resolveUpstream({ proxyFile: 'lists/ftp://u:PFSECRET@x/p.txt' }, {})).message
		expect(odd).not.toContain('PFSECRET')
		expect(odd).toContain('there is no such file')
	})
})

describe('comments in a --proxy-file', () => {
	it('a comment after a URL and white space is skipped', async () => {
		const file = path.join(folder, 'commented.txt')
		await writeFile(
			file,
			'http://a:Y@127.0.0.1:9110\nhttp://b:X@127.0.0.1:9111   # backup\nhttp://127.0.0.1:9112\t#c\n'
		)
		const upstream = resolveUpstream({ proxyFile: file }, {})
		expect(upstream.clientOptions.proxies?.size).toBe(3)
		expect(upstream.clientOptions.proxies?.figures().map((entry) => entry.url)).toEqual([
			'http://[redacted]@127.0.0.1:9110',
			'http://[redacted]@127.0.0.1:9111',
			'http://127.0.0.1:9112'
		])
	})

	it('a # with no white space before it is still a password character to encode', async () => {
		const file = path.join(folder, 'hash.txt')
		for (const line of ['http://b:X#Y@127.0.0.1:9111', 'http://b:X #Y@127.0.0.1:9111']) {
			await writeFile(file, `${line}\n`)
			const message = usageError(() => resolveUpstream({ proxyFile: file }, {})).message
			expect(message).toContain(`'${file}' line 1: http://[redacted]: cannot be read as a proxy URL`)
			expect(message).toContain('percent-encoded')
			// The temporary folder's random name may hold an X: only the rest is looked at.
			expect(message.replaceAll(file, '')).not.toMatch(/X|Y@/)
		}
	})
})

describe('--proxy-mode without proxies in demo mode', () => {
	it("says the environment's proxy is not used in demo mode, only --proxy and --proxy-file", () => {
		const env = { HTTPS_PROXY: 'http://u:p@127.0.0.1:9110' }
		const message = usageError(() => resolveUpstream({ proxyMode: 'sticky' }, env, true)).message
		expect(message).toStartWith(
			'--proxy-mode sticky needs proxies to choose from: give --proxy-file (or --proxy)'
		)
		expect(message).toContain("in demo mode the environment's proxy")
		expect(message).toContain('is not used')
		expect(message).not.toContain('or HTTPS_PROXY in the environment')
		// Outside demo mode the variable still counts, and the message still suggests it.
		expect(usageError(() => resolveUpstream({ proxyMode: 'sticky' }, {})).message).toContain(
			'or HTTPS_PROXY in the environment'
		)
		expect(resolveUpstream({ proxyMode: 'sticky' }, env).clientOptions.proxies?.mode).toBe('sticky')
	})
})
