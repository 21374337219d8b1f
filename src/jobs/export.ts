/**
 * A job's records as a file: JSONL (one record per line), JSON (an array) or CSV (the export's
 * rules: union header, dotted columns, formulas defused, UTF-8 with BOM), always in arrival order
 * and read from the store, so a file written after a crash holds exactly the stored records.
 *
 * Streamed: the records are read from the store a batch at a time and the text handed over in
 * chunks, so an export of millions of records takes no more memory than one of a thousand. CSV
 * reads the records twice: once for the header (the union of their keys, docs/api-contract.md, "CSV
 * export"), then for the rows. Writing the chunks: `export-file.ts`.
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import { unicodeEscape } from '../cli-error'
import { CHUNK_CHARACTERS, csvChunks, csvHeaderLine, csvRowLine, UTF8_BOM } from '../server/csv'
import { type Row, TableBuilder } from '../server/csv-table'
import { KIND_SOURCES } from './kinds'
import type { JobStore } from './store'

export const EXPORT_FORMATS = ['jsonl', 'csv', 'json'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** What each file extension asks for (`--out followers.csv` writes CSV unless --format says otherwise). */
const FORMAT_OF_EXTENSION: Record<string, ExportFormat> = {
	csv: 'csv',
	json: 'json',
	jsonl: 'jsonl',
	ndjson: 'jsonl'
}

/**
 * The format of an export: the one asked for, else the one the output file's extension names
 * (.csv, .json, .jsonl, .ndjson, in any case), else JSONL.
 */
export function exportFormatFor(asked: ExportFormat | undefined, out: string | undefined): ExportFormat {
	if (asked) return asked
	const extension = /\.(\w+)$/.exec(out ?? '')?.[1]?.toLowerCase()
	return (extension && FORMAT_OF_EXTENSION[extension]) || 'jsonl'
}

/** Content types of the formats. */
export const CONTENT_TYPES: Record<ExportFormat, string> = {
	jsonl: 'application/x-ndjson; charset=utf-8',
	json: 'application/json; charset=utf-8',
	csv: 'text/csv; charset=utf-8'
}

/** A part of an exported file: text (written as UTF-8) or bytes (the CSV's byte order mark). */
export type ExportChunk = string | Uint8Array<ArrayBuffer>

/**
 * Characters JSON leaves raw that some line readers take for line ends: NEL, LINE SEPARATOR and
 * PARAGRAPH SEPARATOR (Python's `str.splitlines`, some editors). Captions pasted from phones carry them.
 */
const lineEndsInJson = /[\u0085\u2028\u2029]/g

/** A record as JSON text on one line for any line reader: the characters above as `\u2028` escapes. */
export function recordJson(record: unknown): string {
	return JSON.stringify(record).replace(lineEndsInJson, unicodeEscape)
}

/** Gives the event loop a turn: requests, signals and I/O go on between two batches of work. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Which records an export holds, and what stops it. */
export interface ExportOptions {
	/** JSONL only: from the record after this one (the lines a file has already are not written again). */
	afterSeq?: number
	/** Up to this record (default: the last one stored when the export starts). */
	lastSeq?: number
	/** Aborting stops the export between two batches of records. */
	signal?: AbortSignal
}

/**
 * The job's records in `format` as chunks of about `CHUNK_CHARACTERS`, each ending after a whole
 * record, read from the store as they are pulled: the records stored when this is called (pages a
 * running job stores later are not in it). CSV first plans its header over every record, giving
 * the event loop a turn and checking `signal` between batches; a refusal (more than 1,000 columns)
 * comes before any chunk.
 */
export async function exportChunks(
	jobs: JobStore,
	id: number,
	format: ExportFormat,
	options: ExportOptions = {}
): Promise<Generator<ExportChunk>> {
	const lastSeq = options.lastSeq ?? jobs.get(id)?.collected ?? 0
	const afterSeq = format === 'jsonl' ? (options.afterSeq ?? 0) : 0
	const expected = Math.max(0, lastSeq - afterSeq)
	const records = function* (): Generator<unknown> {
		let read = 0
		for (const batch of jobs.recordBatches(id, afterSeq, lastSeq)) {
			read += batch.length
			yield* batch
		}
		// Records only leave a job with it (deleted, or started over with --fresh): not a whole file.
		if (read !== expected)
			throw new Error(`job ${id} lost records during the export (deleted or started over); export it again`)
	}
	if (format === 'jsonl') return textChunks(records(), (record) => `${recordJson(record)}\n`, '', '')
	if (format === 'json') {
		if (expected === 0) return textChunks([], () => '', '[]\n', '')
		let separator = ''
		return textChunks(
			records(),
			(record) => {
				const line = `${separator}${recordJson(record)}`
				separator = ',\n'
				return line
			},
			'[\n',
			'\n]\n'
		)
	}
	if (expected === 0) return emptyCsv(jobs, id)
	const builder = new TableBuilder()
	for (const batch of jobs.recordBatches(id, 0, lastSeq)) {
		for (const record of batch) builder.survey(record as Row)
		await nextTurn()
		options.signal?.throwIfAborted()
	}
	builder.plan()
	const width = builder.header.length
	return withBom(
		textChunks(
			records(),
			(record) => `\r\n${csvRowLine(builder.row(record as Row), width)}`,
			csvHeaderLine(builder.header),
			''
		)
	)
}

/**
 * The chunks as a byte stream, one chunk per pull: a download is read from the store as fast as
 * its client takes it, and a client that goes away stops the reading.
 */
export function exportStream(chunks: Generator<ExportChunk>): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder()
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			const next = chunks.next()
			if (next.done) controller.close()
			else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value)
		},
		cancel() {
			chunks.return(undefined)
		}
	})
}

/**
 * `start`, the lines of `records` (each made by `line`), then `end`, gathered into chunks of about
 * `CHUNK_CHARACTERS`.
 */
function* textChunks(
	records: Iterable<unknown>,
	line: (record: unknown) => string,
	start: string,
	end: string
): Generator<string> {
	let chunk = start
	for (const record of records) {
		chunk += line(record)
		if (chunk.length >= CHUNK_CHARACTERS) {
			yield chunk
			chunk = ''
		}
	}
	chunk += end
	if (chunk !== '') yield chunk
}

/** The byte order mark every CSV file starts with, then the file's text. */
function* withBom(chunks: Iterable<string>): Generator<ExportChunk> {
	yield UTF8_BOM
	yield* chunks
}

/**
 * The CSV of a job with no records: the byte order mark and the columns its kind's records have,
 * so a script reading the file (pandas' read_csv) gets no rows instead of an error about a file
 * with no columns.
 */
function* emptyCsv(jobs: JobStore, id: number): Generator<ExportChunk> {
	yield UTF8_BOM
	const job = jobs.get(id)
	if (job) yield* csvChunks({ header: modelColumns(KIND_SOURCES[job.kind].record), rows: [] })
}

/**
 * The CSV columns records of `model` have, flattened as the export flattens them (an object
 * field, nullable or not, as its dotted columns): the header of an empty list.
 */
export function modelColumns(model: TObject): string[] {
	const columns: string[] = []
	for (const [key, property] of Object.entries(model.properties)) {
		const object = [property, ...((property.anyOf as TSchema[] | undefined) ?? [])].find(
			(schema) => schema.type === 'object' && schema.properties
		)
		if (object) for (const child of Object.keys(object.properties)) columns.push(`${key}.${child}`)
		else columns.push(key)
	}
	return columns
}
