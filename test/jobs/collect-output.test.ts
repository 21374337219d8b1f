/**
 * `smkit collect` when the CSV or JSON file cannot be written at the end (its folder removed, a full
 * disk): the collected list is not thrown away. The run exits 1 naming the file and saying the
 * records are stored; the same command then writes the file from the store, without collecting the
 * list again.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
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
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-output-'))
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Runs the binary's collect with `args` against the test's simulator; resolves to its exit code and stderr. */
function collect(args: string[]) {
	const child = Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout: 'ignore',
		stderr: 'pipe'
	})
	return { child, stderr: new Response(child.stderr).text() }
}

/** Pages of the follower list the simulator served so far. */
const followerPages = () => simulator.requests.count(/\/followers\/$/)

test('a CSV whose folder went away during the run is written by the next run, from the store', async () => {
	const followers = simulator.state.followersOf(DEMO_PRESETS.mega.pk)
	mkdirSync(join(folder, 'out'))
	// Slow pages, so the folder goes away while the list is still being collected.
	simulator.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const args = ['followers', 'mega.travel', '--format', 'csv', '--out', 'out/followers.csv', '--db', 'csv.db']
	const first = collect(args)
	while (followerPages() < 3) await Bun.sleep(5)
	rmSync(join(folder, 'out'), { recursive: true })
	const [code, text] = await Promise.all([first.child.exited, first.stderr])
	simulator.faults.clear()
	expect(code).toBe(1)
	expect(text).toMatch(/paused: 5,400 records, 27 pages/)
	// Said once: not 'Could not write F: cannot write F: ...'.
	expect(text).toContain('Could not write out/followers.csv: there is no folder out')
	expect(text).not.toContain('.tmp-')
	expect(text).toContain('the records are stored; run the same command again to write the file.')
	expect(text).not.toMatch(/\n\s+at /)

	mkdirSync(join(folder, 'out'))
	const pagesBefore = followerPages()
	const rerun = collect(args)
	const [rerunCode, rerunText] = await Promise.all([rerun.child.exited, rerun.stderr])
	expect(rerunCode).toBe(0)
	expect(rerunText).toMatch(/done: 5,400 records, 27 pages, [\d.]+ s \(job 1, \+0 this run\)/)
	expect(followerPages()).toBe(pagesBefore)
	const rows = readFileSync(join(folder, 'out', 'followers.csv'), 'utf8')
		.replace(/^\uFEFF/, '')
		.split('\r\n')
	expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual([...followers])
	const store = openStore(join(folder, 'csv.db'))
	const jobs = store.db.query<{ id: number; status: string }, []>('SELECT id, status FROM jobs').all()
	store.close()
	expect(jobs).toEqual([{ id: 1, status: 'done' }])
}, 60_000)
