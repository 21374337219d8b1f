/**
 * Checks of a `--out` path before a job is made (smkit collect, smkit jobs export): a file in a
 * folder that exists and can take it, not the store, so a mistake is said with the path given, not
 * found at the first write.
 */
import { accessSync, closeSync, constants, openSync, realpathSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { UsageError } from '../cli-error'
import { FileWriteError, fileWriteError, type WriteWhere } from '../client/file-write-error'
import { statOption } from '../server/options'
import { linkedTarget, TEMPORARY } from './export-file'

/**
 * `--out` names a file in a folder that exists, and not the store (`dbPath`) or one of its SQLite
 * side files: checked before a job is made, so a typo answers with the path given instead of an
 * ENOENT naming a temporary file at the first write, or an export written over the database. A
 * path no file can have (a name too long, a file where a folder should be) is bad usage too.
 */
export function checkOutPath(path: string, dbPath?: string): void {
	if (/[\\/]$/.test(path)) throw new UsageError(`--out: '${path}' names a folder; name a file in it`)
	const folder = dirname(path)
	const found = statOption('--out', folder)
	if (found && !found.isDirectory()) throw new UsageError(`--out: ${folder} is a file, not a folder`)
	if (!found) throw new UsageError(`--out: there is no folder '${folder}' to write '${path}' into`)
	const existing = statOption('--out', path)
	if (existing?.isDirectory()) throw new UsageError(`--out: '${path}' is a folder; name a file in it`)
	// A file is written through a temporary file beside it (a pipe or device in place).
	if (!existing || existing.isFile()) checkWritable(path, existing !== undefined)
	if (dbPath === undefined || dbPath === ':memory:') return
	for (const storeFile of ['', '-wal', '-shm', '-journal'].map((suffix) => dbPath + suffix))
		if (sameFile(path, storeFile))
			throw new UsageError(`--out: '${path}' is the store (--db ${dbPath}); name another file`)
}

/**
 * Refuses a file that could not be written, before a job is made that could never write its
 * output (a FileWriteError, as a failed write is): a folder where no file can be made (not
 * writable, on a read-only file system, or taking no new files at all, as /proc even for root, whom
 * `access` lets write anything), and a read-only file, which the temporary file renamed over it
 * replaced all the same. The folder is tried by making the temporary file the write would make.
 */
function checkWritable(path: string, exists: boolean): void {
	const target = exists ? realpathSync(path) : linkedTarget(path)
	const folder = dirname(target)
	const where = { folder: folder === dirname(path) ? undefined : folder }
	try {
		accessSync(folder, constants.W_OK)
	} catch (error) {
		throw fileWriteError(path, error, where)
	}
	if (exists)
		try {
			accessSync(path, constants.W_OK)
		} catch (error) {
			throw readOnlyError(path, error, where)
		}
	const trial = `${target}${TEMPORARY}${process.pid}`
	try {
		closeSync(
			openSync(trial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW)
		)
		rmSync(trial)
	} catch (error) {
		const code = (error as { code?: unknown }).code
		// Something already has the name: the write deals with it (openTemporary).
		if (code === 'EEXIST') return
		// The folder is there, yet a file made in it is "not found": a special file system.
		if (code === 'ENOENT')
			throw new FileWriteError(
				path,
				`the folder ${folder} takes no new files (a special file system)`,
				code,
				error
			)
		throw fileWriteError(path, error, where)
	}
}

/** Why the existing file `path` cannot be written (`error` of `access`): read-only, or another's. */
function readOnlyError(path: string, error: unknown, where: WriteWhere): unknown {
	const code = (error as { code?: unknown }).code
	if (code !== 'EACCES' && code !== 'EPERM') return fileWriteError(path, error, where)
	const readOnly = (statSync(path).mode & 0o222) === 0
	return new FileWriteError(
		path,
		readOnly ? 'the file is read-only' : 'the file is not writable (permission denied)',
		code,
		error
	)
}

/** Whether two paths name one file: the same absolute path, or (both existing) the same inode. */
function sameFile(a: string, b: string): boolean {
	if (resolve(a) === resolve(b)) return true
	const first = statSync(a, { throwIfNoEntry: false })
	const second = statSync(b, { throwIfNoEntry: false })
	return first !== undefined && second !== undefined && first.dev === second.dev && first.ino === second.ino
}
