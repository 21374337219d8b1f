/**
 * `smkit analytics --demo --db X` only reads the demo time kept in X: a --db in a folder that does
 * not exist is bad usage (exit 2, as for every command); a --db given but not there is said, the
 * default's absence is not; a file that is no smkit store is said and left as it is; and a store is
 * read as it is (read-only: not migrated, not written).
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/db'
import { recordDemoHours } from '../../src/store/demo-clock'
import { MIGRATIONS } from '../../src/store/migrations'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let folder: string
// Demo mode's own simulator: no shared one from the environment.
const { SMKIT_UPSTREAM_URL: _shared, ...env } = process.env

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-analytics-demo-store-'))
})
afterAll(() => {
	rmSync(folder, { recursive: true, force: true })
})

const analytics = (...args: string[]) =>
	runProcess([binary, 'analytics', 'luna.explorer', '--demo', '--env', 'none.env', '--json', ...args], {
		cwd: folder,
		env
	})

test('a --db given that is not there is said, and not created; the default is not said', async () => {
	const given = await analytics('--db', './nothere.db')
	expect(given.code).toBe(0)
	expect(given.stderr).toContain('No store at ./nothere.db: demo time as it starts')
	expect(JSON.parse(given.stdout).follower_count).toBe(263)
	expect(existsSync(join(folder, 'nothere.db'))).toBe(false)

	const byDefault = await analytics()
	expect(byDefault.code).toBe(0)
	expect(byDefault.stderr).not.toContain('No store')
	expect(existsSync(join(folder, 'demo'))).toBe(false)
})

test('a --db in a folder that does not exist is bad usage', async () => {
	const result = await analytics('--db', 'nowhere/x.db')
	expect(result.code).toBe(2)
	expect(result.stderr).toContain('there is no folder nowhere')
	expect(existsSync(join(folder, 'nowhere'))).toBe(false)
})

test('a file that is no smkit store is said and left as it is', async () => {
	writeFileSync(join(folder, 'empty.db'), '')
	writeFileSync(join(folder, 'notes.db'), 'not a database\n')
	for (const [name, reason] of [
		['empty.db', 'no such table: demo_clock'],
		['notes.db', 'file is not a database']
	] as const) {
		const before = readFileSync(join(folder, name), 'utf8')
		const result = await analytics('--db', name)
		expect(result.code).toBe(0)
		expect(result.stderr).toContain(`cannot read demo time from ${name}: ${reason}; demo time as it starts`)
		expect(JSON.parse(result.stdout).follower_count).toBe(263)
		expect(readFileSync(join(folder, name), 'utf8')).toBe(before)
	}
	expect(readdirSync(folder).filter((file) => /^(empty|notes)\.db-/.test(file))).toEqual([])
})

test('a store is read as it is: its demo time, without migrating it', async () => {
	// Only the demo clock's table: any other migration applied would add tables.
	const path = join(folder, 'clock-only.db')
	const store = openStore(
		path,
		MIGRATIONS.filter((migration) => migration.id === 'demo-clock-1')
	)
	recordDemoHours(store, 72)
	store.close()
	const result = await analytics('--db', 'clock-only.db')
	expect(result.code).toBe(0)
	expect(result.stderr).toContain("Demo time: 72 h on, as this store's demo world was left")
	expect(JSON.parse(result.stdout).follower_count).not.toBe(263)
	const db = new Database(path, { readonly: true })
	const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all()
	db.close()
	expect(tables.map((table) => table.name).sort()).toEqual(['demo_clock', 'schema_migrations'])
})
