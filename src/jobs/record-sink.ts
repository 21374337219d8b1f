/**
 * Where `smkit collect` puts records: a file (`--out`) or standard output. JSONL is written from
 * the store when the run begins and appended after each stored page; CSV and JSON are written from
 * the store at the end. The JSONL file always ends up holding exactly the stored records: one that
 * was removed, replaced or changed under the run (its inode or size is not as the run left it) is
 * written again from the store instead of appended to. Everything is streamed from the store
 * (`export.ts`), and standard output is written no faster than its reader reads.
 */
import { terminalText } from '../cli-error'
import { type ExportChunk, type ExportFormat, exportChunks } from './export'
import { appendExport, drained, type WrittenFile, writeExport } from './export-file'
import type { JobStore } from './store'

/** The records of one job run, to `path` (or standard output) in `format`. */
export class RecordSink {
	#written = 0
	/** What was written last to standard output ends a line (nothing written counts as ended). */
	#endsLine = true
	/** The --out file as this run left it; null for standard output and special files (/dev/null). */
	#left: WrittenFile = null
	/** Set when standard output's reader went away (`| head`): nothing more is written to it. */
	outputClosed = false

	constructor(
		private readonly jobs: JobStore,
		private readonly id: number,
		private readonly format: ExportFormat,
		private readonly path: string | undefined,
		/** Told when the file was written again because it changed under the run. */
		private readonly notice: (line: string) => void = () => {}
	) {}

	/** JSONL: writes what the store holds already (the file is rebuilt, so a crash leaves no gap). */
	async begin(signal?: AbortSignal): Promise<void> {
		if (this.format !== 'jsonl') return
		const lastSeq = this.#collected()
		if (this.path) await this.#rewrite(lastSeq, signal)
		else await this.#stdout(await exportChunks(this.jobs, this.id, 'jsonl', { lastSeq, signal }), signal)
		this.#written = lastSeq
	}

	/**
	 * JSONL: appends the records stored since the last call. Pages stored while it writes are the
	 * next call's: each record is written once, whatever the pace of the file or the reader.
	 */
	async append(signal?: AbortSignal): Promise<void> {
		if (this.format !== 'jsonl') return
		const lastSeq = this.#collected()
		if (lastSeq === this.#written) return
		const options = { afterSeq: this.#written, lastSeq, signal }
		if (this.path) {
			const appended = await appendExport(this.jobs, this.id, this.path, this.#left, options)
			if (appended === undefined) {
				this.notice(`${this.path} was removed or changed while collecting: written again from the store`)
				await this.#rewrite(lastSeq, signal)
			} else this.#left = appended
		} else await this.#stdout(await exportChunks(this.jobs, this.id, 'jsonl', options), signal)
		this.#written = lastSeq
	}

	/** CSV and JSON: the whole file from the store. */
	async end(signal?: AbortSignal): Promise<void> {
		if (this.format === 'jsonl') return
		if (this.path) await writeExport(this.jobs, this.id, this.format, this.path, { signal })
		else {
			await this.#stdout(await exportChunks(this.jobs, this.id, this.format, { signal }), signal)
			// On a terminal the prompt (or the summary line) would follow the last row on its line.
			if (process.stdout.isTTY && !this.outputClosed && !this.#endsLine) process.stdout.write('\n')
		}
	}

	/** The last record stored now: what a write started now holds. */
	#collected(): number {
		return this.jobs.get(this.id)?.collected ?? 0
	}

	async #rewrite(lastSeq: number, signal?: AbortSignal): Promise<void> {
		this.#left = await writeExport(this.jobs, this.id, 'jsonl', this.path as string, { lastSeq, signal })
	}

	/** Writes the chunks to standard output, waiting for its reader whenever its buffer is full. */
	async #stdout(chunks: Iterable<ExportChunk>, signal?: AbortSignal): Promise<void> {
		for (const part of chunks) {
			if (this.outputClosed) return
			// On a terminal the records are read, not stored: CSV cells hold captions and names as they
			// came, so their control characters are shown as text (JSON escapes them already).
			const shown =
				process.stdout.isTTY && typeof part === 'string' ? terminalText(part.replace(/\r\n/g, '\n')) : part
			if (shown.length > 0)
				this.#endsLine = typeof shown === 'string' ? shown.endsWith('\n') : shown.at(-1) === 0x0a
			if (!process.stdout.write(shown)) await drained(process.stdout, signal)
		}
	}
}
