/**
 * The upstream request log of one simulator (`simulator.requests`): a counter per path and the most
 * recent requests, so tests and benchmarks can check what a client actually sent. No headers or
 * cookies are kept.
 */
import type { FaultKind } from './faults'

/** One request the simulator answered. */
export interface RequestRecord {
	method: string
	/** The path as sent (without the query). */
	path: string
	/** The query string including `?`, or ''. */
	query: string
	status: number
	/** The fault that answered (or delayed) the request, if any. */
	fault: FaultKind | null
	/** Whether the request carried the demo session cookie. */
	authenticated: boolean
	/** Unix time in ms. */
	at: number
}

/** How many records are kept; counters keep counting past it. */
const MAX_RECORDS = 2000

/** Counts and recent records of upstream requests. */
export class RequestLog {
	private readonly entries: RequestRecord[] = []
	private readonly counts = new Map<string, number>()
	private totalCount = 0

	/** Requests answered since start (or the last clear). */
	get total(): number {
		return this.totalCount
	}

	/** Adds a record. */
	record(entry: RequestRecord): void {
		this.totalCount++
		this.counts.set(entry.path, (this.counts.get(entry.path) ?? 0) + 1)
		this.entries.push(entry)
		if (this.entries.length > MAX_RECORDS) this.entries.splice(0, this.entries.length - MAX_RECORDS)
	}

	/** Requests to an exact path, or to paths matching a pattern; every request without an argument. */
	count(path?: string | RegExp): number {
		if (path === undefined) return this.totalCount
		if (typeof path === 'string') return this.counts.get(path) ?? 0
		let sum = 0
		for (const [key, value] of this.counts) if (path.test(key)) sum += value
		return sum
	}

	/** Counts per path. */
	byPath(): Record<string, number> {
		return Object.fromEntries(this.counts)
	}

	/** The most recent records, oldest first. */
	records(): readonly RequestRecord[] {
		return this.entries
	}

	/** Forgets everything. */
	clear(): void {
		this.entries.length = 0
		this.counts.clear()
		this.totalCount = 0
	}
}
