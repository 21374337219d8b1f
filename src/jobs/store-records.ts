/**
 * The records of jobs (table `job_records`): stored a page at a time with the page's cursor, each key
 * once, and read back in arrival order a batch at a time. `JobStore` builds on it.
 */
import type { Store } from '../store/db'

/** One record of a page: its unique key and the record itself. */
export interface KeyedRecord {
	key: string
	data: unknown
}

const now = () => new Date().toISOString()

/** Records read per query: what an export or a stream of records holds at once. */
const RECORDS_PER_BATCH = 1000

/** The records half of the jobs store. */
export class JobRecords {
	constructor(readonly store: Store) {}

	/**
	 * Stores one page: its new records (keys already stored are skipped) and the cursor after it, in
	 * one transaction. `cursor` null means the list ended. Returns how many records were new.
	 */
	storePage(id: number, records: readonly KeyedRecord[], cursor: string | null): number {
		return this.store.transaction(() => {
			const { added, collected } = this.#insert(id, records)
			this.store.db
				.query('UPDATE jobs SET cursor = ?, collected = ?, pages = pages + 1, updated_at = ? WHERE id = ?')
				.run(cursor, collected, now(), id)
			return added
		})
	}

	/**
	 * Adds records found outside the walk (a watch's look-up of followers the walk skipped): new keys
	 * only, after the others; the position and the page count stay. Returns how many were new.
	 */
	addRecords(id: number, records: readonly KeyedRecord[]): number {
		return this.store.transaction(() => {
			const { added, collected } = this.#insert(id, records)
			this.store.db
				.query('UPDATE jobs SET collected = ?, updated_at = ? WHERE id = ?')
				.run(collected, now(), id)
			return added
		})
	}

	/** Inserts the records whose keys are new (inside a transaction); the caller stores `collected`. */
	#insert(id: number, records: readonly KeyedRecord[]): { added: number; collected: number } {
		const insert = this.store.db.query(
			'INSERT OR IGNORE INTO job_records (job_id, record_key, seq, data) VALUES (?, ?, ?, ?)'
		)
		const row = this.store.db
			.query<{ collected: number }, [number]>('SELECT collected FROM jobs WHERE id = ?')
			.get(id)
		// Deleted meanwhile (by another process on the store): nothing to add to.
		if (!row) return { added: 0, collected: 0 }
		let collected = row.collected
		const start = collected
		for (const record of records) {
			const { changes } = insert.run(id, record.key, collected + 1, JSON.stringify(record.data))
			collected += changes
		}
		return { added: collected - start, collected }
	}

	/** Which of `keys` the job has stored already. */
	storedKeys(id: number, keys: readonly string[]): Set<string> {
		const rows = this.store.db
			.query<{ record_key: string }, [number, string]>(
				'SELECT record_key FROM job_records WHERE job_id = ? AND record_key IN (SELECT value FROM json_each(?))'
			)
			.all(id, JSON.stringify(keys))
		return new Set(rows.map((row) => row.record_key))
	}

	/** The records in arrival order, lazily (exports of any size), after `afterSeq` up to `lastSeq`. */
	*records(id: number, afterSeq = 0, lastSeq = Number.MAX_SAFE_INTEGER): Generator<unknown> {
		for (const batch of this.recordBatches(id, afterSeq, lastSeq)) yield* batch
	}

	/**
	 * The records in arrival order, `RECORDS_PER_BATCH` at a time, after `afterSeq` up to `lastSeq`.
	 * Each batch is one query that ends before the batch is handed over, so a reader that waits between
	 * batches (a download pulled by a slow client) holds no read transaction open meanwhile: the job's
	 * writes go on and the WAL keeps being checkpointed. Records only arrive with higher `seq`s, so
	 * bounding by the `seq` of the last record stored when an export starts reads that many records.
	 */
	*recordBatches(id: number, afterSeq = 0, lastSeq = Number.MAX_SAFE_INTEGER): Generator<unknown[]> {
		const statement = this.store.db.query<[number, string], [number, number, number]>(
			`SELECT seq, data FROM job_records WHERE job_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ${RECORDS_PER_BATCH}`
		)
		let last = afterSeq
		for (;;) {
			const rows = statement.values(id, last, lastSeq) as [number, string][]
			if (rows.length > 0) yield rows.map((row) => JSON.parse(row[1]))
			if (rows.length < RECORDS_PER_BATCH) return
			last = (rows[rows.length - 1] as [number, string])[0]
		}
	}
}
