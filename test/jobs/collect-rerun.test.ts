/**
 * Which job a rerun of `smkit collect` continues: the newest one of the same list, unless it ended
 * done. A job that failed (its attempts ran out in a long outage) continues from its last stored
 * page like a paused one, instead of collecting the whole list again and emptying the --out file
 * meanwhile; a finished list starts a new job, and so does a rerun after it, whatever older job
 * failed before.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { compiledBinary } from '../support/binary'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-rerun-'))
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Starts the binary's collect with `args` against the test's simulator. */
function start(args: string[]) {
	return Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout: 'ignore',
		stderr: 'pipe'
	})
}

/** Runs the binary's collect with `args` to its end; resolves to its exit code and stderr. */
async function collect(args: string[]): Promise<{ code: number; text: string }> {
	const child = start(args)
	const [code, text] = await Promise.all([child.exited, new Response(child.stderr).text()])
	return { code, text }
}

/** Runs SQL on the test's store, then lists its jobs. */
function onStore(sql: string): { id: number; status: string }[] {
	const store = openStore(join(folder, 'rerun.db'))
	try {
		if (sql) store.db.exec(sql)
		return store.db.query<{ id: number; status: string }, []>('SELECT id, status FROM jobs ORDER BY id').all()
	} finally {
		store.close()
	}
}

const pksOfFile = (path: string) =>
	readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => (JSON.parse(line) as { pk: string }).pk)

test('a failed collection continues from its last stored page; a finished one starts anew', async () => {
	const expected = [...simulator.state.followersOf(DEMO_PRESETS.mega.pk)]
	const args = ['followers', 'mega.travel', '--out', 'followers.jsonl', '--db', 'rerun.db']
	// Slow pages, stopped after the third: then marked failed, as attempts running out leave a job.
	simulator.faults.set({ kind: 'latency', latencyMs: 30, pathPattern: 'followers' })
	const first = start(args)
	const reader = first.stderr.getReader()
	let seen = ''
	while (!seen.includes('page 3:')) seen += new TextDecoder().decode((await reader.read()).value)
	first.kill('SIGINT')
	reader.releaseLock()
	await first.exited
	simulator.faults.clear()
	onStore("UPDATE jobs SET status = 'failed', error = 'Instagram server error, attempt after attempt'")

	const rerun = await collect(args)
	expect(rerun.code).toBe(0)
	expect(rerun.text).toMatch(/Continuing job 1: [1-9][\d,]* records in \d+ pages so far/)
	expect(rerun.text).toMatch(/done: 5,400 records, 27 pages, [\d.]+ s \(job 1, \+[\d,]+ this run\)/)
	expect(pksOfFile(join(folder, 'followers.jsonl'))).toEqual(expected)

	// Done: the next run collects the list anew, in a job of its own.
	expect((await collect(args)).text).toMatch(/done: 5,400 records, 27 pages, [\d.]+ s \(job 2\)/)
	// An older job failing again later is not taken up: the newest job of the list is done.
	onStore("UPDATE jobs SET status = 'failed' WHERE id = 1")
	expect((await collect(args)).text).toMatch(/done: 5,400 records, 27 pages, [\d.]+ s \(job 3\)/)
	expect(onStore('').map((job) => job.status)).toEqual(['failed', 'done', 'done'])
}, 60_000)
