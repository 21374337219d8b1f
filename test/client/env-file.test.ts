import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadEnvFile } from '../../src/client/env'
import { removeSessionVariables, storeSessionVariables } from '../../src/client/env-file'

const directory = mkdtempSync(join(tmpdir(), 'smkit-env-file-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const SESSION = { SESSION_ID: '1%3Aab%3A2', CSRF_TOKEN: 'tok', DS_USER_ID: '1' }
const mode = (path: string) => statSync(path).mode & 0o777

describe('session variables in the environment file', () => {
	it('creates a missing file with exactly the variables, mode 0600', async () => {
		const path = join(directory, 'new.env')
		expect(await storeSessionVariables(path, SESSION)).toEqual(['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID'])
		expect(readFileSync(path, 'utf8')).toBe('SESSION_ID=1%3Aab%3A2\nCSRF_TOKEN=tok\nDS_USER_ID=1\n')
		expect(mode(path)).toBe(0o600)
		expect(loadEnvFile(path)).toEqual(SESSION)
		// No temporary file is left behind.
		expect((await readdir(directory)).filter((name) => name.includes('.tmp'))).toEqual([])
	})

	it('keeps other lines, replaces the old session in place, drops its stale extras and tightens the mode', async () => {
		const path = join(directory, 'existing.env')
		writeFileSync(
			path,
			'# my settings\nGEMINI_API_KEY=key\nexport SESSION_ID=old\nMID=old-mid\nSESSION_ID=older\nUSER_AGENT=Mozilla/5.0 (X11)\n',
			{ mode: 0o644 }
		)
		await storeSessionVariables(path, { ...SESSION, RUR: 'NCG\\0541\\054170:ab' })
		expect(readFileSync(path, 'utf8')).toBe(
			"# my settings\nGEMINI_API_KEY=key\nSESSION_ID=1%3Aab%3A2\nUSER_AGENT=Mozilla/5.0 (X11)\nCSRF_TOKEN=tok\nDS_USER_ID=1\nRUR='NCG\\0541\\054170:ab'\n"
		)
		expect(mode(path)).toBe(0o600)
		expect(loadEnvFile(path).RUR).toBe('NCG\\0541\\054170:ab')
		expect(loadEnvFile(path).USER_AGENT).toBe('Mozilla/5.0 (X11)')
	})

	it('updates the file a symlinked .env points to', async () => {
		const real = join(directory, 'real.env')
		const link = join(directory, 'link.env')
		writeFileSync(real, 'A=1\n')
		symlinkSync(real, link)
		await storeSessionVariables(link, SESSION)
		expect(loadEnvFile(real)).toEqual({ A: '1', ...SESSION })
	})

	it('logout removes every session variable and keeps the rest', async () => {
		const path = join(directory, 'logout.env')
		writeFileSync(path, 'A=1\nSESSION_ID=x\nCSRF_TOKEN=y\nDS_USER_ID=1\nIG_WWW_CLAIM=hmac\nB=2\n')
		expect((await removeSessionVariables(path)).sort()).toEqual([
			'CSRF_TOKEN',
			'DS_USER_ID',
			'IG_WWW_CLAIM',
			'SESSION_ID'
		])
		expect(readFileSync(path, 'utf8')).toBe('A=1\nB=2\n')
		expect(await removeSessionVariables(path)).toEqual([])
		expect(await removeSessionVariables(join(directory, 'missing.env'))).toEqual([])
	})
})
