/**
 * The local store: one SQLite file (bun:sqlite, WAL) where long-running features keep their state
 * (jobs and their records; watches and snapshots build on it too). Default file: demo/smkit.db.
 *
 *   const store = openStore('demo/smkit.db')      // creates the file (and the default's folder), applies migrations
 *   store.db.query('SELECT count(*) AS n FROM jobs').get()
 *   store.transaction(() => { ...several statements, all or nothing... })
 *   store.close()
 *
 * Tables come from migrations listed in `./migrations.ts`. To add tables, append a migration
 * `{ id: 'feature-1', sql: 'CREATE TABLE ...' }` to that list; never edit or reorder one that has
 * landed (a changed table is a new migration: `feature-2` with ALTER TABLE ...). Each migration runs
 * once per file, in list order, inside one transaction with its row in `schema_migrations`, so a
 * crash mid-migration leaves the file as it was. Ids are names rather than numbers, so two features
 * adding tables at the same time cannot collide. A file that has a migration this binary does not
 * know (written by a newer smkit) is still opened; unknown tables are left alone.
 *
 * Durability: WAL with synchronous=NORMAL. A committed transaction survives a killed process; after
 * power loss the newest commits may be missing, but each transaction is whole or absent, so state
 * written in one transaction (a page of records and its cursor) stays consistent. busy_timeout lets
 * a second process on the same file (a CLI beside a playground) wait for the writer instead of failing.
 *
 * Collecting a whole list on top of it: src/jobs/. `new JobStore(store)` holds jobs and records;
 * `runJob(jobs, id, { ig })` runs one to its end from its checkpoint; `JobManager` queues, runs (two
 * at once), pauses, resumes and reports progress events for a long-lived process, per `owner`:
 *
 *   const manager = new JobManager({ jobs: new JobStore(store), ig, owner: 'watch' })
 *   const job = manager.start({ kind: 'followers', target: 'mega.travel' })
 *   const finished = await manager.settled(job.id)       // done, failed, paused or cancelled
 *   for (const user of manager.jobs.records(job.id)) ...  // every follower, once, in list order
 */
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, normalize } from 'node:path'
import { UsageError } from '../cli-error'
import { rememberStoreFile } from './file-identity'
import { MIGRATIONS, type Migration } from './migrations'

/** Where the store lives unless `--db` says otherwise (relative to the working directory). */
export const DEFAULT_DB_PATH = 'demo/smkit.db'

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000

/** An open store. */
export interface Store {
	/** The connection (strict mode: named parameters are written without their `$` prefix). */
	readonly db: Database
	/** The file path given to `openStore` (`:memory:` for an in-memory store). */
	readonly path: string
	/**
	 * Runs `work` in one transaction holding the write lock from its start (nested calls become
	 * savepoints); returns its result.
	 */
	transaction<Result>(work: () => Result): Result
	/** Closes the connection. Further use throws. */
	close(): void
}

/**
 * Whether the folder of the store at `path` is to be made: true for the default's (demo/) when it
 * is missing. Another --db's folder must exist: a mistyped one is bad usage (a UsageError, exit 2,
 * as a missing --out folder is) naming it, instead of an empty store started there.
 */
export function missingStoreFolder(path: string): boolean {
	if (path === ':memory:' || existsSync(dirname(path))) return false
	if (normalize(path) !== normalize(DEFAULT_DB_PATH))
		throw new UsageError(`there is no folder ${dirname(path)} (create it first, or give --db another path)`)
	return true
}

/** Opens (creating when missing) the store at `path` and brings its schema up to date. */
export function openStore(
	path: string = DEFAULT_DB_PATH,
	migrations: readonly Migration[] = MIGRATIONS
): Store {
	const fail = (error: unknown): never => {
		const failure = storeError(path, error, 'cannot open the store')
		// A --db in a folder that does not exist stays bad usage (missingStoreFolder).
		throw error instanceof UsageError ? new UsageError(failure.message) : failure
	}
	let db: Database
	try {
		if (missingStoreFolder(path)) mkdirSync(dirname(path), { recursive: true })
		db = new Database(path, { create: true, strict: true })
	} catch (error) {
		return fail(error)
	}
	try {
		db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
		db.exec('PRAGMA journal_mode = WAL')
		db.exec('PRAGMA synchronous = NORMAL')
		db.exec('PRAGMA foreign_keys = ON')
		migrate(db, migrations)
		// A file smkit cannot write (read-only file, folder or file system) fails here, at start,
		// rather than at the first job, watch or list with an internal error. Rewriting the header's
		// user_version with its own value is a write that changes nothing.
		const { user_version } = db.query<{ user_version: number }, []>('PRAGMA user_version').get() ?? {
			user_version: 0
		}
		db.exec(`PRAGMA user_version = ${Number(user_version)}`)
	} catch (error) {
		db.close()
		return fail(error)
	}
	const store: Store = {
		db,
		path,
		// IMMEDIATE: a transaction that reads and then writes, begun deferred, would fail its first
		// write at once with "database is locked" when another process committed in between (its
		// snapshot is stale, so busy_timeout cannot help); taking the write lock first makes it wait.
		transaction: <Result>(work: () => Result): Result => db.transaction(work).immediate(),
		close: () => db.close()
	}
	rememberStoreFile(store)
	return store
}

/**
 * What to do about SQLite's errors that come from the file rather than from smkit; `AGAIN` stands
 * for how the work is done again (see `storeHint`).
 */
const STORE_HINTS: Record<string, string> = {
	SQLITE_READONLY:
		'smkit writes to the file and to its folder, for the -wal and -shm files beside it: check both can be written',
	SQLITE_CANTOPEN: 'check that the folder exists and can be written',
	SQLITE_CORRUPT:
		'the file is damaged: move it away (smkit starts an empty store), or recover what it holds with sqlite3 FILE .recover',
	SQLITE_NOTADB: 'it is not a SQLite database: give --db another path',
	SQLITE_FULL: 'the disk is full: free some space, then AGAIN'
}

/**
 * What to do about a SQLite error of the file itself (read-only, damaged, not a database, disk
 * full), or undefined for any other error; `again` says how the work is done again once fixed.
 */
export function storeHint(error: unknown, again = 'run the command again'): string | undefined {
	const code = String((error as { code?: unknown })?.code ?? '')
	return (STORE_HINTS[code] ?? STORE_HINTS[code.replace(/_[A-Z]+$/, '')])?.replace('AGAIN', again)
}

/**
 * An error of the store at `path` as one line naming the file and, for errors of the file itself
 * (read-only, damaged, not a database, disk full), what to do: `cannot open the store demo/smkit.db:
 * database disk image is malformed (the file is damaged: ...)`.
 */
export function storeError(path: string, error: unknown, doing = 'the store'): Error {
	const code = String((error as { code?: unknown })?.code ?? '')
	// A file system error (making the default's folder) in words, without its call and path.
	const message =
		code === 'EACCES' || code === 'EPERM'
			? `permission denied (check that smkit may write the folder ${dirname(path)})`
			: code === 'EROFS'
				? `the folder ${dirname(path)} is on a read-only file system`
				: error instanceof Error
					? error.message
					: String(error)
	const hint = storeHint(error)
	return new Error(`${doing} ${path}: ${message}${hint ? ` (${hint})` : ''}`)
}

/** True for an error SQLite raised (bun:sqlite's SQLiteError), whatever its code. */
export function isSqliteError(error: unknown): boolean {
	return error instanceof Error && error.name === 'SQLiteError'
}

/** Applies the migrations `db` has not seen yet, each in its own transaction. */
export function migrate(db: Database, migrations: readonly Migration[]): string[] {
	db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
	const seen = new Set(
		db
			.query<{ id: string }, []>('SELECT id FROM schema_migrations')
			.all()
			.map((row) => row.id)
	)
	const applied: string[] = []
	for (const migration of migrations) {
		if (seen.has(migration.id)) continue
		// IMMEDIATE takes the write lock first, so two processes opening a new file cannot both apply it.
		db.transaction(() => {
			const done = db.query('SELECT 1 FROM schema_migrations WHERE id = ?').get(migration.id)
			if (done) return
			db.exec(migration.sql)
			db.query('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(
				migration.id,
				new Date().toISOString()
			)
			applied.push(migration.id)
		}).immediate()
	}
	return applied
}
