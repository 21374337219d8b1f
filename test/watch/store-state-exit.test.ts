/**
 * `smkit watch add` of a target already watched and `smkit watch diff` of a watch with fewer than
 * two snapshots are states of the store, not mistyped commands: exit 1, and with --json the code
 * `failed` (the playground answers both 400 `bad_request`, which smkit's commands keep for usage
 * mistakes, exit 2 `bad_usage`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let folder: string

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-state-'))
}, 120_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const watch = (...args: string[]) =>
	runProcess([binary, 'watch', ...args, '--db', 'state.db', '--env', 'none.env'], { cwd: folder })

test('a target already watched exits 1, failed with --json', async () => {
	expect((await watch('add', 'luna.explorer', '--skip-check')).code).toBe(0)
	const again = await watch('add', 'luna.explorer', '--skip-check')
	expect(again.code).toBe(1)
	expect(again.stderr).toBe('smkit: Already watched: account luna.explorer (watch 1)\n')
	const json = await watch('add', 'luna.explorer', '--skip-check', '--json')
	expect(JSON.parse(json.stdout)).toEqual({
		success: false,
		error: 'Already watched: account luna.explorer (watch 1)',
		code: 'failed',
		exit_code: 1
	})
	expect(json.code).toBe(1)
})

test('a diff of a watch with fewer than two snapshots exits 1, failed with --json', async () => {
	const diff = await watch('diff', '1')
	expect(diff.code).toBe(1)
	expect(diff.stderr).toBe(
		'smkit: Watch 1 has 0 snapshots; a diff needs two (smkit watch run 1 --db state.db --env none.env)\n'
	)
	const json = await watch('diff', '1', '--json')
	expect(JSON.parse(json.stdout)).toEqual({
		success: false,
		error: 'Watch 1 has 0 snapshots; a diff needs two (smkit watch run 1 --db state.db --env none.env)',
		code: 'failed',
		exit_code: 1
	})
	// A mistyped id is still bad usage.
	expect((await watch('diff', 'abc')).code).toBe(2)
})
