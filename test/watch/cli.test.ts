/**
 * `smkit watch`, `smkit analytics` and `smkit compare` as cron and people use them: the compiled
 * binary against a simulator (SMKIT_UPSTREAM_URL), one --db for every command.
 */

import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-cli-'))
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Runs `smkit ARGS` in the test folder; resolves to its exit code and output. */
function smkit(...args: string[]) {
	return runProcess([binary, ...args], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url }
	})
}

const watch = (...args: string[]) => smkit('watch', ...args, '--db', 'w.db', '--env', 'none.env', '--demo')

test('watch run exits 1 naming the failed watch, 0 when every due watch ran; diff and list read the store', async () => {
	expect((await watch('add', 'luna.explorer', '--followers')).code).toBe(0)
	expect((await watch('add', '#sunset', '--every', '6h')).code).toBe(0)
	expect((await watch('add', 'nobody.here.zz', '--skip-check')).code).toBe(0)
	const duplicate = await watch('add', 'luna.explorer')
	// A state of the store, not a mistyped command.
	expect(duplicate.code).toBe(1)
	expect(duplicate.stderr).toContain('Already watched')
	expect((await watch('add', 'x', '--every', '10d')).code).toBe(2)

	const failing = await watch('run')
	expect(failing.code).toBe(1)
	expect(failing.stdout).toMatch(/ok +watch 1 @luna\.explorer: snapshot \d+/)
	expect(failing.stdout).toMatch(/ok +watch 2 #sunset: snapshot \d+/)
	expect(failing.stderr).toContain('FAILED  watch 3 @nobody.here.zz')
	expect(failing.stderr).toContain('1 of 3 watches failed: 3 (@nobody.here.zz)')

	// Nothing is due now: the failed watch waits before its retry, the others a whole interval.
	const idle = await watch('run')
	expect(idle.code).toBe(0)
	expect(idle.stdout).toContain('No watch is due')

	expect((await watch('remove', '3')).code).toBe(0)
	await fetch(`${simulator.url}/__sim/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_hours: 24 })
	})
	// An id given twice is run once (a second snapshot at once would leave the default diff empty).
	const again = await watch('run', '1', '2', '1')
	expect(again.code).toBe(0)
	expect(again.stdout.trim().split('\n')).toHaveLength(2)
	expect(again.stderr).toBe('')

	const diff = await watch('diff', '1', '--json')
	expect(diff.code).toBe(0)
	const parsed = JSON.parse(diff.stdout)
	expect(parsed.counts.followers.change).toBe(parsed.gained.length - parsed.lost.length)
	expect(parsed.gained.length + parsed.lost.length).toBeGreaterThan(0)
	const table = await watch('diff', '1')
	expect(table.stdout).toContain(`Gained: ${parsed.gained.length}`)
	expect(table.stdout).toContain(`Lost: ${parsed.lost.length}`)
	const tagDiff = JSON.parse((await watch('diff', '2', '--json')).stdout)
	const { entered, left, stayed } = tagDiff.top_posts
	const tagTable = (await watch('diff', '2')).stdout
	expect(tagTable).toContain(`Top posts: ${entered.length} entered, ${left.length} left, ${stayed} stayed`)
	for (const post of [...entered, ...left]) expect(tagTable).toContain(post.url)
	expect(tagTable).not.toContain('No follower lists')
	// --to the first snapshot leaves nothing to compare it with.
	const first = await watch('diff', '1', '--to', String(parsed.from.id))
	expect(first.code).toBe(2)
	expect(first.stderr).toContain(
		`Watch 1 has no snapshot before ${parsed.from.id} to compare it with: give --from`
	)

	// show: every snapshot of a watch, oldest first, each count's change from the run before.
	const history = JSON.parse((await watch('show', '1', '--json')).stdout)
	expect(history.watch).toMatchObject({ id: 1, target: 'luna.explorer' })
	const [older, newer] = history.snapshots
	expect(history.snapshots.map((snapshot: { id: number }) => snapshot.id)).toEqual([
		parsed.from.id,
		parsed.to.id
	])
	const shown = (await watch('show', '1')).stdout
	const change = newer.followers - older.followers
	expect(shown).toContain('Watch 1: @luna.explorer (demo) every 1d with its follower list; 2 snapshots')
	expect(shown).toMatch(
		new RegExp(`^${older.id} +\\S+ \\S+ +${older.followers.toLocaleString('en-US')} +- `, 'm')
	)
	expect(shown).toMatch(
		new RegExp(
			`^${newer.id} +\\S+ \\S+ +${newer.followers.toLocaleString('en-US')} +\\${change >= 0 ? '+' : '-'}${Math.abs(change)} `,
			'm'
		)
	)
	expect((await watch('show', '2')).stdout).toMatch(/snapshot +taken +media +change +top posts/)
	const unknown = await watch('show', '9')
	expect(unknown.stderr).toContain('No watch 9 (smkit watch list lists them)')
	// A watch that is not there is a failure (exit 1, not_found), not a mistyped command.
	expect(unknown.code).toBe(1)
	expect((await watch('remove', '9')).code).toBe(1)
	expect((await watch('run', '9')).code).toBe(1)
	const missingSnapshot = await watch('diff', '1', '--from', '999', '--to', String(parsed.to.id))
	expect(missingSnapshot.code).toBe(1)
	expect(missingSnapshot.stderr).toContain('Watch 1 has no snapshot 999')
	// Backwards, or from the last snapshot alone: bad usage.
	const backwards = await watch('diff', '1', '--from', String(parsed.to.id), '--to', String(parsed.from.id))
	expect(backwards.code).toBe(2)
	expect(backwards.stderr).toContain(
		`--from (${parsed.to.id}) must be an earlier snapshot than --to (${parsed.from.id})`
	)
	const fromLast = await watch('diff', '1', '--from', String(parsed.to.id))
	expect(fromLast.code).toBe(2)
	// --to was not given: the message is about --from and the latest snapshot.
	expect(fromLast.stderr).toContain(
		`--from ${parsed.to.id} is not before the latest snapshot of watch 1 (${parsed.to.id}): give an older --from, or --to`
	)

	const list = await watch('list')
	expect(list.code).toBe(0)
	expect(list.stdout).toMatch(/1 +@luna\.explorer \(demo\) +1d +list +2 /)
	expect(list.stdout).toMatch(/2 +#sunset \(demo\) +6h +- +2 /)
	expect(JSON.parse((await watch('list', '--json')).stdout).map((entry: { id: number }) => entry.id)).toEqual(
		[1, 2]
	)
}, 120_000)

test('watch list and show say when another process runs a watch now, as the API does', async () => {
	// The test process stands for a playground running watch 1 (its pid is alive, not the binary's).
	const db = new Database(join(folder, 'w.db'))
	const setRunner = db.query('UPDATE watches SET runner = ? WHERE id = 1')
	try {
		setRunner.run(`${process.pid}:elsewhere`)
		const listed = JSON.parse((await watch('list', '--json')).stdout)
		expect(listed.map((one: { id: number; running: boolean }) => [one.id, one.running])).toEqual([
			[1, true],
			[2, false]
		])
		expect((await watch('list')).stdout).toMatch(/\n1 .*running/)
		expect(JSON.parse((await watch('show', '1', '--json')).stdout).watch.running).toBe(true)
		expect((await watch('show', '1')).stdout.split('\n')[0]).toContain('running now')
		setRunner.run(null)
		expect(JSON.parse((await watch('list', '--json')).stdout)[0].running).toBe(false)
		expect((await watch('show', '1')).stdout.split('\n')[0]).toContain('next run')
	} finally {
		setRunner.run(null)
		db.close()
	}
})
test('with --json every watch action prints JSON only; a run reports each watch as the run left it', async () => {
	const json = async (...args: string[]) => {
		const result = await smkit('watch', ...args, '--json', '--db', 'json.db', '--env', 'none.env', '--demo')
		return { ...result, value: JSON.parse(result.stdout) }
	}
	const added = await json('add', 'luna.explorer')
	expect(added.value).toMatchObject({ id: 1, snapshots: 0, last_status: null })
	const run = await json('run')
	expect(run.code).toBe(0)
	expect(run.value[0].watch).toMatchObject({ id: 1, snapshots: 1, last_status: 'ok' })
	expect(run.value[0].watch.last_run_at).not.toBeNull()
	// Nothing due: an empty list of runs, the reason on standard error.
	const idle = await json('run')
	expect(idle.value).toEqual([])
	expect(idle.stderr).toContain('No watch is due')
	const removed = await json('remove', '1')
	expect(removed.value).toEqual({ removed: 1 })
	expect((await json('run')).value).toEqual([])
})

test('bad usage exits 2 naming the actions, or the option an action does not take; nothing is stored', async () => {
	const usage = (...args: string[]) => smkit('watch', ...args, '--db', 'usage.db', '--env', 'none.env')
	for (const [args, message] of [
		[[], 'watch needs an action: add USERNAME|#TAG, list, show ID, run [ID...], diff ID or remove ID'],
		[['frob'], "unknown watch action 'frob'; the actions: add USERNAME|#TAG, list"],
		[['dif', '1'], "unknown watch action 'dif' (did you mean 'diff'?); the actions:"],
		[['add', '#sunset', '--followers'], '--followers is for accounts: a hashtag watch stores'],
		[['show', '1', '--every', '2d'], '--every goes with watch add only'],
		[['run', '--followers'], '--followers goes with watch add only'],
		[['list', '--skip-check'], '--skip-check goes with watch add only'],
		[['list', '--from', '1'], '--from and --to go with watch diff only'],
		[['list', '3'], 'watch list takes no arguments'],
		[['remove', '1', '2'], 'watch remove takes one watch ID'],
		[['diff'], 'watch diff takes one watch ID'],
		[['add', 'luna.explorer', '--every', '1w'], "--every must look like 1h, 12h, 1d or 7d, got '1w'"],
		[['add', 'luna.explorer', '--every', '8d'], "--every must be from 1h to 7d, got '8d'"]
	] as const) {
		const result = await usage(...args)
		expect(result.stderr).toContain(message)
		expect(result.code).toBe(2)
	}
	const folderDb = await smkit('watch', 'list', '--db', '.')
	expect(folderDb.stderr).toContain("--db must be the path of a database file, not a folder: '.'")
	expect(folderDb.code).toBe(2)
	const list = await usage('list', '--json')
	expect(JSON.parse(list.stdout)).toEqual([])
	// A watch add given bad usage said it before opening the store: none was made.
	expect(existsSync(join(folder, 'usage.db'))).toBe(false)
})

test('watch add looks the account up: an unknown one exits 1 unless --skip-check; a failed look-up only warns', async () => {
	const add = (...args: string[]) => smkit('watch', 'add', ...args, '--db', 'check.db', '--env', 'none.env')
	const unknown = await add('Typo.Here.Zz', '--demo')
	expect(unknown.code).toBe(1)
	expect(unknown.stderr).toBe(
		'smkit: No Instagram account @typo.here.zz: check the spelling, or add it with --skip-check\n'
	)
	const json = await add('typo.here.zz', '--demo', '--json')
	expect(JSON.parse(json.stdout)).toMatchObject({ success: false, code: 'not_found', exit_code: 1 })
	expect(JSON.parse((await smkit('watch', 'list', '--db', 'check.db', '--json')).stdout)).toEqual([])

	const skipped = await add('typo.here.zz', '--skip-check')
	expect(skipped.code).toBe(0)
	expect(skipped.stdout).toBe('Watch 1: @typo.here.zz every 1d; due now (smkit watch run)\n')
	// Already watched: refused before Instagram is asked.
	const before = simulator.requests.count(/web_profile_info/)
	expect((await add('typo.here.zz', '--demo')).code).toBe(1)
	expect(simulator.requests.count(/web_profile_info/)).toBe(before)

	const privateOne = await add('private.pat', '--followers', '--demo')
	expect(privateOne.code).toBe(0)
	// A demo watch runs in demo mode: the hint says so.
	expect(privateOne.stdout).toBe(
		'Watch 2: @private.pat every 1d with its follower list; due now (smkit watch run --demo)\n'
	)
	expect(privateOne.stderr).toBe(
		"@private.pat is private: its follower list can only be collected while this session's account follows it\n"
	)
	// No credentials (no --demo, no environment file): the look-up cannot be made, the watch is added.
	const loggedOut = await add('luna.explorer')
	expect(loggedOut.code).toBe(0)
	expect(loggedOut.stderr).toContain('Could not check that @luna.explorer exists (Not logged in')
	expect(loggedOut.stdout).toBe('Watch 3: @luna.explorer every 1d; due now (smkit watch run)\n')
})

test('Ctrl-C during watch run exits 130 without calling the watch failed; the next run completes it', async () => {
	const interrupted = (...args: string[]) =>
		smkit('watch', ...args, '--db', 'interrupted.db', '--env', 'none.env', '--demo')
	expect((await interrupted('add', 'mega.travel', '--followers')).code).toBe(0)
	simulator.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: 'followers' })
	const before = simulator.requests.count(/followers/)
	const child = Bun.spawn([binary, 'watch', 'run', '--db', 'interrupted.db', '--env', 'none.env', '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const stdout = new Response(child.stdout).text()
	const stderr = new Response(child.stderr).text()
	while (simulator.requests.count(/followers/) < before + 2) await Bun.sleep(10)
	child.kill('SIGINT')
	expect(await child.exited).toBe(130)
	simulator.faults.clear()
	expect(await stdout).toBe('')
	const errors = await stderr
	expect(errors).toContain(
		'Interrupted: run smkit watch run 1 --demo --db interrupted.db --env none.env to finish watch 1'
	)
	expect(errors).not.toContain('FAILED')
	// Never run to its end, and its follower list paused where Ctrl-C stopped it.
	expect((await interrupted('list')).stdout).toMatch(
		/1 +@mega\.travel \(demo\) +1d +list +0 +- +list paused [\d,]+\/[\d,]+ /
	)
	const rerun = await interrupted('run')
	expect(rerun.code).toBe(0)
	expect(rerun.stdout).toMatch(/ok +watch 1 @mega\.travel: snapshot \d+, ([\d,]+) followers \(list of \1\)/)

	// With --json, standard output says it was interrupted, not an empty list of runs (none due).
	const jsonDb = ['--db', 'interrupted-json.db', '--env', 'none.env', '--demo']
	expect((await smkit('watch', 'add', 'mega.travel', '--followers', ...jsonDb)).code).toBe(0)
	simulator.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: 'followers' })
	const started = simulator.requests.count(/followers/)
	const json = Bun.spawn([binary, 'watch', 'run', '--json', ...jsonDb], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const jsonOut = new Response(json.stdout).text()
	while (simulator.requests.count(/followers/) < started + 2) await Bun.sleep(10)
	json.kill('SIGINT')
	expect(await json.exited).toBe(130)
	simulator.faults.clear()
	expect(JSON.parse(await jsonOut)).toMatchObject({ success: false, error: 'Interrupted', exit_code: 130 })
}, 60_000)

test('analytics and compare print tables, or JSON with --json', async () => {
	const json = await smkit(
		'analytics',
		'luna.explorer',
		'--demo',
		'--json',
		'--posts',
		'12',
		'--env',
		'none.env'
	)
	expect(json.code).toBe(0)
	expect(JSON.parse(json.stdout)).toMatchObject({ username: 'luna.explorer', posts_requested: 12 })
	const text = await smkit('analytics', 'luna.explorer', '--demo', '--env', 'none.env')
	expect(text.stdout).toContain('Engagement rate (%)')
	expect(text.stdout).toContain('Top posts:')

	const compared = await smkit(
		'compare',
		'luna.explorer',
		'mega.travel',
		'xss.payload',
		'--demo',
		'--env',
		'none.env'
	)
	expect(compared.code).toBe(0)
	expect(compared.stdout).toContain('@mega.travel')
	const followersRow = compared.stdout.split('\n').find((line) => line.startsWith('Followers')) as string
	// mega.travel has the most followers: its cell carries the mark.
	expect(followersRow).toMatch(/5,\d{3} \*/)
	const comparedJson = JSON.parse(
		(await smkit('compare', 'luna.explorer', 'mega.travel', '--demo', '--json', '--env', 'none.env')).stdout
	)
	expect(comparedJson.usernames).toEqual(['luna.explorer', 'mega.travel'])
	const tooFew = await smkit('compare', 'luna.explorer', '--demo', '--env', 'none.env')
	expect(tooFew.code).toBe(2)
}, 120_000)

test('a failing command given --json prints a JSON failure on standard output, the message on standard error', async () => {
	const cases: [string[], number, string][] = [
		[['analytics', 'private.pat'], 1, 'private_account'],
		[['analytics', 'nobody.here.zz'], 1, 'not_found'],
		[['compare', 'luna.explorer', 'private.pat'], 1, 'private_account'],
		[['compare', 'luna.explorer', 'luna.explorer'], 2, 'bad_usage'],
		[['analytics', 'luna.explorer', '--posts', 'abc'], 2, 'bad_usage'],
		[['analytics', 'luna.explorer', '--no-such-option'], 2, 'bad_usage'],
		[['watch', 'diff', '99', '--db', 'failures.db'], 1, 'not_found'],
		[['watch', 'diff', 'abc', '--db', 'failures.db'], 2, 'bad_usage']
	]
	for (const [args, exitCode, code] of cases) {
		const result = await smkit(...args, '--json', '--demo', '--env', 'none.env')
		expect(result.code).toBe(exitCode)
		const failure = JSON.parse(result.stdout)
		expect(failure).toEqual({ success: false, error: expect.any(String), code, exit_code: exitCode })
		expect(result.stderr).toContain(`smkit: ${failure.error}`)
	}
	// Without --json standard output stays empty.
	expect((await smkit('analytics', 'private.pat', '--demo', '--env', 'none.env')).stdout).toBe('')
}, 120_000)

test('an expired or challenged session makes analytics, compare and watch run say how to fix it', async () => {
	const watchArgs = ['--db', 'session.db', '--env', 'none.env', '--demo']
	// A hashtag's info needs the session (an account's profile counts are answered without one).
	expect((await smkit('watch', 'add', '#sunset', ...watchArgs)).code).toBe(0)
	try {
		simulator.session.set('expired')
		const analytics = await smkit('analytics', 'luna.explorer', '--demo', '--env', 'none.env')
		expect(analytics.code).toBe(1)
		expect(analytics.stderr).toContain('The session has expired: to reconnect, log in to instagram.com')
		expect(analytics.stderr).toContain('smkit login --cookies FILE')
		const compare = await smkit(
			'compare',
			'luna.explorer',
			'mega.travel',
			'--demo',
			'--json',
			'--env',
			'none.env'
		)
		expect(JSON.parse(compare.stdout)).toMatchObject({ code: 'login_required' })
		expect(JSON.parse(compare.stdout).error).toContain('to reconnect')
		const run = await smkit('watch', 'run', ...watchArgs)
		expect(run.code).toBe(1)
		expect(run.stderr).toContain('FAILED  watch 1 #sunset:')
		expect(run.stderr).toContain('The session has expired: to reconnect')

		simulator.session.set('challenge')
		const challenged = await smkit('analytics', 'luna.explorer', '--demo', '--env', 'none.env')
		expect(challenged.code).toBe(1)
		expect(challenged.stderr).toContain('open instagram.com in the browser and complete it')
	} finally {
		simulator.session.set('valid')
	}
})

test('a reader that stops early (| head) ends the command quietly with its own exit code', async () => {
	// 97 KB of JSON: more than a pipe holds, so writes fail once head has gone.
	const script = `set -o pipefail; "${binary}" compare luna.explorer mega.travel --posts 200 --demo --json --env none.env | head -c 10 > /dev/null`
	const child = Bun.spawn(['bash', '-c', script], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url },
		stderr: 'pipe'
	})
	const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
	expect(stderr).toBe('')
	expect(code).toBe(0)
})

test('only watch add makes a store: list, run, diff and remove on a mistyped --db say so and create nothing', async () => {
	const listed = await smkit('watch', 'list', '--db', 'typo.db', '--json')
	expect(listed.code).toBe(0)
	expect(JSON.parse(listed.stdout)).toEqual([])
	expect(listed.stderr).toContain('there is no store at typo.db yet (smkit watch add creates it')
	const ran = await smkit('watch', 'run', '--db', 'typo.db')
	expect(ran.code).toBe(0)
	expect(ran.stderr).toContain('No watches: there is no store at typo.db')
	const diffed = await smkit('watch', 'diff', '3', '--db', 'typo.db')
	expect(diffed.code).toBe(1)
	expect(diffed.stderr).toContain('No watch 3: there is no store at typo.db')
	expect(existsSync(join(folder, 'typo.db'))).toBe(false)
})
