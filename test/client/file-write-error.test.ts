/**
 * A failed write names the file as given and why in plain words, never the temporary file it was
 * written through (`EACCES: permission denied, open '..env.baf432a23327.tmp'`).
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storeSessionVariables } from '../../src/client/env-file'
import { FileWriteError, fileWriteError } from '../../src/client/file-write-error'

const directory = mkdtempSync(join(tmpdir(), 'smkit-write-error-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** A system error as node:fs throws it. */
function systemError(code: string, message: string): Error {
	return Object.assign(new Error(message), { code, syscall: 'open' })
}

describe('fileWriteError', () => {
	it.each([
		[
			'EACCES',
			"EACCES: permission denied, open '..env.baf432a23327.tmp'",
			// `ro` is not there, so this process may not write it (root may write any folder that is).
			'the folder ro is not writable (permission denied)'
		],
		[
			'EPERM',
			"EPERM: operation not permitted, open '..env.1.tmp'",
			'the folder ro is not writable (permission denied)'
		],
		[
			'EROFS',
			"EROFS: read-only file system, open '..env.1.tmp'",
			'the folder ro is on a read-only file system'
		],
		['ENOSPC', 'ENOSPC: no space left on device, write', 'the disk is full'],
		['ENOENT', "ENOENT: no such file or directory, open '..env.1.tmp'", 'there is no folder ro'],
		['EIO', "EIO: i/o error, rename '..env.1.tmp' -> '.env'", 'EIO: i/o error']
	])('%s: says why in plain words, without the temporary file', (code, message, reason) => {
		const error = fileWriteError('.env', systemError(code, message), { folder: 'ro' }) as FileWriteError
		expect(error).toBeInstanceOf(FileWriteError)
		expect(error.message).toBe(`cannot write .env: ${reason}`)
		expect(error.code).toBe(code)
		expect(error.message).not.toContain('.tmp')
	})

	it("a folder this process may write, whose file it still may not replace: the file is another user's", () => {
		const denied = systemError('EACCES', "EACCES: permission denied, rename 'x.csv.tmp-1' -> 'x.csv'")
		expect((fileWriteError('x.csv', denied, { folder: tmpdir() }) as Error).message).toBe(
			`cannot write x.csv: the file belongs to another user in the shared folder ${tmpdir()} (permission denied)`
		)
	})

	it('names the folder the file is really written in, and the file itself when opened in place', () => {
		const denied = systemError('EACCES', "EACCES: permission denied, open 'x.csv.tmp-3838'")
		expect((fileWriteError('gone/x.csv', denied) as Error).message).toBe(
			'cannot write gone/x.csv: the folder gone is not writable (permission denied)'
		)
		expect((fileWriteError('x.csv', denied, { folder: 'gone-data' }) as Error).message).toBe(
			'cannot write x.csv: the folder gone-data is not writable (permission denied)'
		)
		expect((fileWriteError('/dev/x', denied, { inPlace: true }) as Error).message).toBe(
			'cannot write /dev/x: the file is not writable (permission denied)'
		)
	})

	it('leaves other errors as they are: an abort, a bug, a reader gone (EPIPE)', () => {
		const abort = new DOMException('stopped', 'AbortError')
		expect(fileWriteError('.env', abort)).toBe(abort)
		const gone = systemError('EPIPE', 'EPIPE: broken pipe, write')
		expect(fileWriteError('.env', gone)).toBe(gone)
	})
})

describe('the environment file', () => {
	it('a write that fails names the file as given, not its temporary file', async () => {
		const path = join(directory, 'missing', '.env')
		const failure = await storeSessionVariables(path, { SESSION_ID: 'x' }).catch((error: Error) => error)
		expect(failure).toBeInstanceOf(FileWriteError)
		expect((failure as Error).message).toBe(
			`cannot write ${path}: there is no folder ${join(directory, 'missing')}`
		)
	})
})
