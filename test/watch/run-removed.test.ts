/**
 * `smkit watch run --demo --json` while another shell removes watches: one removed during its run
 * and one removed before its turn are skipped (`"skipped": "removed"`), not failed, and the command
 * exits 0 when nothing else failed.
 */
import { afterAll, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Users } from '../../src/client/api/users'
import { openStore } from '../../src/store/db'
import { runWatchCommand } from '../../src/watch/cli'
import { WatchStore } from '../../src/watch/store'

const folder = mkdtempSync(join(tmpdir(), 'smkit-watch-removed-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

test('watches removed before or during their turn are skipped as removed, and watch run exits 0', async () => {
	const path = join(folder, 'smkit.db')
	const setup = openStore(path)
	const made = new WatchStore(setup, { demo: true })
	const targets = ['luna.explorer', 'mega.travel', 'xss.payload']
	const ids = targets.map(
		(target) => made.create({ kind: 'account', target, every_seconds: 3600, followers: false }).id
	)
	setup.close()

	// The other shell: at the first look-up (the first watch's run), `smkit watch remove` of that
	// watch and of one whose turn has not come yet.
	const other = openStore(path)
	const otherWatches = new WatchStore(other, { demo: true })
	const removed: number[] = []
	const lookUp = Users.prototype.getByUsername
	const users = spyOn(Users.prototype, 'getByUsername').mockImplementation(function (
		this: Users,
		...args: Parameters<Users['getByUsername']>
	) {
		if (removed.length === 0) {
			const running = ids[targets.indexOf(args[0])] as number
			const waiting = ids.find((id) => id !== running) as number
			for (const id of [running, waiting]) {
				expect(otherWatches.delete(id)).toBe(true)
				removed.push(id)
			}
		}
		return lookUp.apply(this, args)
	})
	const written: string[] = []
	const said: string[] = []
	const stdout = spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		written.push(String(chunk))
		return true
	})
	const stderr = spyOn(process.stderr, 'write').mockImplementation((chunk) => {
		said.push(String(chunk))
		return true
	})
	let exitCode: typeof process.exitCode
	try {
		process.exitCode = 0
		await runWatchCommand('run', [], { db: path, json: true, demo: true, env: join(folder, 'none.env') })
		exitCode = process.exitCode
	} finally {
		process.exitCode = 0
		stdout.mockRestore()
		stderr.mockRestore()
		users.mockRestore()
		other.close()
	}

	const stderrText = said.join('')
	expect(removed).toHaveLength(2)
	const outcomes = JSON.parse(written.join(''))
	expect(
		outcomes
			.map((outcome: { watch: { id: number } }) => outcome.watch.id)
			.sort((a: number, b: number) => a - b)
	).toEqual(ids)
	for (const outcome of outcomes) {
		expect(outcome.error).toBeUndefined()
		if (removed.includes(outcome.watch.id)) {
			expect(outcome.skipped).toBe('removed')
			expect(outcome.snapshot).toBeUndefined()
			expect(stderrText).toContain(`skip    watch ${outcome.watch.id} @${outcome.watch.target}: removed`)
		} else expect(outcome.snapshot.id).toBeGreaterThan(0)
	}
	expect(stderrText).not.toContain('FAILED')
	expect(stderrText).not.toContain('failed')
	expect(exitCode).toBe(0)
})
