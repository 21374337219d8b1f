/**
 * A job's export streamed from the store, batch by batch, is byte for byte the file the whole-list
 * export built in memory: the CSV's header planned over every record (fields first met past the
 * first batch included), quoting, formulas defused, byte order mark, CRLF, no final line break; JSON
 * and JSONL the same lines. It comes in chunks, holds the records stored when it started, and a
 * job that loses its records meanwhile (deleted) ends in an error instead of a short file.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
	type ExportChunk,
	exportChunks,
	exportFormatFor,
	exportStream,
	recordJson
} from '../../src/jobs/export'
import { writeExport } from '../../src/jobs/export-file'
import { JobStore } from '../../src/jobs/store'
import { CHUNK_CHARACTERS, toCsv, UTF8_BOM } from '../../src/server/csv'
import { openStore, type Store } from '../../src/store/db'

let folder: string
let store: Store
let jobs: JobStore
let id: number
/** The records as the store gives them back, in arrival order. */
let stored: Record<string, unknown>[]

/** Cell texts a spreadsheet, a CSV reader or a line reader could take for something else. */
const TEXTS = [
	'plain',
	'a,b',
	'say "hi"',
	'line1\nline2',
	'cr\rlf',
	' padded ',
	'=SUM(A1)',
	'+1',
	'-5',
	'@user',
	'\tTab',
	'a;=cmd|"/c calc"!A1',
	'\uFF1Dfull-width',
	'emoji 🌍 and accents é',
	'first\u2028second\u2029third\u0085',
	''
]

/** Record `index` of a varied list: fields null, objects, `{}`, arrays, plain and nested by turns. */
function record(index: number): Record<string, unknown> {
	const text = TEXTS[index % TEXTS.length] as string
	const value: Record<string, unknown> = { pk: String(10n ** 18n + BigInt(index)), text }
	if (index % 3 === 0) value.location = null
	else if (index % 3 === 1) value.location = { pk: String(index), name: text }
	else value.location = {}
	if (index % 5 === 0) value.tags = ['a', text]
	// Plain in some records, an object in others: its own column and the dotted ones.
	value.mixed = index % 4 === 0 ? { a: index, b: { deep: [index] } } : index % 4 === 1 ? index / 2 : null
	value.flag = index % 2 === 0
	// A field first met past the first batch of 1,000, and a child key first met later still.
	if (index >= 1500)
		value.music = index >= 2200 ? { id: String(index), title: text, artist: 'x' } : { id: 'm' }
	if (index === 2400) value['location.pk'] = 'a plain field named like a dotted column'
	// A field named like what objects inherit is data, as any other.
	if (index % 7 === 0)
		Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true, writable: true })
	return value
}

beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-export-stream-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
	id = jobs.create({ kind: 'posts', target: 'varied' }).id
	for (let page = 0; page < 25; page++) {
		const records = Array.from({ length: 100 }, (_, offset) => {
			const index = page * 100 + offset
			return { key: String(index), data: record(index) }
		})
		jobs.storePage(id, records, page === 24 ? null : `cursor-${page}`)
	}
	stored = [...jobs.records(id)] as Record<string, unknown>[]
})
afterAll(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

const bytesOf = (chunks: Iterable<ExportChunk>) =>
	Buffer.concat([...chunks].map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)))

/** The files as the export built them whole in memory before it streamed. */
const whole = {
	csv: () => Buffer.concat([UTF8_BOM, Buffer.from(toCsv(stored))]),
	json: () => Buffer.from(`[\n${stored.map(recordJson).join(',\n')}\n]\n`),
	jsonl: () => Buffer.from(stored.map((value) => `${recordJson(value)}\n`).join(''))
}

test('the streamed CSV, JSON and JSONL are byte for byte the files built whole', async () => {
	expect(stored).toHaveLength(2500)
	for (const format of ['csv', 'json', 'jsonl'] as const) {
		const expected = whole[format]()
		expect(bytesOf(await exportChunks(jobs, id, format))).toEqual(expected)
		// The download's body and the written file are the same bytes.
		const body = new Response(exportStream(await exportChunks(jobs, id, format)))
		expect(Buffer.from(await body.arrayBuffer())).toEqual(expected)
		const path = join(folder, `records.${format}`)
		await writeExport(jobs, id, format, path)
		expect(readFileSync(path)).toEqual(expected)
	}
	const header = whole.csv().subarray(3).toString('utf8').split('\r\n')[0]
	expect(header).toContain('music.artist')
	expect(header).toContain('mixed,mixed.a,mixed.b')
})

test('comes in chunks of about 64 K characters, each ending after a whole record', async () => {
	const chunks = [...(await exportChunks(jobs, id, 'jsonl'))] as string[]
	expect(chunks.length).toBeGreaterThan(3)
	for (const chunk of chunks) {
		expect(chunk.length).toBeLessThan(CHUNK_CHARACTERS + 2000)
		expect(chunk.endsWith('\n')).toBe(true)
	}
})

test('holds the records stored when it started; a job deleted meanwhile ends in an error', async () => {
	const other = jobs.create({ kind: 'posts', target: 'growing' }).id
	jobs.storePage(other, [{ key: '1', data: { pk: '1' } }], 'next')
	const csv = await exportChunks(jobs, other, 'csv')
	const json = await exportChunks(jobs, other, 'json')
	// A page stored after the export started, with a field the header was not planned for.
	jobs.storePage(other, [{ key: '2', data: { pk: '2', late: 'field' } }], null)
	expect(bytesOf(csv).toString('utf8')).toBe('\uFEFFpk\r\n1')
	expect(bytesOf(json).toString('utf8')).toBe('[\n{"pk":"1"}\n]\n')

	const deleted = jobs.create({ kind: 'posts', target: 'deleted' }).id
	for (let page = 0; page < 3; page++) {
		const records = Array.from({ length: 1000 }, (_, offset) => ({
			key: String(page * 1000 + offset),
			data: { pk: String(page * 1000 + offset), caption_text: 'x'.repeat(100) }
		}))
		jobs.storePage(deleted, records, page === 2 ? null : `cursor-${page}`)
	}
	const chunks = await exportChunks(jobs, deleted, 'jsonl')
	expect(chunks.next().done).toBe(false)
	jobs.delete(deleted)
	expect(() => [...chunks]).toThrow(/lost records during the export/)
})

test("the format is --format's, else --out's extension's, else JSONL", () => {
	expect(exportFormatFor(undefined, 'followers.csv')).toBe('csv')
	expect(exportFormatFor(undefined, 'out/Followers.JSON')).toBe('json')
	expect(exportFormatFor(undefined, 'a.ndjson')).toBe('jsonl')
	expect(exportFormatFor(undefined, 'followers.txt')).toBe('jsonl')
	expect(exportFormatFor(undefined, 'csv')).toBe('jsonl')
	expect(exportFormatFor(undefined, undefined)).toBe('jsonl')
	expect(exportFormatFor('jsonl', 'followers.csv')).toBe('jsonl')
	expect(exportFormatFor('csv', undefined)).toBe('csv')
})
