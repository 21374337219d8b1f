/**
 * `smkit collect` and `smkit jobs export` given an --out or --db they cannot use, as the compiled
 * binary says it: in words and with the exit code of its kind (2 for a path no file can have or a
 * folder that is not there, 1 for a file or folder that cannot be written), and before a job is
 * made that a rerun would continue and fail the same way. A read-only --out is refused as a user
 * who is not root (uid 65534 when the tests run as root, whom every file lets write).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import {
	chmodSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

const root = process.getuid?.() === 0
let binary: string
let folder: string
const longName = `${'x'.repeat(300)}.jsonl`

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-out-path-cli-'))
	// Writable by anyone (and not sticky): only the file's own mode can stop a write there.
	chmodSync(folder, 0o777)
}, 120_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const smkit = (...args: string[]) =>
	runProcess([binary, ...args], { cwd: folder, env: { ...process.env, NO_COLOR: '1' } })
const collect = (...args: string[]) =>
	smkit('collect', 'followers', 'luna.explorer', '--demo', '--limit', '3', '--env', 'none.env', ...args)

test('an --out name too long is bad usage in words, for collect and jobs export', async () => {
	const collected = await collect('--db', 'long.db', '--out', longName)
	expect(collected.stderr).toBe('smkit: --out: the name is too long\n')
	expect(collected.code).toBe(2)
	expect((await collect('--db', 'long.db', '--out', '/dev/null')).code).toBe(0)
	const exported = await smkit('jobs', 'export', '1', '--db', 'long.db', '--out', longName)
	expect(exported.stderr).toBe('smkit: --out: the name is too long\n')
	expect(exported.code).toBe(2)
}, 60_000)

test('--out in /proc says it cannot be written there, and leaves no job behind', async () => {
	const result = await collect('--db', 'proc.db', '--out', '/proc/x.jsonl')
	expect(result.code).toBe(1)
	expect(result.stderr).not.toContain('there is no folder')
	expect(result.stderr).toBe(
		root
			? 'smkit: cannot write /proc/x.jsonl: the folder /proc takes no new files (a special file system)\n'
			: 'smkit: cannot write /proc/x.jsonl: the folder /proc is not writable (permission denied)\n'
	)
	// Refused before the store was opened: no paused job that a rerun would continue.
	expect(existsSync(join(folder, 'proc.db'))).toBe(false)
}, 60_000)

test('a --db folder that does not exist is bad usage (exit 2), as a missing --out folder is', async () => {
	const result = await collect('--db', 'nodir/s.db')
	expect(result.stderr).toBe(
		'smkit: cannot open the store nodir/s.db: there is no folder nodir (create it first, or give --db another path)\n'
	)
	expect(result.code).toBe(2)
	expect((await collect('--db', 'ok.db', '--out', 'nodir/x.jsonl')).code).toBe(2)
}, 60_000)

/** The words that run `smkit` from the sources as a user who is not root, with its cwd `folder`. */
function asOtherUser(...args: string[]) {
	const bun = realpathSync(resolve('node_modules/.bin/bun'))
	const result = spawnSync(bun, [resolve('src/main.ts'), ...args], {
		cwd: folder,
		encoding: 'utf8',
		env: { PATH: process.env.PATH ?? '', HOME: folder, NO_COLOR: '1' },
		...(root ? { uid: 65534, gid: 65534 } : {})
	})
	return { code: result.status, stderr: result.stderr }
}

test('a read-only --out file is refused before collecting or exporting, and left as it was', async () => {
	const file = join(folder, 'ro.csv')
	writeFileSync(file, 'kept\n')
	chmodSync(file, 0o444)
	const collected = asOtherUser(
		'collect',
		'followers',
		'luna.explorer',
		'--demo',
		'--limit',
		'3',
		'--env',
		'none.env',
		'--db',
		'ro.db',
		'--out',
		'ro.csv'
	)
	expect(collected.stderr).toBe('smkit: cannot write ro.csv: the file is read-only\n')
	expect(collected.code).toBe(1)
	expect(readFileSync(file, 'utf8')).toBe('kept\n')
	expect(existsSync(join(folder, 'ro.db'))).toBe(false)

	const store = asOtherUser(
		'collect',
		'followers',
		'luna.explorer',
		'--demo',
		'--limit',
		'3',
		'--env',
		'none.env',
		'--db',
		'ro.db',
		'--out',
		'/dev/null'
	)
	expect(store.code).toBe(0)
	const exported = asOtherUser('jobs', 'export', '1', '--db', 'ro.db', '--out', 'ro.csv')
	expect(exported.stderr).toBe('smkit: cannot write ro.csv: the file is read-only\n')
	expect(exported.code).toBe(1)
	expect(readFileSync(file, 'utf8')).toBe('kept\n')
}, 60_000)
