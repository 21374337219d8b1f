/**
 * `smkit mcp` continues the jobs an earlier smkit mcp left unfinished as soon as it starts, as the
 * playground does, not when a job tool is first called: the playground's hint for such a job says
 * it continues when the MCP server starts again. A store that is not there is not made at start.
 */
import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'

const root = resolve(import.meta.dir, '../..')
const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-resume-'))
writeFileSync(join(workDir, 'empty.env'), '')
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

/** `smkit mcp --demo` from the sources over stdio; nothing is sent to it. */
const mcp = (db: string) =>
	Bun.spawn(
		[process.execPath, join(root, 'src/main.ts'), 'mcp', '--demo', '--env', 'empty.env', '--db', db],
		{
			cwd: workDir,
			stdin: 'pipe',
			stdout: 'pipe',
			stderr: 'pipe',
			env: { PATH: process.env.PATH ?? '', HOME: workDir }
		}
	)

test('a job a killed smkit mcp left running continues at start, before any tool call', async () => {
	const path = join(workDir, 'jobs.db')
	const store = openStore(path)
	const jobs = new JobStore(store, { demo: true })
	const left = jobs.create({ kind: 'followers', target: 'luna.explorer', limit: 120 }, 'mcp')
	// Running when its process died: no live runner.
	store.db.query(`UPDATE jobs SET status = 'running', runner_pid = NULL WHERE id = ?`).run(left.id)
	const child = mcp('jobs.db')
	try {
		let status = 'running'
		for (let tries = 0; tries < 300 && status !== 'done'; tries++) {
			await Bun.sleep(50)
			status = jobs.get(left.id)?.status ?? 'gone'
		}
		expect(status).toBe('done')
		expect(jobs.get(left.id)?.collected).toBe(120)
	} finally {
		child.kill()
		await child.exited
		store.close()
	}
}, 30_000)

test('without a store, none is made at start', async () => {
	const child = mcp('none.db')
	try {
		// Started once it says it serves (on standard error, the only place for it on stdio).
		let said = ''
		const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader()
		while (!said.includes('serving over stdio')) {
			const { done, value } = await reader.read()
			if (done) break
			said += value
		}
		expect(said).toContain('serving over stdio')
		expect(existsSync(join(workDir, 'none.db'))).toBe(false)
	} finally {
		child.kill()
		await child.exited
	}
}, 30_000)
