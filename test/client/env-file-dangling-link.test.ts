/**
 * A `.env` that is a symbolic link to a file not made yet (`.env -> secrets/app.env`) is written
 * through: the file it names is created with mode 0600 and the link stays a link. A link into a
 * folder that does not exist, or a loop of links, is refused, and the link is left as it was.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import {
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readlinkSync,
	rmSync,
	statSync,
	symlinkSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadEnvFile } from '../../src/client/env'
import { removeSessionVariables, storeSessionVariables } from '../../src/client/env-file'

const directory = mkdtempSync(join(tmpdir(), 'smkit-env-link-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const SESSION = { SESSION_ID: '1%3Aab%3A2', CSRF_TOKEN: 'tok', DS_USER_ID: '1' }

describe('a dangling .env symlink', () => {
	it('creates the file it names (0600) and keeps the link', async () => {
		const project = join(directory, 'project')
		mkdirSync(join(project, 'secrets'), { recursive: true })
		const link = join(project, '.env')
		symlinkSync('secrets/app.env', link)
		await storeSessionVariables(link, SESSION)
		expect(lstatSync(link).isSymbolicLink()).toBe(true)
		expect(readlinkSync(link)).toBe('secrets/app.env')
		const real = join(project, 'secrets', 'app.env')
		expect(loadEnvFile(real)).toEqual(SESSION)
		expect(statSync(real).mode & 0o777).toBe(0o600)
		// A link to a link is followed to the end as well.
		const chained = join(project, 'chained.env')
		symlinkSync('.env', chained)
		await storeSessionVariables(chained, { ...SESSION, CSRF_TOKEN: 'tok2' })
		expect(loadEnvFile(real).CSRF_TOKEN).toBe('tok2')
		expect(await removeSessionVariables(chained)).toEqual(['SESSION_ID', 'CSRF_TOKEN', 'DS_USER_ID'])
	})

	it('into a missing folder, or in a loop, is refused and left a link', async () => {
		const link = join(directory, 'nowhere.env')
		symlinkSync('missing-folder/app.env', link)
		const missing = await storeSessionVariables(link, SESSION).catch((error: Error) => error)
		expect(String(missing)).toContain(`cannot write ${link}: there is no folder`)
		expect(lstatSync(link).isSymbolicLink()).toBe(true)
		expect(existsSync(join(directory, 'missing-folder'))).toBe(false)
		const first = join(directory, 'loop-a.env')
		symlinkSync('loop-b.env', first)
		symlinkSync('loop-a.env', join(directory, 'loop-b.env'))
		const loop = await storeSessionVariables(first, SESSION).catch((error: Error) => error)
		expect(String(loop)).toContain(`cannot write ${first}: too many levels of symbolic links`)
		expect(lstatSync(first).isSymbolicLink()).toBe(true)
	})
})
