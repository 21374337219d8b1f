/**
 * `smkit collect` on the compiled binary, as a user runs it: killed with SIGKILL at random moments
 * and run again until it finishes, it ends with exactly the account's followers, each once, in the
 * file and in the store; Ctrl-C exits 130 and the next run continues; --fresh starts over; CSV and
 * JSON come from the store (chosen by --format or --out's extension); bad arguments exit 2; a
 * reader closing the pipe early stops the job quietly.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDemoClient } from '../../src/demo'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { compiledBinary } from '../support/binary'

let binary: string
let simulator: Simulator
let folder: string
let expected: string[]

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-'))
	// The reference: the whole follower list walked in pages of 1000.
	const client = createDemoClient(simulator.url)
	expected = []
	let cursor: string | null = null
	do {
		const page = await client.friendships.getFollowers(DEMO_PRESETS.mega.pk, { count: 1000, cursor })
		expected.push(...page.items.map((user) => user.pk))
		cursor = page.next_cursor
	} while (cursor)
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Starts the binary's collect with `args` against the test's simulator. */
function collect(args: string[]) {
	return Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout: 'pipe',
		stderr: 'pipe'
	})
}

/** Reads a stream to its end in the background; `until` resolves once `text` appears `times` times (or it ends). */
function watch(stream: ReadableStream<Uint8Array>) {
	let seen = ''
	const waiters: { test: () => boolean; resolve: () => void }[] = []
	const done = (async () => {
		const decoder = new TextDecoder()
		const reader = stream.getReader()
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
			seen += decoder.decode(chunk.value, { stream: true })
			for (const waiter of waiters.filter((entry) => entry.test())) waiter.resolve()
		}
		for (const waiter of waiters) waiter.resolve()
	})()
	return {
		until: (text: string, times = 1) => {
			const test = () => seen.split(text).length > times
			return new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve })))
		},
		text: async () => {
			await done
			return seen
		}
	}
}

const pksOfFile = (path: string) =>
	readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => (JSON.parse(line) as { pk: string }).pk)

test('killed with SIGKILL again and again, the rerun ends with exactly the followers, each once', async () => {
	expect(expected.length).toBe(5400)
	// Slow pages, so kills land while pages are fetched, stored and appended.
	simulator.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const args = ['followers', 'mega.travel', '--out', 'followers.jsonl', '--db', 'kill.db']
	// Each run is killed at a random moment after one of its first three pages, until six kills have
	// landed; the run after them goes to the end. A kill lands within a page of the line that
	// triggered it, so six runs store at most 24 of the 27 pages and each of them is killed (a later
	// page as trigger let a run finish first now and then, with five kills).
	let kills = 0
	let finished = ''
	for (let round = 0; round < 20 && !finished; round++) {
		const child = collect(args)
		const errors = watch(child.stderr)
		void new Response(child.stdout).text()
		if (kills < 6) {
			// The first kill comes after a stored page, so the last run always continues a started list
			// (six kills all before any page, a 1-in-700 draw, once left it nothing to continue).
			await errors.until('\npage ', kills === 0 ? 1 : Math.floor(Math.random() * 3))
			await Bun.sleep(Math.random() * 10)
			child.kill('SIGKILL')
		}
		const code = await child.exited
		if (code === 0) finished = await errors.text()
		else {
			expect(code).not.toBe(1)
			kills++
		}
	}
	expect(kills).toBeGreaterThanOrEqual(6)
	expect(finished).toMatch(/done: 5,400 records, \d+ pages, [\d.]+ s \(job 1, \+[\d,]+ this run\)/)
	const pks = pksOfFile(join(folder, 'followers.jsonl'))
	expect(pks).toEqual(expected)
	expect(new Set(pks).size).toBe(pks.length)
	const store = openStore(join(folder, 'kill.db'))
	const count = store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM job_records').get()
	store.close()
	expect(count?.n).toBe(5400)
}, 120_000)

test('Ctrl-C exits 130 and the same command continues; --fresh starts over', async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 20, pathPattern: 'followers' })
	const args = ['followers', 'mega.travel', '--out', 'interrupted.jsonl', '--db', 'sigint.db']
	const child = collect(args)
	const errors = watch(child.stderr)
	await errors.until('page 3:')
	child.kill('SIGINT')
	expect(await child.exited).toBe(130)
	const stopped = await errors.text()
	expect(stopped).toContain('paused:')
	expect(stopped).toContain('run the same command again')
	simulator.faults.clear()
	const rerun = collect(args)
	const [code, text] = await Promise.all([rerun.exited, new Response(rerun.stderr).text()])
	expect(code).toBe(0)
	expect(text).toMatch(/Continuing job \d+: [1-9][\d,]* records/)
	expect(pksOfFile(join(folder, 'interrupted.jsonl'))).toEqual(expected)
	const fresh = collect([...args, '--fresh', '--limit', '250'])
	const [freshCode, freshText] = await Promise.all([fresh.exited, new Response(fresh.stderr).text()])
	expect(freshCode).toBe(0)
	expect(freshText).toContain('done: 250 records')
	expect(pksOfFile(join(folder, 'interrupted.jsonl'))).toEqual(expected.slice(0, 250))
}, 60_000)

test('a --fresh collect stopped by Ctrl-C says to run it again without --fresh (with it, the stored pages go)', async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 20, pathPattern: 'followers' })
	try {
		const args = ['followers', 'mega.travel', '--out', 'fresh.jsonl', '--db', 'fresh.db', '--fresh']
		const child = collect(args)
		const errors = watch(child.stderr)
		await errors.until('page 2:')
		child.kill('SIGINT')
		expect(await child.exited).toBe(130)
		const stopped = await errors.text()
		expect(stopped).toContain(
			'Interrupted: run the same command again without --fresh to continue where it stopped.'
		)
		const store = openStore(join(folder, 'fresh.db'))
		const job = store.db.query<{ error: string }, []>('SELECT error FROM jobs').get()
		store.close()
		expect(job?.error).toBe('Interrupted: run the same command again without --fresh to continue')
	} finally {
		simulator.faults.clear()
	}
}, 60_000)

test('a rate-limit back-off is reported as a wait while it lasts, and the list still ends complete', async () => {
	// Two 429s in a row: the job's own back-off, not a silent retry inside the client.
	simulator.faults.set({ kind: 'rate_limit', times: 2, retryAfter: 1, pathPattern: 'followers' })
	try {
		const child = collect([
			'followers',
			'mega.travel',
			'--limit',
			'300',
			'--out',
			'limited.jsonl',
			'--db',
			'limited.db'
		])
		const [code, text] = await Promise.all([child.exited, new Response(child.stderr).text()])
		expect(code).toBe(0)
		const waits = text.split('\n').filter((line) => line.startsWith('waiting '))
		expect(waits).toHaveLength(2)
		for (const line of waits) expect(line).toMatch(/^waiting \d+ s: .+; trying again in \d+ s$/)
		expect(text).toContain('done: 300 records')
		expect(pksOfFile(join(folder, 'limited.jsonl'))).toEqual(expected.slice(0, 300))
	} finally {
		simulator.faults.clear()
	}
}, 60_000)

test('CSV and JSON to standard output come from the store; bad arguments exit 2', async () => {
	const csv = collect(['followers', 'luna.explorer', '--format', 'csv', '--db', 'formats.db'])
	const [code, bytes] = await Promise.all([csv.exited, new Response(csv.stdout).bytes()])
	expect(code).toBe(0)
	// The byte order mark on standard output too: the same file as --out writes (docs/api-contract.md).
	expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
	const lines = new TextDecoder().decode(bytes).trim().split('\r\n')
	expect(lines[0]).toBe('pk,username,full_name,is_private,is_verified,profile_pic_url')
	expect(lines.length).toBe(1 + 263)
	// `--out -` is standard output too, not a file named '-'.
	const json = collect([
		'posts',
		'luna.explorer',
		'--format',
		'json',
		'--limit',
		'5',
		'--out',
		'-',
		'--db',
		'formats.db'
	])
	const records = JSON.parse(await new Response(json.stdout).text()) as { pk: string }[]
	expect(records.length).toBe(5)
	expect(existsSync(join(folder, '-'))).toBe(false)
	// The summary counts in words: "1 record, 1 page".
	const one = collect(['posts', 'luna.explorer', '--format', 'json', '--limit', '1', '--db', 'formats.db'])
	const summary = (await new Response(one.stderr).text()).trim().split('\n').at(-1)
	expect(summary).toStartWith('done: 1 record, 1 page, ')
	// --out's extension names the format when --format is not given.
	const named = collect(['following', 'luna.explorer', '--out', 'following.csv', '--db', 'formats.db'])
	expect(await named.exited).toBe(0)
	const namedBytes = readFileSync(join(folder, 'following.csv'))
	expect([...namedBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
	const namedRows = new TextDecoder().decode(namedBytes).trim().split('\r\n')
	expect(namedRows[0]).toBe('pk,username,full_name,is_private,is_verified,profile_pic_url')
	expect(namedRows.length).toBe(1 + 50)
	for (const [args, message] of [
		[['friends', 'luna.explorer'], 'KIND must be one of'],
		[['folowers', 'luna.explorer'], "got 'folowers' (did you mean 'followers'?)"],
		[['followers', 'not a user!'], 'TARGET of followers must be a username'],
		[['followers', 'luna.explorer', '--format', 'xml'], '--format must be jsonl, csv or json'],
		[
			['followers', 'luna.explorer', '--out', 'no-such-folder/x.jsonl'],
			"--out: there is no folder 'no-such-folder'"
		],
		[['followers', 'luna.explorer', '--out', '.'], "--out: '.' is a folder"],
		// A folder not made yet, named with a trailing slash, is still a folder: no job is made.
		[['followers', 'luna.explorer', '--out', 'later/'], "--out: 'later/' names a folder; name a file in it"],
		[
			['followers', 'luna.explorer', '--db', 'own.db', '--out', './own.db'],
			"--out: './own.db' is the store (--db own.db); name another file"
		],
		[
			['followers', 'luna.explorer', '--db', '.'],
			"--db must be the path of a database file, not a folder: '.'"
		],
		[
			['followers', 'luna.explorer', '--limit', '-5'],
			"--limit must be a whole number of at least 1, got '-5'"
		]
	] as const) {
		const bad = collect([...args])
		const [badCode, badText] = await Promise.all([bad.exited, new Response(bad.stderr).text()])
		expect(badCode).toBe(2)
		expect(badText).toContain(message)
	}
}, 60_000)

test('a reader that stops early (| head) stops the job quietly; the same command continues it', async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 20, pathPattern: 'followers' })
	const args = ['followers', 'mega.travel', '--db', 'head.db', '--demo']
	const shell = Bun.spawn(
		['bash', '-c', '"$0" "$@" | head -n 1; echo "smkit exited $PIPESTATUS" >&2', binary, 'collect', ...args],
		{
			cwd: folder,
			env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
			stdout: 'pipe',
			stderr: 'pipe'
		}
	)
	const [output, errors] = await Promise.all([
		new Response(shell.stdout).text(),
		new Response(shell.stderr).text()
	])
	simulator.faults.clear()
	expect(output.trim().split('\n').length).toBe(1)
	expect(errors).not.toContain('EPIPE')
	expect(errors).not.toMatch(/\n\s+at /)
	expect(errors).toMatch(/paused: [\d,]+ records/)
	expect(errors).toContain('Standard output was closed: run the same command again')
	expect(errors).toContain('smkit exited 1')
	const stopped = openStore(join(folder, 'head.db'))
	const collected = stopped.db.query<{ n: number }, []>('SELECT count(*) AS n FROM job_records').get()?.n
	stopped.close()
	expect(collected).toBeLessThan(5400)
	const rerun = collect(['followers', 'mega.travel', '--db', 'head.db'])
	const [code, text] = await Promise.all([rerun.exited, new Response(rerun.stderr).text()])
	expect(code).toBe(0)
	expect(text).toMatch(/Continuing job \d+: [1-9][\d,]* records/)
}, 60_000)

test('a second collect of a list another process is collecting exits 1 naming it, and leaves its file and records alone', async () => {
	// Slow pages, so the first run is still collecting when the second starts.
	simulator.faults.set({ kind: 'latency', latencyMs: 100, pathPattern: 'followers' })
	const args = ['followers', 'mega.travel', '--out', 'shared.jsonl', '--db', 'shared.db']
	const first = collect(args)
	const firstErrors = watch(first.stderr)
	void new Response(first.stdout).text()
	await firstErrors.until('page 2:')
	// --fresh too: it would wipe the records the first run is adding to.
	const second = collect([...args, '--fresh'])
	const [secondCode, secondText] = await Promise.all([second.exited, new Response(second.stderr).text()])
	expect(secondCode).toBe(1)
	expect(secondText).toContain(
		`job 1 (followers mega.travel) is being collected by another process (pid ${first.pid}) on shared.db`
	)
	expect(secondText).not.toContain('Starting over')
	expect(secondText).not.toMatch(/\n\s+at /)
	expect(await first.exited).toBe(0)
	simulator.faults.clear()
	expect(await firstErrors.text()).toContain('done: 5,400 records')
	expect(pksOfFile(join(folder, 'shared.jsonl'))).toEqual(expected)
	const store = openStore(join(folder, 'shared.db'))
	const jobs = store.db.query<{ id: number; collected: number }, []>('SELECT id, collected FROM jobs').all()
	store.close()
	expect(jobs).toEqual([{ id: 1, collected: 5400 }])
}, 60_000)

test('an --out file removed mid-run is written again from the store; its folder removed pauses the job, and the rerun continues', async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 30, pathPattern: 'followers' })
	const removed = collect(['followers', 'mega.travel', '--out', 'removed.jsonl', '--db', 'removed.db'])
	const removedErrors = watch(removed.stderr)
	await removedErrors.until('page 3:')
	rmSync(join(folder, 'removed.jsonl'))
	expect(await removed.exited).toBe(0)
	expect(await removedErrors.text()).toContain(
		'removed.jsonl was removed or changed while collecting: written again from the store'
	)
	expect(pksOfFile(join(folder, 'removed.jsonl'))).toEqual(expected)

	mkdirSync(join(folder, 'out'))
	const args = ['followers', 'mega.travel', '--out', 'out/followers.jsonl', '--db', 'folder.db']
	const first = collect(args)
	const firstErrors = watch(first.stderr)
	await firstErrors.until('page 3:')
	rmSync(join(folder, 'out'), { recursive: true })
	expect(await first.exited).toBe(1)
	const stopped = await firstErrors.text()
	expect(stopped).toMatch(/paused: [\d,]+ records/)
	// Said once: not 'Could not write F: cannot write F: ...'.
	expect(stopped).toContain('Could not write out/followers.jsonl: there is no folder out')
	expect(stopped).not.toContain('.tmp-')
	expect(stopped).toContain('run the same command again to continue where it stopped')
	expect(stopped).not.toMatch(/\n\s+at /)
	simulator.faults.clear()
	mkdirSync(join(folder, 'out'))
	const rerun = collect(args)
	const [code, text] = await Promise.all([rerun.exited, new Response(rerun.stderr).text()])
	expect(code).toBe(0)
	expect(text).toMatch(/Continuing job 1: [1-9][\d,]* records/)
	expect(pksOfFile(join(folder, 'out', 'followers.jsonl'))).toEqual(expected)
}, 60_000)
