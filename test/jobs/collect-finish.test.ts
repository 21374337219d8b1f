/**
 * `smkit collect` writes its CSV or JSON once the whole list is stored, and the job is done only
 * once that file is written: the binary killed (`kill -9`) or interrupted (Ctrl-C) while writing
 * leaves the previous file as it was and the job unfinished, and the same command then writes the
 * file from the store without asking Instagram for a single page again.
 *
 * "While writing" is made a moment the test holds: the file's temporary name (or standard output)
 * is a pipe the test reads only the first bytes of, so the write stops there as on a very slow disk.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
	closeSync,
	constants,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { compiledBinary } from '../support/binary'
import { openFifo } from '../support/fifo'

let binary: string
let simulator: Simulator
let folder: string
let followers: string[]

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-finish-'))
	followers = [...simulator.state.followersOf(DEMO_PRESETS.mega.pk)]
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Starts the binary's collect with `args`; its standard output goes to `stdout` (a file descriptor) or nowhere. */
function collect(args: string[], stdout: number | 'ignore' | 'pipe' = 'ignore') {
	const child = Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout,
		stderr: 'pipe'
	})
	return { child, stderr: new Response(child.stderr).text() }
}

/** Pages of the follower list the simulator served so far. */
const followerPages = () => simulator.requests.count(/\/followers\/$/)

/** The jobs of a store: id, status, and whether their walk is complete. */
function jobsOf(database: string): { id: number; status: string; cursor: string | null }[] {
	const store = openStore(join(folder, database))
	try {
		return store.db
			.query<{ id: number; status: string; cursor: string | null }, []>('SELECT id, status, cursor FROM jobs')
			.all()
	} finally {
		store.close()
	}
}

/** The first cell of each row of a CSV file (BOM and header off): the followers' pks. */
const pksOfCsv = (text: string) =>
	text
		.replace(/^\uFEFF/, '')
		.split('\r\n')
		.slice(1)
		.map((row) => row.split(',')[0])

/**
 * Starts a CSV collect into `name/followers.csv` (holding a previous export) whose temporary file is
 * a pipe: resolves once the binary has written the first bytes of the file and is held there.
 */
async function collectHeldWhileWriting(name: string) {
	mkdirSync(join(folder, name))
	writeFileSync(join(folder, name, 'followers.csv'), 'the previous export')
	const args = [
		'followers',
		'mega.travel',
		'--format',
		'csv',
		'--out',
		`${name}/followers.csv`,
		'--db',
		`${name}.db`
	]
	// Slow pages: the pipe is in place well before the list is collected.
	simulator.faults.set({ kind: 'latency', latencyMs: 20, pathPattern: 'followers' })
	const run = collect(args)
	const temporary = openFifo(join(folder, name, `followers.csv.tmp-${run.child.pid}`))
	const start = await temporary.take(20)
	simulator.faults.clear()
	expect(start.toString('utf8')).toStartWith('\uFEFFpk,username,')
	// Writing the file: the whole list is stored, and the job is not done.
	expect(jobsOf(`${name}.db`)).toEqual([{ id: 1, status: 'running', cursor: null }])
	return { args, run, temporary }
}

/** Runs `args` again: it writes the file from the store, asking Instagram nothing. */
async function expectRerunWritesTheFile(name: string, args: string[]) {
	const pagesBefore = followerPages()
	const rerun = collect(args)
	const [code, text] = await Promise.all([rerun.child.exited, rerun.stderr])
	expect(text).toContain(
		`Continuing job 1: 5,400 records stored, nothing left to collect; writing ${name}/followers.csv from the store`
	)
	expect(text).toMatch(/done: 5,400 records, 27 pages, [\d.]+ s \(job 1, \+0 this run\)/)
	expect(code).toBe(0)
	expect(followerPages()).toBe(pagesBefore)
	expect(pksOfCsv(readFileSync(join(folder, name, 'followers.csv'), 'utf8'))).toEqual(followers)
	// The temporary file the killed run left (possibly large) is gone too.
	expect(readdirSync(join(folder, name))).toEqual(['followers.csv'])
	expect(jobsOf(`${name}.db`)).toEqual([{ id: 1, status: 'done', cursor: null }])
}

test('killed (kill -9) while writing its CSV, the next run writes the file from the store', async () => {
	const { args, run, temporary } = await collectHeldWhileWriting('killed')
	run.child.kill('SIGKILL')
	await run.child.exited
	temporary.close()
	expect(readFileSync(join(folder, 'killed', 'followers.csv'), 'utf8')).toBe('the previous export')
	await expectRerunWritesTheFile('killed', args)
}, 60_000)

test('Ctrl-C while writing its CSV exits 130 leaving the previous file; the next run writes it', async () => {
	const { args, run, temporary } = await collectHeldWhileWriting('interrupted')
	run.child.kill('SIGINT')
	// The write goes on until the binary sees the signal between two chunks; it then stops.
	await temporary.drain()
	temporary.close()
	const [code, text] = await Promise.all([run.child.exited, run.stderr])
	expect(text).toMatch(/paused: 5,400 records, 27 pages/)
	expect(text).toContain('Interrupted: the records are stored; run the same command again to write the file.')
	expect(code).toBe(130)
	expect(readdirSync(join(folder, 'interrupted'))).toEqual(['followers.csv'])
	expect(readFileSync(join(folder, 'interrupted', 'followers.csv'), 'utf8')).toBe('the previous export')
	await expectRerunWritesTheFile('interrupted', args)
}, 60_000)

test('killed while writing its CSV to standard output, the next run writes every record again', async () => {
	const args = ['followers', 'mega.travel', '--format', 'csv', '--db', 'stdout.db']
	const fifo = join(folder, 'stdout.pipe')
	const reader = openFifo(fifo)
	const writer = openSync(fifo, constants.O_WRONLY)
	const run = collect(args, writer)
	closeSync(writer)
	const start = await reader.take(20)
	expect(start.toString('utf8')).toStartWith('\uFEFFpk,username,')
	expect(jobsOf('stdout.db')).toEqual([{ id: 1, status: 'running', cursor: null }])
	run.child.kill('SIGKILL')
	await run.child.exited
	reader.close()

	const pagesBefore = followerPages()
	const rerun = collect(args, 'pipe')
	const [code, text, output] = await Promise.all([
		rerun.child.exited,
		rerun.stderr,
		new Response(rerun.child.stdout as ReadableStream<Uint8Array>).text()
	])
	expect(text).toContain(
		'Continuing job 1: 5,400 records stored, nothing left to collect; writing them to standard output from the store'
	)
	expect(code).toBe(0)
	expect(followerPages()).toBe(pagesBefore)
	expect(pksOfCsv(output)).toEqual(followers)
	expect(jobsOf('stdout.db')).toEqual([{ id: 1, status: 'done', cursor: null }])
}, 60_000)
