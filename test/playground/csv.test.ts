import { describe, expect, it } from 'bun:test'
import Papa from 'papaparse'
import { csvResponse, exportFileName, recordsOf, toCsv } from '../../src/server/csv'
import { HttpError } from '../../src/server/envelope'

type Row = Record<string, unknown>

/** Parses CSV text back into rows of cells (RFC 4180, as a spreadsheet would read it). */
const parse = (csv: string) => Papa.parse<string[]>(csv, { newline: '\r\n' }).data

describe('toCsv', () => {
	it('builds the header from the union of keys in first-seen order', () => {
		const csv = toCsv([{ a: 1, b: 2 }, { c: 3, a: 4 }, { d: 5 }])
		expect(parse(csv)).toEqual([
			['a', 'b', 'c', 'd'],
			['1', '2', '', ''],
			['4', '', '3', ''],
			['', '', '', '5']
		])
	})

	it('flattens nested objects with dotted keys and writes arrays and deeper values as JSON', () => {
		const csv = toCsv([
			{ pk: '1', user: { pk: '9', username: 'luna', friendship: { following: true } }, tags: ['a', 'b'] },
			{ pk: '2', user: { username: 'pat' }, empty: {} }
		])
		expect(parse(csv)).toEqual([
			['pk', 'user.pk', 'user.username', 'user.friendship', 'tags', 'empty'],
			['1', '9', 'luna', '{"following":true}', '["a","b"]', ''],
			['2', '', 'pat', '', '', '{}']
		])
	})

	it('gives an object field the same dotted columns whether it is null or an object in the first record', () => {
		// Posts without a location or music come first on a page as often as not.
		const posts = [
			{ pk: '1', location: null, music: null, like_count: 3 },
			{ pk: '2', location: { pk: '7', name: 'Lisbon' }, music: { id: '9' }, like_count: 4 },
			{ pk: '3', location: {}, like_count: 5 }
		]
		const expected = [
			['pk', 'location.pk', 'location.name', 'music.id', 'like_count'],
			['1', '', '', '', '3'],
			['2', '7', 'Lisbon', '9', '4'],
			['3', '', '', '', '5']
		]
		expect(parse(toCsv(posts))).toEqual(expected)
		// The same columns in the same order with the object first.
		const reordered = parse(toCsv([posts[1], posts[0], posts[2]] as Row[]))
		expect(reordered[0]).toEqual(expected[0])
		// A field holding plain values as well keeps its own column beside the dotted ones.
		expect(parse(toCsv([{ tag: 'x' }, { tag: { name: 'y' } }]))).toEqual([
			['tag', 'tag.name'],
			['x', ''],
			['', 'y']
		])
	})

	it('writes null and missing as empty cells, booleans and numbers as text', () => {
		expect(toCsv([{ a: null, b: true, c: 0, d: 1.5 }, { e: false }])).toBe(
			'a,b,c,d,e\r\n,true,0,1.5,\r\n,,,,false'
		)
	})

	it('quotes commas, quotes and line breaks per RFC 4180 with CRLF between records', () => {
		const csv = toCsv([{ text: 'a,b' }, { text: 'say "hi"' }, { text: 'line1\nline2' }, { text: 'cr\rlf' }])
		expect(csv).toBe('text\r\n"a,b"\r\n"say ""hi"""\r\n"line1\nline2"\r\n"cr\rlf"')
		expect(parse(csv).slice(1)).toEqual([['a,b'], ['say "hi"'], ['line1\nline2'], ['cr\rlf']])
	})

	it('keeps unicode text intact', () => {
		const rows = [{ name: 'Zoë 🌅 東京', bio: 'Ünïcödé — “quotes”' }]
		expect(parse(toCsv(rows))).toEqual([
			['name', 'bio'],
			['Zoë 🌅 東京', 'Ünïcödé — “quotes”']
		])
	})

	it("prefixes cells that spreadsheets would run as formulas with '", () => {
		const payloads = ['=1+1', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx', '=cmd|"/c calc"!A1\nsecond line']
		const cells = parse(toCsv(payloads.map((value) => ({ value }))))
			.slice(1)
			.map((row) => row[0])
		expect(cells).toEqual(payloads.map((value) => `'${value}`))
		// Numbers are data, not formulas: a negative count stays a number.
		expect(toCsv([{ delta: -5 }])).toBe('delta\r\n-5')
		// Column names are cells too.
		expect(toCsv([{ '=evil': 1 }]).split('\r\n')[0]).toBe(`"'=evil"`)
	})

	it('also defuses formulas behind whitespace, full-width signs and semicolons', () => {
		const prefixed = [
			' =1+1',
			'\n=cmd',
			'\u00a0+1',
			'\u3000-1',
			' \t@SUM(A1)',
			'＝1+1',
			'＋1',
			'－1',
			'＠SUM(A1)',
			';=1+1',
			' ;+1'
		]
		const cells = parse(toCsv(prefixed.map((value) => ({ value }))))
			.slice(1)
			.map((row) => row[0])
		expect(cells).toEqual(prefixed.map((value) => `'${value}`))
		// A semicolon further in starts a new cell for spreadsheets reading `;`-separated files: quoted,
		// the cell stays one cell for them too, and keeps its text.
		const line = toCsv([{ value: 'a;=cmd|"/c calc"!A1' }]).split('\r\n')[1]
		expect(line).toBe('"a;=cmd|""/c calc""!A1"')
		// Ordinary text is left alone.
		expect(toCsv([{ value: 'a - b = c' }, { value: 'x@y.z' }])).toBe('value\r\na - b = c\r\nx@y.z')
	})

	it('keeps fields named like Object.prototype members as plain columns', () => {
		const records = JSON.parse(
			'[{"a":1},{"constructor":"c","toString":"t","valueOf":"v","hasOwnProperty":"h","__proto__":"p"}]'
		)
		expect(parse(toCsv(records))).toEqual([
			['a', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'],
			['1', '', '', '', '', ''],
			['', 'c', 't', 'v', 'h', 'p']
		])
	})

	it('refuses more than 1,000 columns with a 400 naming the cap', () => {
		const wide = [Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`k${index}`, index]))]
		expect(() => toCsv(wide)).toThrow(/1,000 columns/)
		const atCap = [Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`k${index}`, index]))]
		expect(parse(toCsv(atCap))[0]).toHaveLength(1000)
	})

	it('refuses an export of more than 10,000,000 cells (rows x columns) with a 400 naming the cap', async () => {
		const rows: Row[] = Array.from({ length: 10_001 }, () => ({}))
		rows[0] = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`k${index}`, 1]))
		let thrown: unknown
		try {
			await csvResponse({ data: rows })
		} catch (error) {
			thrown = error
		}
		expect(thrown).toBeInstanceOf(HttpError)
		expect((thrown as HttpError).httpStatus).toBe(400)
		expect((thrown as HttpError).message).toContain('10,000,000 cells')
	})

	it('writes a record without fields as a row of empty cells', () => {
		expect(parse(toCsv([{ a: 1, b: 2 }, {}, { a: 3 }]))).toEqual([
			['a', 'b'],
			['1', '2'],
			['', ''],
			['3', '']
		])
	})
})

describe('recordsOf', () => {
	it('accepts a list envelope and a bare array under data', () => {
		expect(recordsOf({ data: { data: [{ a: 1 }] } })).toEqual([{ a: 1 }])
		expect(recordsOf({ data: [{ a: 1 }] })).toEqual([{ a: 1 }])
	})

	it('takes a single record, bare or in an envelope, as one row', () => {
		const record = { pk: '1', user: { username: 'luna' } }
		expect(recordsOf({ data: record })).toEqual([record])
		expect(recordsOf({ data: { data: record } })).toEqual([record])
		expect(recordsOf({ data: { success: true, message: 'Profile', data: record } })).toEqual([record])
	})

	it.each([
		['no data', {}],
		['data is a string', { data: 'x' }],
		['data.data is a string', { data: { data: 'x' } }],
		['an envelope without data', { data: { success: true, message: 'x' } }],
		['empty list', { data: [] }],
		['a record is a number', { data: [{ a: 1 }, 2] }],
		['a record is an array', { data: [[1, 2]] }],
		['a record is null', { data: [null] }],
		['body is an array', [{ a: 1 }]]
	])('rejects %s with a 400', (_label, body) => {
		let thrown: unknown
		try {
			recordsOf(body)
		} catch (error) {
			thrown = error
		}
		expect(thrown).toBeInstanceOf(HttpError)
		expect((thrown as HttpError).httpStatus).toBe(400)
	})
})

describe('csvResponse', () => {
	it('is UTF-8 CSV with a BOM, as an attachment named after the time', async () => {
		const response = await csvResponse({ data: [{ a: 'é' }] }, new Date(2025, 0, 2, 3, 4, 5))
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('content-disposition')).toBe(
			'attachment; filename="export-20250102-030405.csv"'
		)
		const bytes = new Uint8Array(await response.arrayBuffer())
		expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		expect(new TextDecoder().decode(bytes.slice(3))).toBe('a\r\né')
	})

	it('names files export-YYYYMMDD-HHMMSS.csv', () => {
		expect(exportFileName(new Date(2024, 11, 31, 23, 59, 58))).toBe('export-20241231-235958.csv')
	})

	it('starts the file name with what the records are, reduced to safe characters', async () => {
		const date = new Date(2026, 10, 23, 19, 58, 47)
		expect(exportFileName(date, 'followers-luna.explorer')).toBe(
			'followers-luna.explorer-20261123-195847.csv'
		)
		expect(exportFileName(date, 'users-a&b c#d')).toBe('users-a_b_c_d-20261123-195847.csv')
		expect(exportFileName(date, '../"evil"\r\n')).toBe('evil-20261123-195847.csv')
		expect(exportFileName(date, '...')).toBe('export-20261123-195847.csv')
		expect(exportFileName(date, 42)).toBe('export-20261123-195847.csv')
		const response = await csvResponse({ data: [{ a: 1 }], name: 'comments-DVUVYxwAOOz' }, date)
		expect(response.headers.get('content-disposition')).toBe(
			'attachment; filename="comments-DVUVYxwAOOz-20261123-195847.csv"'
		)
	})
})

describe('a big export shares the server', () => {
	it('other work runs between the pieces of the file and while its table is built', async () => {
		// 10,000 records of 1,000 fields: 10 million cells, a file of about 10 MB.
		const keys = Array.from({ length: 1000 }, (_, index) => `f${index}`)
		const records = Array.from({ length: 10_000 }, (_, index) => ({ [keys[index % 1000] as string]: index }))
		let turns = 0
		let running = true
		const tick = () => {
			turns++
			if (running) setImmediate(tick)
		}
		setImmediate(tick)
		const response = await csvResponse({ data: records })
		const built = turns
		const text = await response.text()
		running = false
		expect(text.length).toBeGreaterThan(10_000_000)
		// The file leaves in pieces of about 64 KB, each after other work had its turn.
		expect(turns - built).toBeGreaterThan(100)
		expect(built).toBeGreaterThan(0)
	})
})
