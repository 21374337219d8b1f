/**
 * SIGTERM (kill, a service manager) and SIGHUP (the terminal closed, an SSH session dropped) stop
 * `smkit collect` and `smkit watch run` (run from source) the way Ctrl-C does: the job paused, the
 * summary and the advice to continue printed. Each exits with 128 + the signal's number, as shells
 * report a process a signal ended: 130 SIGINT (test/jobs/collect-cli.test.ts), 143 SIGTERM, 129 SIGHUP.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { JobStore } from '../../src/jobs/store'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { runProcess } from '../support/process'

const root = resolve(import.meta.dir, '../..')
const bun = realpathSync(join(root, 'node_modules/.bin/bun'))
const main = join(root, 'src/main.ts')

let simulator: Simulator
let folder: string

beforeAll(async () => {
	simulator = await startSimulator()
	folder = mkdtempSync(join(tmpdir(), 'smkit-stop-signals-'))
	// Slow pages: the signal lands while the list is collected.
	simulator.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

const environment = () => ({ ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' })

/** `smkit ARGS` from source, in the background; `until(text)` resolves once its stderr shows `text`. */
function start(args: string[]) {
	const child = Bun.spawn([bun, main, ...args], {
		cwd: folder,
		env: environment(),
		stdout: 'pipe',
		stderr: 'pipe'
	})
	let seen = ''
	const waiters: { text: string; resolve: () => void }[] = []
	const stderr = (async () => {
		const decoder = new TextDecoder()
		const reader = child.stderr.getReader()
		for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
			seen += decoder.decode(chunk.value, { stream: true })
			for (const waiter of waiters.filter((entry) => seen.includes(entry.text))) waiter.resolve()
		}
		for (const waiter of waiters) waiter.resolve()
		return seen
	})()
	const stdout = new Response(child.stdout).text()
	return {
		child,
		stderr,
		stdout,
		until: (text: string) => new Promise<void>((resolve) => waiters.push({ text, resolve }))
	}
}

const jobOf = (db: string) => {
	const store = openStore(join(folder, db))
	try {
		return new JobStore(store).list()[0]
	} finally {
		store.close()
	}
}

for (const [signal, code] of [
	['SIGTERM', 143],
	['SIGHUP', 129]
] as const)
	test(`collect stopped by ${signal}: the job paused, the summary printed, exit ${code}; it continues`, async () => {
		const db = `${signal}.db`
		const args = ['collect', 'followers', 'mega.travel', '--demo', '--env', 'none.env', '--db', db]
		const run = start([...args, '--out', `${signal}.jsonl`])
		await run.until('page 2:')
		run.child.kill(signal)
		expect(await run.child.exited).toBe(code)
		const said = await run.stderr
		expect(said).toMatch(/\npaused: [\d,]+ records, \d+ pages, [\d.]+ s \(job 1\) -> SIG\w+\.jsonl\n/)
		expect(said).toContain('Interrupted: run the same command again to continue where it stopped.')
		expect(jobOf(db)).toMatchObject({
			status: 'paused',
			error: 'Interrupted: run the same command again to continue'
		})

		const rerun = await runProcess([bun, main, ...args, '--out', `${signal}.jsonl`], {
			cwd: folder,
			env: environment()
		})
		expect(rerun.stderr).toMatch(/Continuing job 1: [1-9][\d,]* records/)
		expect(rerun.code).toBe(0)
	}, 60_000)

test('watch run stopped by SIGHUP exits 129 with the advice; with --json, SIGTERM exits 143 and says so in its JSON', async () => {
	const store = ['--demo', '--db', 'w.db', '--env', 'none.env']
	const added = await runProcess([bun, main, 'watch', 'add', 'mega.travel', '--followers', ...store], {
		cwd: folder,
		env: environment()
	})
	expect(added.code).toBe(0)

	for (const [signal, code, json] of [
		['SIGHUP', 129, []],
		['SIGTERM', 143, ['--json']]
	] as const) {
		const before = simulator.requests.count(/followers/)
		const run = start(['watch', 'run', '1', ...json, ...store])
		while (simulator.requests.count(/followers/) < before + 2) await Bun.sleep(10)
		run.child.kill(signal)
		expect(await run.child.exited).toBe(code)
		expect(await run.stderr).toContain('Interrupted: run smkit watch run 1 --demo --db w.db --env none.env')
		if (json.length > 0)
			expect(JSON.parse(await run.stdout)).toMatchObject({ success: false, exit_code: 143 })
	}
}, 60_000)
