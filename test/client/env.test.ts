import { afterAll, describe, expect, it } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
	createClientFromEnv,
	credentialsFromEnv,
	loadEnvFile,
	mergeEnv,
	parseEnv
} from '../../src/client/env'

const directory = mkdtempSync(join(tmpdir(), 'smkit-env-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('parseEnv', () => {
	it('reads plain, quoted, exported and commented lines', () => {
		const vars = parseEnv(
			[
				'# comment',
				'SESSION_ID=abc%3Adef',
				'export CSRF_TOKEN="quoted # not a comment"',
				"DS_USER_ID='42'",
				'USER_AGENT=Mozilla/5.0 (X11)   # trailing comment',
				'EMPTY=',
				'MULTI="a\\nb"',
				'not a line',
				''
			].join('\n')
		)
		expect(vars).toEqual({
			SESSION_ID: 'abc%3Adef',
			CSRF_TOKEN: 'quoted # not a comment',
			DS_USER_ID: '42',
			USER_AGENT: 'Mozilla/5.0 (X11)',
			EMPTY: '',
			MULTI: 'a\nb'
		})
	})

	it('handles CRLF line endings and a BOM', () => {
		expect(parseEnv('\uFEFFA=1\r\nB=2\r\n')).toEqual({ A: '1', B: '2' })
	})
})

describe('loadEnvFile and mergeEnv', () => {
	it('treats a missing file as empty', () => {
		expect(loadEnvFile(join(directory, 'missing.env'))).toEqual({})
	})

	it('a file that is there but cannot be read is an error naming it, not an empty file', () => {
		// A folder where the file should be: read fails as for a file nobody may read.
		expect(() => loadEnvFile(directory)).toThrow(
			`--env: '${directory}' is a folder; name the environment file in it`
		)
		// Permission denied needs a user other than root (root reads any file).
		const path = join(directory, 'locked.env')
		writeFileSync(path, 'SESSION_ID=x\n', { mode: 0o000 })
		const script = `import { loadEnvFile } from ${JSON.stringify(resolve('src/client/env.ts'))}
try { loadEnvFile(${JSON.stringify(path)}); console.log('read') } catch (error) { console.log(error.message) }`
		const asRoot = process.getuid?.() === 0
		chmodSync(directory, 0o755)
		const result = spawnSync(process.execPath, ['-e', script], {
			encoding: 'utf8',
			...(asRoot ? { uid: 65534, gid: 65534 } : {})
		})
		expect(result.stdout.trim()).toBe(`cannot read the environment file ${path}: permission denied`)
	})

	it('lets the process environment win over the file', () => {
		expect(mergeEnv({ A: 'file', B: 'file' }, { A: 'process', C: undefined })).toEqual({
			A: 'process',
			B: 'file'
		})
	})

	it('does not touch process.env', () => {
		const path = join(directory, 'pollute.env')
		writeFileSync(path, 'SMKIT_TEST_ONLY_VARIABLE=1\n')
		loadEnvFile(path)
		expect(process.env.SMKIT_TEST_ONLY_VARIABLE).toBeUndefined()
	})
})

describe('credentialsFromEnv', () => {
	it('needs all three required variables', () => {
		expect(credentialsFromEnv({ SESSION_ID: 's', CSRF_TOKEN: 'c' })).toBeUndefined()
		expect(credentialsFromEnv({ SESSION_ID: 's', CSRF_TOKEN: 'c', DS_USER_ID: ' ' })).toBeUndefined()
	})

	it('maps the optional variables', () => {
		expect(
			credentialsFromEnv({
				SESSION_ID: 's',
				CSRF_TOKEN: 'c',
				DS_USER_ID: '1',
				MID: 'm',
				RUR: 'r',
				USER_AGENT: 'ua'
			})
		).toMatchObject({
			sessionId: 's',
			csrfToken: 'c',
			dsUserId: '1',
			mid: 'm',
			rur: 'r',
			userAgent: 'ua'
		})
	})
})

describe('createClientFromEnv', () => {
	it('builds a logged-in client from the file', () => {
		const path = join(directory, 'full.env')
		writeFileSync(path, 'SESSION_ID=s\nCSRF_TOKEN=c\nDS_USER_ID=7\nSMKIT_UPSTREAM_URL=http://127.0.0.1:9/\n')
		const ig = createClientFromEnv(path)
		expect(ig.loggedIn).toBe(true)
		expect(ig.viewerPk).toBe('7')
		expect(ig.baseURL).toBe('http://127.0.0.1:9')
	})

	it('takes an empty or blank SMKIT_UPSTREAM_URL, in the file or the process, as unset', () => {
		const path = join(directory, 'blank-upstream.env')
		writeFileSync(path, 'SMKIT_UPSTREAM_URL=   \n')
		expect(createClientFromEnv(path).baseURL).toBe('https://www.instagram.com')
		const saved = process.env.SMKIT_UPSTREAM_URL
		process.env.SMKIT_UPSTREAM_URL = ''
		try {
			expect(createClientFromEnv(join(directory, 'none.env')).baseURL).toBe('https://www.instagram.com')
		} finally {
			if (saved === undefined) delete process.env.SMKIT_UPSTREAM_URL
			else process.env.SMKIT_UPSTREAM_URL = saved
		}
	})

	it('builds a logged-out client when the file is missing', () => {
		expect(createClientFromEnv(join(directory, 'none.env'), { baseURL: 'http://127.0.0.1:9' }).loggedIn).toBe(
			false
		)
	})
})
