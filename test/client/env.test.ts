import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
