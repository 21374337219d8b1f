/**
 * `smkit watch run --json` with a due watch another process is running: the JSON list names it as
 * skipped (no snapshot, no error) instead of printing `[]`, which says that no watch is due.
 */
import { afterAll, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/db'
import { runWatchCommand } from '../../src/watch/cli'
import { WatchStore } from '../../src/watch/store'

// A live process other than the test's, standing in for a playground that runs the watch.
const playground = Bun.spawn(['sleep', '120'])
const folder = mkdtempSync(join(tmpdir(), 'smkit-watch-skipped-'))
afterAll(() => {
	playground.kill()
	rmSync(folder, { recursive: true, force: true })
})

test('a due watch run by another process is listed as skipped in watch run --json', async () => {
	const path = join(folder, 'smkit.db')
	const store = openStore(path)
	const watches = new WatchStore(store)
	const watch = watches.create({
		kind: 'account',
		target: 'luna.explorer',
		every_seconds: 3600,
		followers: false
	})
	store.db.query('UPDATE watches SET runner = ? WHERE id = ?').run(`${playground.pid}:its-run`, watch.id)
	store.close()
	const written: string[] = []
	const stdout = spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		written.push(String(chunk))
		return true
	})
	const stderr = spyOn(process.stderr, 'write').mockImplementation(() => true)
	try {
		await runWatchCommand('run', [], { db: path, json: true, env: join(folder, 'none.env') })
	} finally {
		stdout.mockRestore()
		stderr.mockRestore()
	}
	const outcomes = JSON.parse(written.join(''))
	expect(outcomes).toHaveLength(1)
	expect(outcomes[0].watch.id).toBe(watch.id)
	expect(outcomes[0].skipped).toBe('run by another process')
	expect(outcomes[0].snapshot).toBeUndefined()
	expect(outcomes[0].error).toBeUndefined()
	expect(process.exitCode ?? 0).toBe(0)
})
