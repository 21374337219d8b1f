/**
 * `smkit jobs` (the compiled binary) on a store that `smkit collect`, a playground and a watch run
 * share: the list shows every job with who runs it, export writes exactly the stored records, a job
 * whose process died shows as paused with the command that continues it, and delete refuses a job
 * a live process collects and a watch's follower list.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobStore } from '../../src/jobs/store'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { WatchStore } from '../../src/watch/store'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let simulator: Simulator
let folder: string
// A live process other than the test's, standing in for a playground collecting a job.
const playground = Bun.spawn(['sleep', '120'])

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-jobs-cli-'))
})
afterAll(async () => {
	playground.kill()
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

function smkit(...args: string[]) {
	return runProcess([binary, ...args], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url }
	})
}
const jobs = (...args: string[]) => smkit('jobs', ...args, '--db', 'j.db')

test('smkit jobs lists, shows, exports and deletes the jobs of every process on the store', async () => {
	const collected = await smkit(
		'collect',
		'followers',
		'luna.explorer',
		'--db',
		'j.db',
		'--env',
		'none.env',
		'--demo'
	)
	expect(collected.code).toBe(0)
	const walked = collected.stdout.trim().split('\n')

	// The other processes' jobs, written as they write them.
	const store = openStore(join(folder, 'j.db'))
	const shared = new JobStore(store)
	const running = shared.create({ kind: 'tag', target: 'sunset', limit: 300 }, 'playground')
	store.db
		.query("UPDATE jobs SET status = 'running', runner_pid = ? WHERE id = ?")
		.run(playground.pid, running.id)
	// A finished job with a limit below the list's size expects its limit, not the whole list.
	const limited = shared.create({ kind: 'following', target: 'mega.travel', limit: 20 }, 'mcp')
	shared.setTarget(limited.id, '1000000009', 180)
	shared.storePage(
		limited.id,
		Array.from({ length: 20 }, (_, index) => ({ key: String(index + 1), data: { pk: String(index + 1) } })),
		'next'
	)
	shared.setStatus(limited.id, 'done')
	const snapshot = shared.create({ kind: 'followers', target: 'mega.travel', limit: null }, 'watch')
	shared.setStatus(snapshot.id, 'done')
	// The follower list of a watch's snapshot: a watch-owned job nothing holds would be deleted.
	const watches = new WatchStore(store)
	const watch = watches.create({
		kind: 'account',
		target: 'mega.travel',
		every_seconds: 86_400,
		followers: true
	})
	watches.addSnapshot(watch.id, { takenAt: new Date().toISOString(), followerJobId: snapshot.id }, new Date())
	const dead = Bun.spawn(['true'])
	await dead.exited
	const killed = shared.create({ kind: 'following', target: 'luna.explorer', limit: 20 }, 'cli')
	store.db.query("UPDATE jobs SET status = 'running', runner_pid = ? WHERE id = ?").run(dead.pid, killed.id)
	store.close()

	const table = await jobs()
	expect(table.code).toBe(0)
	expect(table.stdout).toMatch(/^1 +cli \(demo\) +followers +luna\.explorer +done +263 \/ 263 +2 /m)
	expect(table.stdout).toMatch(new RegExp(`^${running.id} +playground +tag +sunset +running `, 'm'))
	expect(table.stdout).toMatch(new RegExp(`^${snapshot.id} +watch +followers +mega\\.travel +done `, 'm'))
	expect(table.stdout).toMatch(new RegExp(`^${killed.id} +cli +following +luna\\.explorer +paused `, 'm'))
	const listed = JSON.parse((await jobs('list', '--json')).stdout)
	expect(listed.map((job: { id: number; source: string }) => [job.id, job.source])).toEqual([
		[killed.id, 'cli'],
		[snapshot.id, 'watch'],
		[limited.id, 'mcp'],
		[running.id, 'playground'],
		[1, 'cli']
	])

	expect(table.stdout).toMatch(
		new RegExp(`^${limited.id} +mcp +following +mega\\.travel +done +20 / 20 +1 `, 'm')
	)
	expect((await jobs('show', String(limited.id))).stdout).toContain('records:    20 / 20 (the list has 180)')
	const shown = await jobs('show', String(killed.id))
	expect(shown.stdout).toContain('status:     paused')
	expect(shown.stdout).toContain(
		'note:       Stopped when smkit collect ended: run `smkit collect following luna.explorer --limit 20` again (same --db) to continue it'
	)

	// Export: exactly the records collect wrote, on standard output or into a file.
	const lines = await jobs('export', '1')
	expect(lines.code).toBe(0)
	expect(lines.stdout.trim().split('\n')).toEqual(walked)
	// `--out -` is standard output as well, not a file named '-'.
	expect((await jobs('export', '1', '--out', '-')).stdout.trim().split('\n')).toEqual(walked)
	const csv = await jobs('export', '1', '--format', 'csv', '--out', 'luna.csv')
	expect(csv.code).toBe(0)
	expect(csv.stderr).toContain('Wrote 263 records of job 1 to luna.csv')
	const rows = readFileSync(join(folder, 'luna.csv'), 'utf8').trimEnd().split('\n')
	expect(rows).toHaveLength(1 + walked.length)
	expect(rows[1]?.startsWith(`${JSON.parse(walked[0] as string).pk},`)).toBe(true)
	// Without --format the file's extension names the format; --format wins over it.
	expect((await jobs('export', '1', '--out', 'luna.JSON')).code).toBe(0)
	const array = JSON.parse(readFileSync(join(folder, 'luna.JSON'), 'utf8'))
	expect(array.map((record: { pk: string }) => record.pk)).toEqual(walked.map((line) => JSON.parse(line).pk))
	expect((await jobs('export', '1', '--format', 'jsonl', '--out', 'lines.csv')).code).toBe(0)
	expect(readFileSync(join(folder, 'lines.csv'), 'utf8').trim().split('\n')).toEqual(walked)

	const busy = await jobs('delete', String(running.id))
	expect(busy.code).toBe(1)
	expect(busy.stderr).toContain(`is being collected by the playground (process ${playground.pid})`)
	const list = await jobs('delete', String(snapshot.id))
	expect(list.code).toBe(1)
	expect(list.stderr).toContain(
		`Job ${snapshot.id} is the follower list of a watch of @mega.travel: it goes with the watch (smkit watch list shows its id, smkit watch remove ID removes it)`
	)
	const deleted = await jobs('delete', '1')
	expect(deleted.code).toBe(0)
	expect(deleted.stdout).toContain('Deleted job 1 and its 263 records')
	const gone = await jobs('show', '1')
	expect(gone.code).toBe(1)
	expect(gone.stderr).toContain('No job 1')
	expect(JSON.parse((await jobs('delete', '1', '--json')).stdout)).toMatchObject({
		code: 'not_found',
		exit_code: 1
	})
	expect((await jobs('show', 'one')).code).toBe(2)
	// Only digits name a job: 0x1, 1e0 and a number beyond any id are not job 1 or a rounded id.
	for (const spelling of ['0x1', '1e0', '99999999999999999999']) {
		const odd = await jobs('show', spelling)
		expect(odd.code).toBe(2)
		expect(odd.stderr).toContain(`expected a job id, got '${spelling}'`)
	}

	const nowhere = await jobs('export', String(running.id), '--out', 'no/such/folder/x.csv')
	expect(nowhere.code).toBe(2)
	expect(nowhere.stderr).toContain("--out: there is no folder 'no/such/folder'")
	// --out naming the store itself, however spelt, or one of its side files would write over the
	// database: refused, and the jobs are still there.
	for (const out of ['j.db', './j.db', `${folder}/j.db`, 'j.db-wal']) {
		const overStore = await jobs('export', String(running.id), '--out', out)
		expect(overStore.code).toBe(2)
		expect(overStore.stderr).toContain(`--out: '${out}' is the store (--db j.db); name another file`)
	}
	expect((await jobs('show', String(running.id))).code).toBe(0)
	// A mistyped --db is said, and no empty store is made there.
	const typo = await smkit('jobs', '--db', 'typo.db')
	expect(typo.code).toBe(0)
	expect(typo.stderr).toContain('there is no store at typo.db yet')
	expect(existsSync(join(folder, 'typo.db'))).toBe(false)

	const misplaced = await jobs('show', String(running.id), '--format', 'csv')
	expect(misplaced.code).toBe(2)
	expect(misplaced.stderr).toContain('--format and --out go with jobs export only')
})
