/**
 * `checkOutPath`, the check of `--out` before `smkit collect` makes a job (and before `jobs
 * export` writes): a read-only file is refused though its folder could be written (the temporary
 * file renamed over it replaced it all the same), a folder that takes no new files (/proc) is
 * said as it is, not as "there is no folder", and a path no file can have is bad usage in words.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { UsageError } from '../../src/cli-error'
import { FileWriteError } from '../../src/client/file-write-error'
import { checkOutPath } from '../../src/jobs/out-path'

const root = process.getuid?.() === 0
let folder: string
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-out-path-'))
	// Writable by anyone (and not sticky): only the file's own mode can stop a write.
	chmodSync(folder, 0o777)
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * What `checkOutPath(path)` says to a user who is not root (root may write any file): as uid
 * 65534 when the tests run as root, else as the user running them. `ok` when it refuses nothing.
 */
function checkAsOtherUser(path: string): string {
	const script = `import { checkOutPath } from ${JSON.stringify(resolve('src/jobs/out-path.ts'))}
try { checkOutPath(${JSON.stringify(path)}); console.log('ok') } catch (error) { console.log(error.name + ': ' + error.message) }`
	const result = spawnSync(process.execPath, ['-e', script], {
		encoding: 'utf8',
		...(root ? { uid: 65534, gid: 65534 } : {})
	})
	return `${result.stdout}${result.stderr}`.trim()
}

/** The error `checkOutPath(path)` throws here. */
function refusal(path: string): Error {
	try {
		checkOutPath(path)
	} catch (error) {
		return error as Error
	}
	throw new Error(`nothing refused ${path}`)
}

test('a read-only file is refused before anything is written, and left as it was', () => {
	const file = join(folder, 'ro.csv')
	writeFileSync(file, 'kept\n')
	chmodSync(file, 0o444)
	expect(checkAsOtherUser(file)).toBe(`FileWriteError: cannot write ${file}: the file is read-only`)
	expect(readFileSync(file, 'utf8')).toBe('kept\n')
	// Another's file the user may not write, though it is not read-only: said so.
	const other = join(folder, 'other.csv')
	writeFileSync(other, 'kept\n')
	chmodSync(other, 0o644)
	if (root)
		expect(checkAsOtherUser(other)).toBe(
			`FileWriteError: cannot write ${other}: the file is not writable (permission denied)`
		)
	// A new file in the same folder is fine, and the check leaves nothing behind.
	expect(checkAsOtherUser(join(folder, 'new.csv'))).toBe('ok')
	expect(readdirSync(folder).sort()).toEqual(['other.csv', 'ro.csv'])
})

test('a folder that exists but takes no file is not called missing', () => {
	const error = refusal('/proc/x.jsonl')
	expect(error).toBeInstanceOf(FileWriteError)
	expect(error.message).not.toContain('there is no folder')
	expect(error.message).toBe(
		root
			? 'cannot write /proc/x.jsonl: the folder /proc takes no new files (a special file system)'
			: 'cannot write /proc/x.jsonl: the folder /proc is not writable (permission denied)'
	)
})

test('a name too long, or a file where a folder should be, is bad usage in words', () => {
	const long = refusal(join(folder, `${'x'.repeat(300)}.jsonl`))
	expect(long).toBeInstanceOf(UsageError)
	expect(long.message).toBe('--out: the name is too long')
	const file = join(folder, 'afile')
	writeFileSync(file, '')
	const under = refusal(join(file, 'x.csv'))
	expect(under).toBeInstanceOf(UsageError)
	expect(under.message).toBe(`--out: ${file} is a file, not a folder`)
})
