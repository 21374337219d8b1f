/**
 * Records to a table for the CSV export (docs/api-contract.md, "CSV export"). The header is planned
 * over every record before any row is built, so a field holds the same columns in every row
 * whichever record comes first: an object field (`location`, `music`) that is null in some records
 * and an object in others is its dotted columns only (`location.pk`, `location.name`), placed where
 * the field first appears, with empty cells where it was null. A field that also holds plain values
 * keeps a column of its own name beside them.
 *
 * Bounded work: at most 1,000 columns, refused with a 400 before any row is built. Rows are arrays
 * indexed through a Map of column names, so field names such as `__proto__` or `constructor` are
 * plain data.
 */
import { HttpError } from './envelope'

/** Most columns an export may have. */
export const MAX_COLUMNS = 1000

/** How long the table is built between two turns of the event loop, and how often that is looked at. */
const SLICE_MS = 10
const RECORDS_PER_LOOK = 64

/** One record of an export. */
export type Row = Record<string, unknown>

/** A table ready to write: the header and one array of cells per record, in header order. */
export interface CsvTable {
	header: string[]
	rows: unknown[][]
}

/** What one top-level field holds across the records. */
interface Field {
	/** Some record holds a plain value or an array here: the field has a column of its own name. */
	plain: boolean
	/** The keys of the objects it holds, in first-seen order: its dotted columns. */
	children: Set<string>
}

export const isPlainObject = (value: unknown): value is Row =>
	typeof value === 'object' && value !== null && !Array.isArray(value)

/** An object with keys: flattened into dotted columns. */
const isNested = (value: unknown): value is Row => isPlainObject(value) && Object.keys(value).length > 0

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

/**
 * A number cell as it came: an integer beyond 2^53 was already rounded when its JSON was read
 * (3842790443716764595 reads as 3842790443716764700), so it is a 400 naming the column rather than
 * a cell with other digits. Ids should travel as strings, as smkit's own records hold them.
 */
function exactCell(value: unknown, column: string): unknown {
	if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value))
		throw new HttpError(
			'bad_request',
			`Invalid data: the number in '${column}' has more digits than JSON numbers keep exactly (over 2^53); send it as a string`
		)
	return value
}

/**
 * Plans the columns over every record (first pass: `survey` each, then `plan`), then builds the
 * rows (second pass: `add` keeps them, `row` hands each over so a stream of records can be written
 * without holding them: a job's export, src/jobs/export.ts).
 */
export class TableBuilder {
	readonly header: string[] = []
	readonly rows: unknown[][] = []
	private readonly fields = new Map<string, Field>()
	private readonly columns = new Map<string, number>()

	/** First pass: what each field holds. */
	survey(record: Row): void {
		for (const key of Object.keys(record)) {
			let field = this.fields.get(key)
			if (field === undefined) {
				field = { plain: false, children: new Set() }
				this.fields.set(key, field)
			}
			const value = record[key]
			if (isNested(value)) for (const child of Object.keys(value)) field.children.add(child)
			else if (value !== null && value !== undefined && !isPlainObject(value)) field.plain = true
		}
	}

	/** Between the passes: the header, each field's columns where the field first appeared. */
	plan(): void {
		for (const [key, field] of this.fields) {
			// A field never an object with keys (always null, or only `{}`) keeps its own column too.
			if (field.plain || field.children.size === 0) this.addColumn(key)
			for (const child of field.children) this.addColumn(`${key}.${child}`)
		}
		if (this.header.length === 0)
			throw new HttpError('bad_request', 'Invalid data: the records have no fields')
	}

	/** A column added to the header; a name met twice (`user.pk` as a field and nested) is one column. */
	private addColumn(name: string): void {
		if (this.columns.has(name)) return
		if (this.header.length >= MAX_COLUMNS) {
			throw new HttpError(
				'bad_request',
				`Invalid data: the records have more than ${MAX_COLUMNS.toLocaleString('en-US')} columns; export fewer distinct fields`
			)
		}
		this.columns.set(name, this.header.length)
		this.header.push(name)
	}

	/** Second pass: one record flattened into a row of cells, kept in `rows`. */
	add(record: Row): void {
		this.rows.push(this.row(record))
	}

	/** One record flattened one level deep into a row of cells, in header order (holes are empty). */
	row(record: Row): unknown[] {
		const cells: unknown[] = []
		for (const key of Object.keys(record)) {
			const value = record[key]
			if (isNested(value)) {
				for (const childKey of Object.keys(value)) {
					const column = `${key}.${childKey}`
					const child = value[childKey]
					cells[this.columns.get(column) as number] =
						child !== null && typeof child === 'object' ? jsonCell(child, column) : exactCell(child, column)
				}
			} else if (value !== null && typeof value === 'object') {
				// An array, or `{}` in a field that never holds keys (an object field's `{}` stays empty).
				const own = this.columns.get(key)
				if (Array.isArray(value) || (this.fields.get(key) as Field).children.size === 0)
					cells[own as number] = jsonCell(value, key)
			} else if (value !== undefined && value !== null) {
				cells[this.columns.get(key) as number] = exactCell(value, key)
			}
		}
		return cells
	}
}

/** Flattens records into a table in one go (see `toCsvTableAsync` for the yielding form). */
export function toCsvTable(records: readonly Row[]): CsvTable {
	const builder = new TableBuilder()
	for (const record of records) builder.survey(record)
	builder.plan()
	for (const record of records) builder.add(record)
	return { header: builder.header, rows: builder.rows }
}

/**
 * Runs `step` over the records, yielding to the event loop every `SLICE_MS` of work (looked at
 * every `RECORDS_PER_LOOK` records): slices by count held the server for a third of a second when
 * each record had a thousand fields.
 */
async function inSlices(records: readonly Row[], step: (record: Row) => void): Promise<void> {
	let sliceStart = performance.now()
	for (let index = 0; index < records.length; index++) {
		if (index % RECORDS_PER_LOOK === 0 && index > 0 && performance.now() - sliceStart >= SLICE_MS) {
			await new Promise((resolve) => setImmediate(resolve))
			sliceStart = performance.now()
		}
		step(records[index] as Row)
	}
}

/** Flattens records into a table, yielding to the event loop between slices. */
export async function toCsvTableAsync(records: readonly Row[]): Promise<CsvTable> {
	const builder = new TableBuilder()
	await inSlices(records, (record) => builder.survey(record))
	builder.plan()
	await inSlices(records, (record) => builder.add(record))
	return { header: builder.header, rows: builder.rows }
}
