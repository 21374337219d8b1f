/**
 * Saved results (docs/api-contract.md, "Saving"): JSON files in one directory, created on demand.
 * No request may read or delete outside that directory or learn an absolute path. Here a name is either produced by `sanitizeName` (saved-names.ts) or
 * checked against that same strict form, then resolved and proved to sit inside the directory;
 * symbolic links are never followed, and no absolute server path leaves this module.
 */
import { constants } from 'node:fs'
import { link, lstat, mkdir, open, readdir, realpath, rename, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { HttpError } from '../server/envelope'
import { cutName, isSavedName, MAX_NAME_BYTES, MAX_NAME_LENGTH, savedName } from './saved-names'

/** What a saved file holds. */
export interface SavedFile {
	name: string
	saved_at: string
	request: string
	result: unknown
}
/** Where a save went: `file` is relative (e.g. `demo/saved/nike.json`), never absolute. */
export interface SaveReceipt {
	name: string
	file: string
	size: number
}
/** One entry of the saved-file list. */
export interface SavedEntry extends SaveReceipt {
	modified: string
	request: string | null
}

const isCode = (error: unknown, ...codes: string[]) =>
	typeof error === 'object' && error !== null && codes.includes((error as { code?: string }).code ?? '')

/** `.<name>.json.<pid>.<uuid>.tmp`, as `writeExclusive` names its temporary files. */
const temporaryPattern = /^\.[\p{L}\p{M}\p{N}_-]+\.json\.(\d+)\.[0-9a-f-]{36}\.tmp$/u

/** Whether a process with this pid exists (signal 0 only checks). */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		// EPERM: it exists but belongs to someone else.
		return isCode(error, 'EPERM')
	}
}

/** The saved-files directory and everything done to it. */
export class SavedStore {
	readonly directory: string
	private readonly displayDirectory: string
	private swept = false

	/** `directory` may be relative (to the working directory) or absolute; it is created on first save. */
	constructor(directory: string, workingDirectory = process.cwd()) {
		this.directory = path.resolve(workingDirectory, directory)
		const relative = path.relative(workingDirectory, this.directory)
		const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
		// Shown to clients: relative to the working directory when inside it, else the folder's own name.
		this.displayDirectory = (inside ? relative : path.basename(this.directory)).split(path.sep).join('/')
	}

	/** The client-facing relative path of a saved file. */
	displayPath(fileName: string): string {
		return `${this.displayDirectory}/${fileName}`
	}

	/** Saves `result` under a fresh name (`name`, else `name-2`, `name-3`...), atomically. */
	async save(rawName: string, request: string, result: unknown): Promise<SaveReceipt> {
		const base = savedName(rawName)
		await mkdir(this.directory, { recursive: true })
		if (!this.swept) {
			this.swept = true
			await this.sweepAbandonedTemporaries()
		}
		for (let attempt = 1; attempt < 10_000; attempt++) {
			const suffix = attempt === 1 ? '' : `-${attempt}`
			// Shortened to make room for the suffix, within both limits.
			const name = cutName(base, MAX_NAME_LENGTH - suffix.length, MAX_NAME_BYTES - suffix.length) + suffix
			const content: SavedFile = { name, saved_at: new Date().toISOString(), request, result }
			const text = `${JSON.stringify(content, null, 2)}\n`
			if (await this.writeExclusive(`${name}.json`, text)) {
				return { name, file: this.displayPath(`${name}.json`), size: Buffer.byteLength(text) }
			}
		}
		throw new HttpError('bad_request', `Too many saved files named ${base}`)
	}

	/**
	 * Writes a temporary file, then links it to the final name: `link` fails when the name exists, so
	 * two concurrent saves never overwrite each other and no reader ever sees a half-written file.
	 * Returns false when the name is taken.
	 */
	private async writeExclusive(fileName: string, text: string): Promise<boolean> {
		const target = path.join(this.directory, fileName)
		const temporary = path.join(this.directory, `.${fileName}.${process.pid}.${crypto.randomUUID()}.tmp`)
		await writeFile(temporary, text, { flag: 'wx' })
		try {
			await link(temporary, target)
			return true
		} catch (error) {
			if (isCode(error, 'EEXIST')) return false
			// File systems without hard links: reserve the name exclusively, then rename over it.
			if (!isCode(error, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS')) throw error
			try {
				await (await open(target, 'wx')).close()
			} catch (reserveError) {
				if (isCode(reserveError, 'EEXIST')) return false
				throw reserveError
			}
			await rename(temporary, target)
			return true
		} finally {
			await unlink(temporary).catch(() => {})
		}
	}

	/**
	 * Removes temporary files whose writer died mid-save (killed before its `finally` ran). The
	 * writer's pid is in the name; a file of a live process (another save under way) is left alone.
	 */
	private async sweepAbandonedTemporaries(): Promise<void> {
		for (const fileName of await readdir(this.directory).catch(() => [] as string[])) {
			const pid = Number(temporaryPattern.exec(fileName)?.[1])
			if (!pid || isAlive(pid)) continue
			await unlink(path.join(this.directory, fileName)).catch(() => {})
		}
	}

	/** Saved files, newest first. Only regular `*.json` files with a saved name (`isSavedName`) are listed. */
	async list(): Promise<SavedEntry[]> {
		let names: string[]
		try {
			names = await readdir(this.directory)
		} catch (error) {
			if (isCode(error, 'ENOENT')) return []
			throw error
		}
		const entries: SavedEntry[] = []
		for (const fileName of names) {
			if (!fileName.endsWith('.json') || !isSavedName(fileName.slice(0, -5))) continue
			const content = await this.readRegularFile(fileName).catch(() => undefined)
			if (!content) continue
			let request: string | null = null
			try {
				const parsed = JSON.parse(content.text) as Partial<SavedFile>
				if (typeof parsed.request === 'string') request = parsed.request
			} catch {
				// A hand-edited or foreign file: still listed, without its request line.
			}
			entries.push({
				name: fileName.slice(0, -5),
				file: this.displayPath(fileName),
				size: content.size,
				modified: content.modified.toISOString(),
				request
			})
		}
		return entries.sort(
			(left, right) => right.modified.localeCompare(left.modified) || left.name.localeCompare(right.name)
		)
	}

	/** The parsed content of one saved file (404 when absent, 400 for a name outside the strict form). */
	async read(filename: string): Promise<unknown> {
		const fileName = this.checkedFileName(filename)
		const content = await this.readRegularFile(fileName).catch((error) => {
			throw isCode(error, 'ENOENT', 'ELOOP', 'ENOTDIR', 'EISDIR') || error instanceof HttpError
				? new HttpError('not_found', `Saved file not found: ${fileName}`)
				: error
		})
		try {
			return JSON.parse(content.text)
		} catch {
			throw new HttpError('bad_request', `Saved file is not valid JSON: ${fileName}`)
		}
	}

	/** Deletes one saved file; only regular files inside the directory, never a link's target. */
	async remove(filename: string): Promise<{ deleted: string }> {
		const fileName = this.checkedFileName(filename)
		const target = await this.containedPath(fileName)
		const stats = await lstat(target).catch(() => undefined)
		const notFound = () => new HttpError('not_found', `Saved file not found: ${fileName}`)
		if (!stats?.isFile()) throw notFound()
		// Deleted meanwhile by another request (two deletes at once): that one deleted it.
		await unlink(target).catch((error: unknown) => {
			throw isCode(error, 'ENOENT') ? notFound() : error
		})
		return { deleted: fileName }
	}

	/**
	 * Validates a client-given name: normalised to NFC (a decomposed spelling finds the file), it
	 * must be a saved name (`isSavedName`), with `.json` added when missing. Checked before any
	 * file system call, so an over-long name is a 400, never a file system error.
	 */
	private checkedFileName(filename: string): string {
		const normalised = filename.normalize('NFC')
		const name = normalised.endsWith('.json') ? normalised.slice(0, -5) : normalised
		if (!isSavedName(name)) {
			throw new HttpError(
				'bad_request',
				'Invalid filename: use letters and digits of any script, _ or - (at most 100 characters and 150 bytes, optionally .json)'
			)
		}
		return `${name}.json`
	}

	/** Resolves a file name inside the (real) directory and proves it stays there. */
	private async containedPath(fileName: string): Promise<string> {
		const directory = await realpath(this.directory).catch(() => this.directory)
		const target = path.resolve(directory, fileName)
		if (path.dirname(target) !== directory) throw new HttpError('bad_request', 'Invalid filename')
		return target
	}

	/**
	 * Reads a regular file without following symbolic links (O_NOFOLLOW closes the check-then-open
	 * race). O_NONBLOCK keeps a FIFO planted under a saved name from blocking the open (and a thread)
	 * until a writer appears; the entry is then refused unless it is a regular file.
	 */
	private async readRegularFile(fileName: string): Promise<{ text: string; size: number; modified: Date }> {
		const target = await this.containedPath(fileName)
		const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
		try {
			const stats = await handle.stat()
			if (!stats.isFile()) throw new HttpError('not_found', `Saved file not found: ${fileName}`)
			return { text: await handle.readFile('utf8'), size: stats.size, modified: stats.mtime }
		} finally {
			await handle.close()
		}
	}
}
