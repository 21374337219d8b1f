/**
 * A job's records as a file: JSONL (one record per line), JSON (an array) or CSV (the export's
 * rules: union header, dotted columns, formulas defused, UTF-8 with BOM), always in arrival order
 * and read from the store, so a file written after a crash holds exactly the stored records.
 */
import { lstatSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { TObject, TSchema } from '@sinclair/typebox'
import { csvChunks, toCsv, UTF8_BOM } from '../server/csv'
import { KIND_SOURCES } from './kinds'
import type { JobStore } from './store'

export const EXPORT_FORMATS = ['jsonl', 'csv', 'json'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** Content types of the formats. */
export const CONTENT_TYPES: Record<ExportFormat, string> = {
	jsonl: 'application/x-ndjson; charset=utf-8',
	json: 'application/json; charset=utf-8',
	csv: 'text/csv; charset=utf-8'
}

/**
 * Characters JSON leaves raw that some line readers take for line ends: NEL, LINE SEPARATOR and
 * PARAGRAPH SEPARATOR (Python's `str.splitlines`, some editors). Captions pasted from phones carry them.
 */
const lineEndsInJson = /[\u0085\u2028\u2029]/g

/** A record as JSON text on one line for any line reader: the characters above as `\u2028` escapes. */
export function recordJson(record: unknown): string {
	return JSON.stringify(record).replace(
		lineEndsInJson,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
	)
}

/** Records as JSONL text: one JSON object per line, each line ended. */
export function jsonLines(records: Iterable<unknown>): string {
	let text = ''
	for (const record of records) text += `${recordJson(record)}\n`
	return text
}

/** The job's records (from `afterSeq` on, for JSONL) in `format`, as the parts of a file. */
export function exportParts(
	jobs: JobStore,
	id: number,
	format: ExportFormat
): (string | Uint8Array<ArrayBuffer>)[] {
	if (format === 'jsonl') return [jsonLines(jobs.records(id))]
	const records = [...jobs.records(id)] as Record<string, unknown>[]
	if (format === 'json') {
		const lines = records.map(recordJson)
		return [lines.length === 0 ? '[]\n' : `[\n${lines.join(',\n')}\n]\n`]
	}
	if (records.length > 0) return [UTF8_BOM, toCsv(records)]
	const job = jobs.get(id)
	return job
		? [UTF8_BOM, ...csvChunks({ header: modelColumns(KIND_SOURCES[job.kind].record), rows: [] })]
		: [UTF8_BOM]
}

/**
 * The CSV columns records of `model` have, flattened as the export flattens them (an object
 * field, nullable or not, as its dotted columns): the header of an empty list, so a script reading
 * the file (pandas' read_csv) gets no rows instead of an error about a file with no columns.
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

/**
 * Writes the job's records to `path` in `format`, replacing the file in one step (temporary file,
 * rename). A symbolic link is followed: the file it names is replaced, the link stays. A device,
 * pipe or other special file (`/dev/null`, `/dev/stdout`, a FIFO) is written into: renamed over, it
 * would become a regular file (for root, `/dev/null` itself).
 */
export function writeExport(jobs: JobStore, id: number, format: ExportFormat, path: string): void {
	const parts = exportParts(jobs, id, format)
	const content = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)))
	const existing = statSync(path, { throwIfNoEntry: false })
	if (existing && !existing.isFile()) {
		writeFileSync(path, content)
		return
	}
	const target = existing ? realpathSync(path) : linkedTarget(path)
	const temporary = `${target}.tmp-${process.pid}`
	try {
		writeFileSync(temporary, content)
		renameSync(temporary, target)
	} catch (error) {
		// A full disk leaves part of the file written: removed, it does not hold the space it filled.
		rmSync(temporary, { force: true })
		throw error
	}
}

/** Where `path`, which does not exist, would be: a link to a missing file names that file. */
function linkedTarget(path: string): string {
	let target = path
	for (let hops = 0; hops < 40 && lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink(); hops++)
		target = resolve(dirname(target), readlinkSync(target))
	return target
}
