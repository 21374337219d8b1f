/**
 * The store's file deleted (with its folder) or replaced while a job runs: SQLite goes on writing to
 * the file it has open, which nobody can open again. The job fails saying its records are lost and
 * to run again, naming the file without the server's absolute path; `smkit collect` (run from
 * source) exits 1 instead of reporting `done`; a playground's later jobs fail the same way.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { JobManager } from '../../src/jobs/manager'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { openStore, type Store } from '../../src/store/db'
import { storeFileChanged } from '../../src/store/file-identity'
import { useSimulator } from '../client/simulator-setup'

const root = resolve(import.meta.dir, '../..')
const bun = realpathSync(join(root, 'node_modules/.bin/bun'))
const main = join(root, 'src/main.ts')

const simulator = useSimulator()
let folder: string
let store: Store

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-store-lost-'))
	mkdirSync(join(folder, 'dd'))
	store = openStore(join(folder, 'dd', 'd.db'))
})
afterEach(() => {
	simulator.sim.faults.clear()
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** mega.travel's followers (27 pages), a page every 30 ms; `atPage2` runs once two pages are stored. */
function collectFollowers(jobs: JobStore, atPage2: () => void) {
	const job = jobs.create({ kind: 'followers', target: 'mega.travel' }, 'cli')
	return runJob(jobs, job.id, {
		ig: simulator.client(),
		beforePage: () => Bun.sleep(30),
		onEvent: (event: JobEvent) => {
			if (event.type === 'page' && event.job.pages === 2) atPage2()
		}
	})
}

const LOST = 'was deleted or replaced while the job ran: its records are lost; run again'

test('the folder removed while the job runs: the job fails saying its records are lost', async () => {
	const jobs = new JobStore(store)
	expect(storeFileChanged(store)).toBe(false)
	const ended = await collectFollowers(jobs, () => rmSync(join(folder, 'dd'), { recursive: true }))
	expect(storeFileChanged(store)).toBe(true)
	expect(ended.status).toBe('failed')
	expect(ended.error).toBe(`the store file .../dd/d.db ${LOST}`)
	expect(ended.error).not.toContain(folder)
	// It stopped at the first page after the removal, not at the end of the list.
	expect(ended.pages).toBeLessThan(5)
}, 30_000)

test('another file moved to its path while the job runs: the job fails the same way', async () => {
	const other = openStore(join(folder, 'other.db'))
	other.close()
	const ended = await collectFollowers(new JobStore(store), () =>
		renameSync(join(folder, 'other.db'), join(folder, 'dd', 'd.db'))
	)
	expect(ended).toMatchObject({ status: 'failed', error: `the store file .../dd/d.db ${LOST}` })
}, 30_000)

test("a playground's jobs after its store was deleted fail, saying to restart it", async () => {
	const manager = new JobManager({ jobs: new JobStore(store), ig: simulator.client() })
	try {
		rmSync(join(folder, 'dd'), { recursive: true })
		const job = manager.start({ kind: 'followers', target: 'luna.explorer' })
		const ended = await manager.settled(job.id)
		expect(ended?.status).toBe('failed')
		expect(ended?.error).toBe(
			`the store file .../dd/d.db ${LOST} (restart the playground first: it keeps writing to the file it opened)`
		)
	} finally {
		await manager.stop()
	}
}, 30_000)

test('smkit collect whose --db folder is removed two pages in exits 1 saying the records are lost', async () => {
	simulator.sim.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	mkdirSync(join(folder, 'cli'))
	const child = Bun.spawn(
		[bun, main, 'collect', 'followers', 'mega.travel', '--demo', '--env', 'none.env', '--db', 'cli/d.db'],
		{
			cwd: folder,
			env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.sim.url, NO_COLOR: '1' },
			stdout: 'ignore',
			stderr: 'pipe'
		}
	)
	let seen = ''
	const decoder = new TextDecoder()
	const reader = child.stderr.getReader()
	for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
		seen += decoder.decode(chunk.value, { stream: true })
		if (/page 2\b/.test(seen) && !seen.includes('removed')) {
			rmSync(join(folder, 'cli'), { recursive: true })
			seen += '\n(removed)\n'
		}
	}
	expect(await child.exited).toBe(1)
	expect(seen).toContain('(removed)')
	expect(seen).toMatch(new RegExp(`failed \\(job 1\\): the store file cli/d\\.db ${LOST}\\n`))
	expect(seen).not.toContain('done:')
}, 60_000)
