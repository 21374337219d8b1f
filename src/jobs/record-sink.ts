/**
 * Where `smkit collect` puts records: a file (`--out`) or standard output. JSONL is written from
 * the store when the run begins and appended after each stored page; CSV and JSON are written from
 * the store at the end. The JSONL file always ends up holding exactly the stored records: one that
 * was removed, replaced or changed under the run (its inode or size is not as the run left it) is
 * written again from the store instead of appended to.
 */
import { appendFileSync, statSync } from 'node:fs'
import { terminalText } from '../cli-error'
import { type ExportFormat, exportParts, jsonLines, writeExport } from './export'
import type { JobStore } from './store'
import type { Job } from './types'

/** The records of one job run, to `path` (or standard output) in `format`. */
export class RecordSink {
	#written = 0
	/** The --out file as this run left it; null for standard output and special files (/dev/null). */
	#left: { ino: number; size: number } | null = null
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
	begin(): void {
		if (this.format !== 'jsonl') return
		const job = this.jobs.get(this.id) as Job
		if (this.path) this.#rewrite()
		else this.#stdout(jsonLines(this.jobs.records(this.id)))
		this.#written = job.collected
	}

	/** JSONL: appends the records stored since the last call. */
	append(): void {
		if (this.format !== 'jsonl') return
		const job = this.jobs.get(this.id) as Job
		if (job.collected === this.#written) return
		if (this.path && this.#changed()) {
			this.notice(`${this.path} was removed or changed while collecting: written again from the store`)
			this.#rewrite()
		} else {
			const text = jsonLines(this.jobs.records(this.id, this.#written))
			if (this.path) {
				appendFileSync(this.path, text)
				this.#remember()
			} else this.#stdout(text)
		}
		this.#written = job.collected
	}

	/** CSV and JSON: the whole file from the store. */
	end(): void {
		if (this.format === 'jsonl') return
		if (this.path) writeExport(this.jobs, this.id, this.format, this.path)
		else for (const part of exportParts(this.jobs, this.id, this.format)) this.#stdout(part)
	}

	#rewrite(): void {
		writeExport(this.jobs, this.id, 'jsonl', this.path as string)
		this.#remember()
	}

	#remember(): void {
		const stat = statSync(this.path as string, { throwIfNoEntry: false })
		this.#left = stat?.isFile() ? { ino: stat.ino, size: stat.size } : null
	}

	#changed(): boolean {
		if (this.#left === null) return false
		const stat = statSync(this.path as string, { throwIfNoEntry: false })
		return stat?.ino !== this.#left.ino || stat.size !== this.#left.size
	}

	#stdout(part: string | Uint8Array): void {
		if (this.outputClosed) return
		// On a terminal the records are read, not stored: CSV cells hold captions and names as they
		// came, so their control characters are shown as text (JSON escapes them already).
		const shown =
			process.stdout.isTTY && typeof part === 'string' ? terminalText(part.replace(/\r\n/g, '\n')) : part
		process.stdout.write(shown)
	}
}
