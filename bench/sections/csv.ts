/**
 * Section 4: CSV export of 100,000 records of 10 fields through `POST /api/export/csv` of the
 * playground process (upload, parse, flatten, unparse, download), against `papaparse.unparse` on
 * the same records in this process. The request must fit the endpoint's 10 MiB body limit, so the
 * records are compact (short keys and values); some cells need quoting and a few formula escaping.
 */
import Papa from 'papaparse'
import { MiB } from '../../src/server/body'
import { toCsv } from '../../src/server/csv'
import { median, timeRepeated } from '../lib/stats'

/** Timings of the CSV section, milliseconds. */
export interface CsvFigures {
	records: number
	fields: number
	requestBytes: number
	responseBytes: number
	/** Through the endpoint, each run. */
	endpointMs: number[]
	/** `Papa.unparse(records)` alone, each run. */
	papaparseMs: number[]
	/** The route's own conversion (`toCsv`) in this process, each run: what the endpoint adds to papaparse. */
	toCsvMs: number[]
	/** `JSON.parse` of the request body in this process, each run. */
	jsonParseMs: number[]
	medianEndpointMs: number
	medianPapaparseMs: number
}

const names = ['Ann', 'Bo', 'Cy', 'Dee', 'Eli']
const cities = ['Paris', 'Rome', 'Oslo', 'Lima']

/** `count` records of 10 fields each: numbers, booleans, short strings, null, a few quoted cells. */
export function makeRecords(count: number): Record<string, unknown>[] {
	return Array.from({ length: count }, (_, index) => ({
		i: index,
		u: index.toString(36),
		n: names[index % names.length],
		l: index % 1000,
		o: index % 2 === 0,
		c: cities[index % cities.length],
		s: index % 10,
		// Every 50th text needs RFC 4180 quoting, every 500th a formula escape.
		t: index % 500 === 0 ? '=1+1' : index % 50 === 0 ? 'a,"b"' : '',
		d: index % 7,
		x: null
	}))
}

/** Runs the section against the playground at `playgroundUrl`. */
export async function benchCsv(
	playgroundUrl: string,
	options: { records: number; runs: number }
): Promise<CsvFigures> {
	const records = makeRecords(options.records)
	const body = JSON.stringify({ data: records })
	const requestBytes = Buffer.byteLength(body)
	if (requestBytes > 10 * MiB) throw new Error(`CSV request is ${requestBytes} bytes, over the 10 MiB limit`)
	let responseBytes = 0
	const viaEndpoint = async () => {
		const response = await fetch(`${playgroundUrl}/api/export/csv`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body
		})
		const text = await response.text()
		if (response.status !== 200)
			throw new Error(`CSV export answered ${response.status}: ${text.slice(0, 200)}`)
		responseBytes = Buffer.byteLength(text)
	}
	const endpointMs: number[] = []
	const papaparseMs: number[] = []
	const toCsvMs: number[] = []
	const jsonParseMs: number[] = []
	// One warm-up each, then all four interleaved in every run so they see the same machine state.
	await viaEndpoint()
	Papa.unparse(records)
	toCsv(records)
	for (let run = 0; run < options.runs; run++) {
		endpointMs.push(...(await timeRepeated(viaEndpoint, 1, 0)))
		papaparseMs.push(...(await timeRepeated(() => Papa.unparse(records), 1, 0)))
		toCsvMs.push(...(await timeRepeated(() => toCsv(records), 1, 0)))
		jsonParseMs.push(...(await timeRepeated(() => JSON.parse(body), 1, 0)))
	}
	return {
		records: records.length,
		fields: Object.keys(records[0] ?? {}).length,
		requestBytes,
		responseBytes,
		endpointMs,
		papaparseMs,
		toCsvMs,
		jsonParseMs,
		medianEndpointMs: median(endpointMs),
		medianPapaparseMs: median(papaparseMs)
	}
}
