/**
 * CSV export: records (flattened by `csv-table.ts`: union header, dotted columns for objects, JSON
 * text for arrays and anything deeper) written as RFC 4180 text, comma, CRLF; null and missing cells
 * empty; a leading `'` defuses cells spreadsheets would run as formulas.
 *
 * Bounded work: besides the table's 1,000 columns, an export request may have 10,000,000 cells
 * (rows x columns), refused with a 400 naming the cap before any output, because records with
 * distinct keys grow the output with rows x columns. The response is streamed in chunks pulled by
 * the client, so the event loop keeps serving other requests while a large export is written.
 */
import { type CsvTable, isPlainObject, type Row, toCsvTable, toCsvTableAsync } from './csv-table'
import { HttpError } from './envelope'

/** Most cells (rows x columns) an export may have. */
export const MAX_CELLS = 10_000_000
/** Hard stop for the streamed output, in bytes (the caps above keep the endpoint well below it). */
export const MAX_OUTPUT_BYTES = 128 * 1024 * 1024

/** Characters of CSV text per streamed chunk. */
export const CHUNK_CHARACTERS = 64 * 1024

/** The UTF-8 byte order mark every CSV file starts with (docs/api-contract.md, "CSV export"). */
export const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf])

/**
 * Cells a spreadsheet would run as a formula: `=`, `+`, `-`, `@` (or their full-width forms),
 * possibly behind whitespace, line breaks or semicolons (a `;`-separated reading starts a new cell
 * there), and cells starting with a tab or carriage return.
 */
const formulaStart = /^[\s;]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/
/** Cells that must be quoted: separators, quotes, line breaks, edge whitespace, and `;`. */
const needsQuotes = /[",;\r\n]|^\s|\s$/

/** Formats a string as a CSV cell: quoted when needed, formulas prefixed with `'`. */
function stringCell(text: string): string {
	if (formulaStart.test(text)) return `"'${text.replaceAll('"', '""')}"`
	if (needsQuotes.test(text)) return `"${text.replaceAll('"', '""')}"`
	return text
}

/** One cell's text: empty for null and missing, strings escaped, numbers and booleans as text. */
function cellText(value: unknown): string {
	if (value === null || value === undefined) return ''
	return typeof value === 'string' ? stringCell(value) : String(value)
}

/**
 * A 400 when a table has more than `MAX_CELLS` cells: the rows x columns an export request may
 * produce (a collection job's records are the user's own and are not capped).
 */
export function checkCellCount({ header, rows }: CsvTable): void {
	if (rows.length * header.length <= MAX_CELLS) return
	throw new HttpError(
		'bad_request',
		`Invalid data: ${rows.length} records x ${header.length} columns is more than ${MAX_CELLS.toLocaleString('en-US')} cells; export fewer records or fields`
	)
}

/**
 * The records of an export request: `{ data: [...] }` or `{ data: { data: [...] } }` (a list
 * envelope); a single record, `{ data: {...} }` or an envelope of one, is one row. Else a 400.
 */
export function recordsOf(body: unknown): Row[] {
	const outer = isPlainObject(body) ? body.data : undefined
	let records: unknown
	if (Array.isArray(outer)) records = outer
	else if (isPlainObject(outer)) {
		// An envelope (or a bare `{ data }` wrapper) holds the data; any other object is the record.
		const wrapper = typeof outer.success === 'boolean' || (Object.keys(outer).length === 1 && 'data' in outer)
		if (Array.isArray(outer.data)) records = outer.data
		else if (!wrapper) records = [outer]
		else if (isPlainObject(outer.data)) records = [outer.data]
	}
	if (!Array.isArray(records)) {
		throw new HttpError(
			'bad_request',
			'Invalid data: expected { data: [records] }, { data: { data: [records] } } or { data: {record} }'
		)
	}
	if (records.length === 0) throw new HttpError('bad_request', 'Invalid data: there are no records to export')
	for (let index = 0; index < records.length; index++) {
		if (!isPlainObject(records[index])) {
			throw new HttpError('bad_request', `Invalid data[${index}]: every record must be a JSON object`)
		}
	}
	return records as Row[]
}

/** The header line of a CSV file (no line end). */
export function csvHeaderLine(header: readonly string[]): string {
	return header.map(stringCell).join(',')
}

/** One row's line (no line end): `width` cells, holes and null empty. */
export function csvRowLine(cells: readonly unknown[], width: number): string {
	let line = cellText(cells[0])
	for (let column = 1; column < width; column++) line += `,${cellText(cells[column])}`
	return line
}

/** The CSV text of a table in chunks of about `CHUNK_CHARACTERS`: header line, then CRLF-separated rows. */
export function* csvChunks({ header, rows }: CsvTable): Generator<string> {
	const width = header.length
	let chunk = csvHeaderLine(header)
	for (const cells of rows) {
		chunk += `\r\n${csvRowLine(cells, width)}`
		if (chunk.length >= CHUNK_CHARACTERS) {
			yield chunk
			chunk = ''
		}
	}
	if (chunk !== '') yield chunk
}

/** Renders records as CSV text (no BOM): header line, then one CRLF-separated line per record. */
export function toCsv(records: readonly Row[]): string {
	return [...csvChunks(toCsvTable(records))].join('')
}

/**
 * What a file holds as a file-name part: letters, digits, `.`, `_` and `-` (runs of anything else
 * become one `_`), no leading dot, at most 80 characters; `export` when nothing is left.
 */
export function fileNamePart(name: unknown): string {
	const cleaned =
		typeof name === 'string'
			? name
					.replace(/[^A-Za-z0-9._-]+/g, '_')
					.replace(/^[._-]+|[._-]+$/g, '')
					.slice(0, 80)
			: ''
	return cleaned === '' ? 'export' : cleaned
}

/**
 * `NAME-YYYYMMDD-HHMMSS.csv` for a moment in local time, NAME saying what the file holds
 * (`followers-luna.explorer`), `export` by default.
 */
export function exportFileName(date = new Date(), name?: unknown): string {
	const two = (value: number) => String(value).padStart(2, '0')
	const day = `${date.getFullYear()}${two(date.getMonth() + 1)}${two(date.getDate())}`
	const time = `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`
	return `${fileNamePart(name)}-${day}-${time}.csv`
}

/** A byte stream of the table, BOM first, one chunk per pull; errors past `MAX_OUTPUT_BYTES`. */
function csvStream(table: CsvTable): ReadableStream<Uint8Array> {
	const chunks = csvChunks(table)
	const encoder = new TextEncoder()
	let sent = 0
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(UTF8_BOM)
		},
		async pull(controller) {
			// Each piece after the first waits its turn: other requests are served between pieces
			// (a 10 MB file written at once held the server for a third of a second).
			if (sent > 0) await new Promise((resolve) => setImmediate(resolve))
			const next = chunks.next()
			if (next.done) {
				controller.close()
				return
			}
			const bytes = encoder.encode(next.value)
			sent += bytes.byteLength
			if (sent > MAX_OUTPUT_BYTES) {
				controller.error(new Error('CSV export over the output cap'))
				return
			}
			controller.enqueue(bytes)
		}
	})
}

/**
 * The download response: UTF-8 with BOM (so spreadsheet programs detect the encoding), streamed.
 * Every 400 (shape, caps, nesting) is raised before the response starts. The body's optional
 * `name` says what the records are and starts the file name.
 */
export async function csvResponse(body: unknown, date = new Date()): Promise<Response> {
	const table = await toCsvTableAsync(recordsOf(body))
	checkCellCount(table)
	const name = isPlainObject(body) ? body.name : undefined
	return new Response(csvStream(table), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${exportFileName(date, name)}"`
		}
	})
}
