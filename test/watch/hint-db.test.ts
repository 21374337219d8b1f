/**
 * The hints of `smkit watch show` (no snapshot yet) and `smkit watch diff` (fewer than two) name the
 * run command with the --db (and --env, --demo) the command was given, so it reads the same store,
 * as the other watch hints do. Run from source.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runProcess } from '../support/process'

const root = resolve(import.meta.dir, '../..')
const bun = join(root, 'node_modules/.bin/bun')
const main = join(root, 'src/main.ts')
const folder = mkdtempSync(join(tmpdir(), 'smkit-watch-hint-db-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Nothing from this environment: no session, no upstream, no proxy. */
const env = { PATH: process.env.PATH ?? '', HOME: folder, NO_COLOR: '1' }
const smkit = (...args: string[]) => runProcess([bun, main, ...args], { cwd: folder, env })

test('show and diff of a watch without snapshots name its --db in the run hint', async () => {
	const added = await smkit('watch', 'add', 'luna.explorer', '--skip-check', '--demo', '--db', 'd.db')
	expect(added.code).toBe(0)
	const show = await smkit('watch', 'show', '1', '--db', 'd.db')
	expect(show.code).toBe(0)
	expect(show.stdout).toContain('No snapshot yet: smkit watch run 1 --demo --db d.db\n')
	const diff = await smkit('watch', 'diff', '1', '--db', 'd.db')
	expect(diff.code).toBe(1)
	expect(diff.stderr).toBe(
		'smkit: Watch 1 has 0 snapshots; a diff needs two (smkit watch run 1 --demo --db d.db)\n'
	)
	// A path with a space is quoted, and a non-default --env is kept too.
	const spaced = await smkit('watch', 'add', 'luna.explorer', '--skip-check', '--db', 'my store.db')
	expect(spaced.code).toBe(0)
	const quoted = await smkit('watch', 'diff', '1', '--db', 'my store.db', '--env', 'other.env')
	expect(quoted.stderr).toBe(
		"smkit: Watch 1 has 0 snapshots; a diff needs two (smkit watch run 1 --db 'my store.db' --env other.env)\n"
	)
	// The default store: no --db to name.
	expect((await smkit('watch', 'add', 'luna.explorer', '--skip-check')).code).toBe(0)
	expect((await smkit('watch', 'show', '1')).stdout).toContain('No snapshot yet: smkit watch run 1\n')
}, 60_000)
