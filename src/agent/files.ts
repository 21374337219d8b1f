/**
 * Where `saveFile(name, content)` from generated code writes: one directory (default `output/`,
 * created on demand). Names are sanitised and resolved inside it, nothing is overwritten (a
 * suffix is added), and callers only ever see paths relative to the working directory, never an
 * absolute server path (docs/api-contract.md, "Security").
 */
import { mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { FileWriteError, fileWriteError } from '../client/file-write-error'
import type { SavedFile } from './events'

/** Largest file generated code may write (bytes). */
export const maxFileBytes = 10 * 1024 * 1024

/** A file name that cannot be used at all (empty after sanitising, too big). */
export class FileNameError extends Error {
	override name = 'FileNameError'
}

/**
 * Sanitises a requested name to letters, digits, `.`, `_` and `-` (at most 100 characters, no
 * leading dot, no directories). A name without an extension gets `.txt`.
 */
export function sanitiseFileName(requested: string): string {
	const base = String(requested).split(/[\\/]/).pop() ?? ''
	let name = base
		.normalize('NFKD')
		.replace(/[^A-Za-z0-9._-]+/g, '_')
		.replace(/^[._-]+/, '')
		.replace(/\.{2,}/g, '.')
	if (name.length > 100) {
		const extension = path.extname(name).slice(0, 10)
		name = name.slice(0, 100 - extension.length) + extension
	}
	if (!name || name === '_')
		throw new FileNameError(`'${String(requested).slice(0, 60)}' is not a usable file name`)
	if (!path.extname(name)) name = `${name}.txt`
	return name
}

/** Writes files for generated code into one directory. */
export class OutputFiles {
	/** Absolute directory the files go into. */
	readonly directory: string
	private readonly cwd: string

	/** `directory` is relative to `cwd` (default: the process working directory). */
	constructor(directory = 'output', options: { cwd?: string } = {}) {
		this.cwd = options.cwd ?? process.cwd()
		this.directory = path.resolve(this.cwd, directory)
	}

	/** The path shown to people and models: relative to the working directory, never absolute. */
	displayPath(absolute: string): string {
		const relative = path.relative(this.cwd, absolute)
		if (!relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/')
		return `${path.basename(this.directory)}/${path.basename(absolute)}`
	}

	/**
	 * Why writing `name` failed, in plain words and without an absolute path: `cannot write x.txt:
	 * the folder output is not writable (permission denied)`, `... the disk is full`.
	 */
	writeErrorMessage(name: string, error: unknown): string {
		const relative = path.relative(this.cwd, this.directory)
		const inside = !relative.startsWith('..') && !path.isAbsolute(relative)
		const folder = inside ? relative.split(path.sep).join('/') || '.' : path.basename(this.directory)
		// The helper looks at the real folder; the words name it as the person knows it.
		const described = fileWriteError(name, error, { folder: this.directory })
		if (!(described instanceof FileWriteError)) return `cannot write ${name}`
		const reason = described.reason.split(this.directory).join(folder)
		// An unusual error code keeps the system's own words, which may name an absolute path.
		const absolute = /(^|[\s'"(])(\/|[A-Za-z]:\\)\S/.test(reason)
		return absolute ? `cannot write ${name} (${described.code})` : `cannot write ${name}: ${reason}`
	}

	/** What the file would be called, and its size, before asking permission to write it. */
	plan(requested: string, content: string): { name: string; size: number } {
		const name = sanitiseFileName(requested)
		const size = Buffer.byteLength(String(content), 'utf8')
		if (size > maxFileBytes) throw new FileNameError(`${name} is ${size} bytes; the limit is ${maxFileBytes}`)
		return { name, size }
	}

	/**
	 * Writes `content` under the sanitised name (or `name-2.ext`, `name-3.ext`... when taken).
	 * The content goes to a temporary file first, then is linked into place only if the name is free.
	 * An aborted `signal` cancels a write that has not started.
	 */
	async save(requested: string, content: string, signal?: AbortSignal): Promise<SavedFile> {
		const { name } = this.plan(requested, content)
		signal?.throwIfAborted()
		await mkdir(this.directory, { recursive: true })
		const extension = path.extname(name)
		const stem = name.slice(0, name.length - extension.length)
		const data = Buffer.from(String(content), 'utf8')
		for (let attempt = 1; attempt <= 1000; attempt++) {
			const candidate = attempt === 1 ? name : `${stem}-${attempt}${extension}`
			const target = path.resolve(this.directory, candidate)
			// Containment is checked on the resolved path, not by looking for '..' in the name.
			if (path.dirname(target) !== this.directory)
				throw new FileNameError(`${candidate} is outside the output folder`)
			const temporary = path.join(this.directory, `.${candidate}.${crypto.randomUUID()}.tmp`)
			let handle: Awaited<ReturnType<typeof open>> | undefined
			try {
				// 'wx' creates the final name exclusively, so a concurrent writer can never be overwritten.
				handle = await open(target, 'wx')
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
				throw error
			}
			await handle.close()
			try {
				// Cancelled (the run ended) before the content was written: the reserved name goes too.
				signal?.throwIfAborted()
				await Bun.write(temporary, data)
				await rename(temporary, target)
			} catch (error) {
				await rm(temporary, { force: true })
				await rm(target, { force: true })
				throw error
			}
			return { name: candidate, file: this.displayPath(target), size: data.length }
		}
		throw new FileNameError(`too many files named ${name}`)
	}
}
