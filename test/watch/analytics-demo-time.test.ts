/**
 * `smkit analytics` and `smkit compare` with --demo read the demo world at the demo time kept in
 * --db (a playground's "Advance demo time"), as a playground and a watch run on that store do; a
 * --db that is not there is not created.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/db'
import { recordDemoHours } from '../../src/store/demo-clock'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let folder: string
// Demo mode's own simulator: no shared one from the environment.
const { SMKIT_UPSTREAM_URL: _shared, ...env } = process.env

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-analytics-demo-time-'))
	const store = openStore(join(folder, 'moved.db'))
	recordDemoHours(store, 72)
	store.close()
})
afterAll(() => {
	rmSync(folder, { recursive: true, force: true })
})

const run = (...args: string[]) =>
	runProcess([binary, ...args, '--demo', '--env', 'none.env', '--json'], { cwd: folder, env })

test('analytics reads the store’s demo time, and a missing --db is not created', async () => {
	const start = await run('analytics', 'luna.explorer', '--db', 'absent.db')
	expect(start.code).toBe(0)
	expect(existsSync(join(folder, 'absent.db'))).toBe(false)
	const moved = await run('analytics', 'luna.explorer', '--db', 'moved.db')
	expect(moved.code).toBe(0)
	expect(moved.stderr).toContain("Demo time: 72 h on, as this store's demo world was left")
	const [before, after] = [JSON.parse(start.stdout), JSON.parse(moved.stdout)]
	expect(before.follower_count).toBe(263)
	expect(after.follower_count).not.toBe(before.follower_count)
	expect(after.media_count).toBeGreaterThan(before.media_count)
})

test('compare reads it too', async () => {
	const moved = await run('compare', 'luna.explorer', 'mega.travel', '--db', 'moved.db')
	expect(moved.code).toBe(0)
	const profile = JSON.parse((await run('analytics', 'luna.explorer', '--db', 'moved.db')).stdout)
	const followers = JSON.parse(moved.stdout).rows.find(
		(row: { metric: string }) => row.metric === 'follower_count'
	)
	expect(followers.values[0]).toBe(profile.follower_count)
	expect(followers.values[0]).not.toBe(263)
})
