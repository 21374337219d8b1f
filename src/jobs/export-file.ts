/**
 * Where a job's export goes (the chunks of `export.ts`): a file replaced in one step, a file
 * appended to, or a stream such as standard output, whose reader sets the pace. The chunks are
 * written one at a time with a turn of the event loop between them, so Ctrl-C (the signal) stops a
 * long write between two chunks, and memory holds a chunk whatever the number of records.
 */
import {
	closeSync,
	constants,
	fstatSync,
	ftruncateSync,
	lstatSync,
	openSync,
	readdirSync,
	readlinkSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	unlinkSync,
	writeSync
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileWriteError } from '../client/file-write-error'
import { type ExportChunk, type ExportFormat, type ExportOptions, exportChunks, nextTurn } from './export'
import { processAlive } from './process-alive'
import type { JobStore } from './store'

/**
 * Writes the job's records to `path` in `format`, replacing the file in one step (temporary file
 * beside it, then rename): a write stopped any way (a full disk, Ctrl-C, `kill -9`) leaves the
 * previous file as it was. A symbolic link is followed: the file it names is replaced, the link
 * stays. A device, pipe or other special file (`/dev/null`, `/dev/stdout`, a FIFO) is written into:
 * renamed over, it would become a regular file (for root, `/dev/null` itself). Temporary files that
 * earlier writes of the same file left when their process was killed are removed.
 */
export async function writeExport(
	jobs: JobStore,
	id: number,
	format: ExportFormat,
	path: string,
	options: Omit<ExportOptions, 'afterSeq'> = {}
): Promise<WrittenFile> {
	const { signal } = options
	// The CSV header is planned before the file is touched: a refusal leaves nothing behind.
	const chunks = await exportChunks(jobs, id, format, options)
	const existing = statSync(path, { throwIfNoEntry: false })
	if (existing && !existing.isFile()) {
		try {
			const file = openSync(path, 'w')
			try {
				await writeChunks(file, chunks, signal)
			} finally {
				closeSync(file)
			}
		} catch (error) {
			throw fileWriteError(path, error, { inPlace: true })
		}
		return null
	}
	const target = existing ? realpathSync(path) : linkedTarget(path)
	removeLeftovers(target)
	const temporary = `${target}${TEMPORARY}${process.pid}`
	try {
		const file = openTemporary(temporary)
		let written: WrittenFile
		try {
			written = await writeChunks(file, chunks, signal)
		} finally {
			closeSync(file)
		}
		renameSync(temporary, target)
		return written
	} catch (error) {
		// A full disk leaves part of the file written: removed, it does not hold the space it filled.
		rmSync(temporary, { force: true })
		// Named as given, never the temporary file; a link's target is written in its own folder.
		throw fileWriteError(path, error, { folder: target === path ? undefined : dirname(target) })
	}
}

/**
 * Appends the job's JSONL lines (`options.afterSeq` on) to the file `path`, which must be as the
 * last write left it (`left`; null: a special file, taken as it is). Undefined, with nothing
 * written, when it is not: removed, replaced or changed by someone else, so appending would leave
 * a file without the records before. Checked on the open file, so a removal at any moment is seen.
 */
export async function appendExport(
	jobs: JobStore,
	id: number,
	path: string,
	left: WrittenFile,
	options: ExportOptions = {}
): Promise<WrittenFile | undefined> {
	const { signal } = options
	const chunks = await exportChunks(jobs, id, 'jsonl', options)
	let file: number
	try {
		// No O_CREAT: a file removed under the run is not created anew holding the new lines alone.
		file = openSync(path, constants.O_WRONLY | constants.O_APPEND)
	} catch (error) {
		if ((error as { code?: string }).code === 'ENOENT') return undefined
		throw fileWriteError(path, error, { inPlace: true })
	}
	try {
		if (left !== null) {
			const found = fstatSync(file)
			if (!found.isFile() || found.ino !== left.ino || found.size !== left.size) return undefined
		}
		const written = await writeChunks(file, chunks, signal)
		return left === null ? null : written
	} catch (error) {
		throw fileWriteError(path, error, { inPlace: true })
	} finally {
		closeSync(file)
	}
}

/**
 * Resolves when `stream` wants more (after `write` returned false): its reader took what was
 * buffered. Rejects when the reader went away or `signal` aborts, instead of waiting forever.
 */
export function drained(stream: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		const finish = (error?: unknown) => {
			stream.off('drain', onDrain)
			stream.off('error', finish)
			stream.off('close', onClose)
			signal?.removeEventListener('abort', onAbort)
			if (error === undefined) resolve()
			else reject(error)
		}
		const onDrain = () => finish()
		const onClose = () => finish(new Error('the stream closed'))
		const onAbort = () => finish(signal?.reason)
		stream.once('drain', onDrain)
		stream.once('error', finish)
		stream.once('close', onClose)
		signal?.addEventListener('abort', onAbort, { once: true })
		if (signal?.aborted) onAbort()
	})
}

/**
 * Opens the temporary file, empty, without writing through anything planted at its name (its name is
 * predictable, and its folder may be shared): a symbolic link there is removed and the file made
 * anew, never followed (the file it names would get the records); a hard link to another file is
 * refused before anything is changed. A pipe there is written into, as `--out` itself would be.
 */
function openTemporary(path: string): number {
	const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW
	let file: number
	try {
		file = openSync(path, flags, 0o666)
	} catch (error) {
		if ((error as { code?: unknown }).code !== 'ELOOP') throw error
		unlinkSync(path)
		// Exclusive: a link planted again meanwhile fails the write rather than being followed.
		file = openSync(path, flags | constants.O_EXCL, 0o666)
	}
	const stat = fstatSync(file)
	if (stat.isFile() && stat.nlink > 1) {
		closeSync(file)
		throw Object.assign(new Error('linked to another file'), { code: 'EMLINK' })
	}
	if (stat.isFile()) ftruncateSync(file, 0)
	return file
}

/** What the temporary file's name adds to the file's, before the writing process's id. */
export const TEMPORARY = '.tmp-'

/**
 * The file a write left, to tell later whether someone else changed it: its inode and size; null
 * for a special file (a pipe, a device), whose size says nothing.
 */
export type WrittenFile = { ino: number; size: number } | null

/** Writes the chunks to the open `file`, one per turn of the event loop; returns the file as left. */
async function writeChunks(
	file: number,
	chunks: Iterable<ExportChunk>,
	signal?: AbortSignal
): Promise<WrittenFile> {
	for (const chunk of chunks) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
		for (let offset = 0; offset < bytes.byteLength; ) offset += writeSync(file, bytes, offset)
		await nextTurn()
		signal?.throwIfAborted()
	}
	const stat = fstatSync(file)
	return stat.isFile() ? { ino: stat.ino, size: stat.size } : null
}

/**
 * Removes the temporary files of `target` (`NAME.tmp-PID`) whose process no longer runs: a write
 * killed with `kill -9` or by a crash left them, possibly gigabytes. A live process's is its own.
 */
function removeLeftovers(target: string): void {
	const prefix = `${basename(target)}${TEMPORARY}`
	let names: string[]
	try {
		names = readdirSync(dirname(target))
	} catch {
		return
	}
	for (const name of names) {
		const pid = name.startsWith(prefix) ? name.slice(prefix.length) : ''
		if (!/^\d{1,10}$/.test(pid) || Number(pid) === process.pid || processAlive(Number(pid))) continue
		try {
			rmSync(join(dirname(target), name))
		} catch {
			// A folder of that name, or one removed meanwhile: not a leftover of ours to remove.
		}
	}
}

/** Where `path`, which does not exist, would be: a link to a missing file names that file. */
export function linkedTarget(path: string): string {
	let target = path
	for (let hops = 0; hops < 40 && lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink(); hops++)
		target = resolve(dirname(target), readlinkSync(target))
	return target
}
