/**
 * CSV export (DESIGN 4 "CSV export"). The original took its header from the first row only, wrote
 * Python reprs and let `=cmd|...` cells through (reference/upstream-facts.md section 4). Here:
 * header = union of keys in first-seen order; nested objects flattened one level with dotted keys
 * (`user.username`); arrays and anything deeper as JSON text; null and missing cells empty; RFC 4180
 * quoting, comma, CRLF by papaparse; a leading `'` defuses cells spreadsheets would run as formulas.
 */
import Papa from 'papaparse'
import { HttpError } from './envelope'

/** Cells starting like this are formulas to Excel/LibreOffice. Papaparse's own default regex ends
 * in `.*$` without the dotall flag, so it misses such a cell when it contains a line break. */
const formulaStart = /^[=+\-@\t\r]/

type Row = Record<string, unknown>

export const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf])

const isPlainObject = (value: unknown): value is Row =>
	typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * JSON text of a nested cell. A value nested thousands of levels deep overflows the stack of
 * JSON.stringify: that is the caller's bad input (400 naming the column), not a server error.
 */
function jsonCell(value: object, column: string): string {
	try {
		return JSON.stringify(value)
	} catch (error) {
		if (!(error instanceof RangeError)) throw error
		throw new HttpError(
			'bad_request',
			`Invalid data: the value of '${column}' is nested too deeply to export`
		)
	}
}

/** A nested value as one cell: arrays and deeper objects become JSON text. */
const asCell = (value: unknown, column: string): unknown =>
	value !== null && typeof value === 'object' ? jsonCell(value, column) : value

/**
 * Flattens one record one level deep, adding new column names to `header` as they are first seen.
 * Records without nested values are returned as they are, so the common flat case copies nothing.
 */
function flattenRecord(record: Row, header: string[], seen: Set<string>): Row {
	let flat: Row | undefined
	for (const key in record) {
		const value = record[key]
		if (value === null || typeof value !== 'object') {
			if (!seen.has(key)) {
				seen.add(key)
				header.push(key)
			}
			if (flat) flat[key] = value
			continue
		}
		// First nested value: from here on this record needs its own flat copy.
		if (!flat) {
			// No prototype: a `__proto__` column is data here, and `{}` would swallow it through its setter.
			flat = Object.create(null) as Row
			for (const earlier in record) {
				if (earlier === key) break
				flat[earlier] = record[earlier]
			}
		}
		if (Array.isArray(value) || Object.keys(value).length === 0) {
			if (!seen.has(key)) {
				seen.add(key)
				header.push(key)
			}
			flat[key] = jsonCell(value, key)
			continue
		}
		for (const childKey in value as Row) {
			const column = `${key}.${childKey}`
			if (!seen.has(column)) {
				seen.add(column)
				header.push(column)
			}
			flat[column] = asCell((value as Row)[childKey], column)
		}
	}
	return flat ?? record
}

/** The records of an export request: `{ data: { data: [...] } }` or `{ data: [...] }`; else a 400. */
export function recordsOf(body: unknown): Row[] {
	const outer = isPlainObject(body) ? body.data : undefined
	const records = Array.isArray(outer) ? outer : isPlainObject(outer) ? outer.data : undefined
	if (!Array.isArray(records)) {
		throw new HttpError(
			'bad_request',
			'Invalid data: expected { data: [records] } or { data: { data: [records] } }'
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

/** Renders records as CSV text (no BOM): header line, then one CRLF-separated line per record. */
export function toCsv(records: readonly Row[]): string {
	const header: string[] = []
	const seen = new Set<string>()
	const rows = records.map((record) => flattenRecord(record, header, seen))
	if (header.length === 0) throw new HttpError('bad_request', 'Invalid data: the records have no fields')
	// Papaparse writes a record without own keys as an empty line; give it an explicit empty first cell.
	for (let index = 0; index < rows.length; index++) {
		if (Object.keys(rows[index]).length === 0) rows[index] = { [header[0]]: null }
	}
	return Papa.unparse({ fields: header, data: rows }, { newline: '\r\n', escapeFormulae: formulaStart })
}

/** `export-YYYYMMDD-HHMMSS.csv` for a moment in local time. */
export function exportFileName(date = new Date()): string {
	const two = (value: number) => String(value).padStart(2, '0')
	const day = `${date.getFullYear()}${two(date.getMonth() + 1)}${two(date.getDate())}`
	return `export-${day}-${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}.csv`
}

/** The download response: UTF-8 with BOM (so spreadsheet programs detect the encoding). */
export function csvResponse(body: unknown, date = new Date()): Response {
	const csv = toCsv(recordsOf(body))
	// The BOM as bytes beside the text: prefixing "\uFEFF" would turn an all-ASCII CSV into a
	// two-byte string and make encoding it several times slower (same bytes either way).
	return new Response(new Blob([UTF8_BOM, csv]), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${exportFileName(date)}"`
		}
	})
}
