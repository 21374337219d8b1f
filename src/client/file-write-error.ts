/**
 * A failed file write in plain words: `cannot write .env: the folder . is not writable (permission
 * denied)`. Files are written through a temporary file beside them (env-file.ts, the jobs'
 * exports), so the system's own message named that temporary file (`EACCES: permission denied,
 * open '..env.baf432a23327.tmp'`), which the person never asked for and cannot find. A failed
 * read is said in words too (`fileReadReason`): the environment file, --cookies, --proxy-file.
 */
import { accessSync, constants, statSync } from 'node:fs'
import { dirname } from 'node:path'

/** The error code of a failed system call (`EACCES`), or undefined for any other error. */
function systemErrorCode(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code
	return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined
}

/** Where a write happened: see {@link fileWriteError}. */
export interface WriteWhere {
	/** The folder the file is written in (default: the file's own, as named). */
	folder?: string
	/** The file itself was opened (appended to, a device), not a new file made in its folder. */
	inPlace?: boolean
}

/** Whether this process may make files in `folder`. */
function folderWritable(folder: string): boolean {
	try {
		accessSync(folder, constants.W_OK)
		return true
	} catch {
		return false
	}
}

/** Why a write failed, by error code. */
function reasonOf(code: string, file: string, where: WriteWhere, error: unknown): string {
	const folder = where.folder ?? dirname(file)
	switch (code) {
		case 'EACCES':
		case 'EPERM':
			if (where.inPlace) return 'the file is not writable (permission denied)'
			// A folder this user may write, where the file still cannot be replaced: another user's
			// file in a shared (sticky) folder such as /tmp.
			return folderWritable(folder)
				? `the file belongs to another user in the shared folder ${folder} (permission denied)`
				: `the folder ${folder} is not writable (permission denied)`
		case 'EROFS':
			return `the folder ${folder} is on a read-only file system`
		case 'ENOSPC':
			return 'the disk is full'
		case 'EDQUOT':
			return 'the disk quota is used up'
		case 'ENOENT':
			return `there is no folder ${folder}`
		case 'EISDIR':
			return 'it is a folder'
		case 'ENOTDIR':
			return `a part of the folder ${folder} is a file, not a folder`
		// Making the folder found a file of that name where the folder should be.
		case 'EEXIST':
			return isFile(folder) ? `${folder} is a file, not a folder` : defaultReason(error)
		case 'EFBIG':
			return 'the file would be larger than the file size limit allows'
		case 'EMLINK':
			return 'a link to another file was in the way of its temporary file (removed: run it again)'
		default:
			return defaultReason(error)
	}
}

/** The system's words without the call and path they end with (`, open 'x.tmp-1'`). */
function defaultReason(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error)
	return message.replace(/,\s*[a-z]+\s+'[^']*'(\s*->\s*'[^']*')?\s*$/, '')
}

/** Whether `path` is there and is a file (not a folder). */
function isFile(path: string): boolean {
	try {
		return statSync(path).isFile()
	} catch {
		return false
	}
}

/** A file could not be written: `cannot write FILE: REASON`; the system's error is the `cause`. */
export class FileWriteError extends Error {
	override name = 'FileWriteError'
	constructor(
		/** The file as the person named it. */
		readonly file: string,
		/** Why, in plain words: `the folder . is not writable (permission denied)`. */
		readonly reason: string,
		/** The system's error code (`EACCES`), kept for callers that decide by it. */
		readonly code: string,
		cause: unknown
	) {
		super(`cannot write ${file}: ${reason}`, { cause })
	}
}

/**
 * The error to throw when writing `file` (named as the person gave it) failed with `error`: a
 * system error becomes a FileWriteError; any other error (an abort, a bug) comes back as it is.
 */
export function fileWriteError(file: string, error: unknown, where: WriteWhere = {}): unknown {
	const code = systemErrorCode(error)
	// EPIPE: the reader of a pipe went away, which the commands handle as a reader that stopped.
	if (code === undefined || code === 'EPIPE' || error instanceof FileWriteError) return error
	return new FileWriteError(file, reasonOf(code, file, where, error), code, error)
}

/** Why a file could not be read, in words: `there is no such file`, `permission denied`, `it is a folder`. */
export function fileReadReason(error: unknown): string {
	const code = systemErrorCode(error)
	if (code === 'ENOENT') return 'there is no such file'
	if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
	if (code === 'EISDIR') return 'it is a folder'
	return error instanceof Error ? error.message : String(error)
}
