/**
 * A store file smkit cannot use is refused when it is opened, in one line that names it and says
 * what to do: a read-only file or folder (rather than an internal error at the first job, watch or
 * list written), a damaged file, a file that is not a database.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import {
	chmodSync,
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	rmSync,
	writeFileSync,
	writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openStore, storeError } from '../../src/store/db'

let folder: string

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-store-'))
	chmodSync(folder, 0o755)
})
afterEach(() => {
	rmSync(folder, { recursive: true, force: true })
})

/** openStore(path) in a process of an unprivileged user (root writes any file whatever its mode): its error, or 'opened'. */
function openAsOtherUser(path: string): string {
	const script = `import { openStore } from ${JSON.stringify(resolve('src/store/db.ts'))}
try { openStore(${JSON.stringify(path)}).close(); console.log('opened') } catch (error) { console.log(error.message) }`
	const root = process.getuid?.() === 0
	const result = spawnSync(process.execPath, ['-e', script], {
		encoding: 'utf8',
		...(root ? { uid: 65534, gid: 65534 } : {})
	})
	return `${result.stdout}${result.stderr}`.trim()
}

/** A store with its tables, written and closed, owned by the unprivileged user's group of modes. */
function existingStore(path: string): void {
	openStore(path).close()
}

test('a read-only store file is refused at start, saying to check the file and its folder', () => {
	const path = join(folder, 'smkit.db')
	existingStore(path)
	chmodSync(path, 0o444)
	chmodSync(folder, 0o777)
	expect(openAsOtherUser(path)).toBe(
		`cannot open the store ${path}: attempt to write a readonly database (smkit writes to the file and to its folder, for the -wal and -shm files beside it: check both can be written)`
	)
})

test('a store in a read-only folder is refused at start the same way', () => {
	const inner = join(folder, 'data')
	mkdirSync(inner)
	const path = join(inner, 'smkit.db')
	existingStore(path)
	chmodSync(path, 0o666)
	chmodSync(inner, 0o555)
	expect(openAsOtherUser(path)).toStartWith(
		`cannot open the store ${path}: attempt to write a readonly database (smkit writes to the file and to its folder`
	)
})

test('a damaged file and a file that is not a database are named, with what to do', () => {
	const damaged = join(folder, 'damaged.db')
	existingStore(damaged)
	// Keep the 100-byte header, overwrite the schema that follows it.
	const descriptor = openSync(damaged, 'r+')
	writeSync(descriptor, Buffer.alloc(3000, 0x13), 0, 3000, 100)
	closeSync(descriptor)
	expect(() => openStore(damaged)).toThrow(
		`cannot open the store ${damaged}: database disk image is malformed (the file is damaged: move it away (smkit starts an empty store), or recover what it holds with sqlite3 FILE .recover)`
	)
	const text = join(folder, 'notes.db')
	writeFileSync(text, 'not a database, just some text that is long enough to look like a header\n'.repeat(50))
	expect(() => openStore(text)).toThrow(
		`cannot open the store ${text}: file is not a database (it is not a SQLite database: give --db another path)`
	)
})

test("an error that is not the file's keeps its message without a hint", () => {
	expect(storeError('x.db', new Error('no such table: jobs')).message).toBe(
		'the store x.db: no such table: jobs'
	)
})

test("a store in a folder that does not exist is refused, naming the folder; only the default's is made", () => {
	const missing = join(folder, 'typo', 'nested', 'x.db')
	expect(() => openStore(missing)).toThrow(
		`cannot open the store ${missing}: there is no folder ${join(folder, 'typo', 'nested')} (create it first, or give --db another path)`
	)
	expect(existsSync(join(folder, 'typo'))).toBe(false)
	// The default (demo/smkit.db, relative to the working directory) makes its folder.
	const script = `import { openStore } from ${JSON.stringify(resolve('src/store/db.ts'))}
openStore().close()`
	const result = spawnSync(process.execPath, ['-e', script], { cwd: folder, encoding: 'utf8' })
	expect(result.status).toBe(0)
	expect(existsSync(join(folder, 'demo', 'smkit.db'))).toBe(true)
})

test('the default folder that cannot be made is said in words, not as a system call', () => {
	const denied = Object.assign(new Error("EACCES: permission denied, mkdir 'demo'"), { code: 'EACCES' })
	expect(storeError('demo/smkit.db', denied, 'cannot open the store').message).toBe(
		'cannot open the store demo/smkit.db: permission denied (check that smkit may write the folder demo)'
	)
})
