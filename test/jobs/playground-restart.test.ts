/**
 * A playground job survives its server: the compiled binary is killed with SIGKILL twice while a
 * followers job runs, started again with the same --db, and the job resumes by itself and ends
 * with exactly the followers a walk of /api/friendships/followers at count=1000 returns.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary, freePort, waitForOk } from '../support/binary'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-restart-'))
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** Starts the playground binary on the test's simulator and the same database each time. */
async function startServer() {
	const port = freePort()
	const child = Bun.spawn(
		[binary, 'playground', '--demo', '--port', String(port), '--db', 'jobs.db', '--env', 'none.env'],
		{
			cwd: folder,
			env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url },
			stdout: 'pipe',
			stderr: 'pipe'
		}
	)
	const url = `http://127.0.0.1:${port}`
	expect(await waitForOk(`${url}/api/status`)).toBe(true)
	return { child, url }
}

const jobOf = async (url: string, id: number) => (await (await fetch(`${url}/api/jobs/${id}`)).json()).data

/** Polls the job until `ready` holds; resolves to the job. */
async function waitFor(url: string, id: number, ready: (job: any) => boolean, timeoutMs = 60_000) {
	const until = Date.now() + timeoutMs
	for (;;) {
		const job = await jobOf(url, id)
		if (ready(job) || Date.now() > until) return job
		await Bun.sleep(20)
	}
}

test('killed with SIGKILL mid-job and restarted on the same --db, the job resumes and ends exact', async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	let server = await startServer()
	const created = await fetch(`${server.url}/api/jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'followers', target: DEMO_PRESETS.mega.username })
	})
	const { id } = (await created.json()).data
	let before = 0
	for (let kill = 0; kill < 2; kill++) {
		const job = await waitFor(server.url, id, (current) => current.pages >= before / 200 + 3)
		expect(job.status).toBe('running')
		server.child.kill('SIGKILL')
		await server.child.exited
		before = job.collected
		server = await startServer()
		// Resumed by itself: no request but reads.
		expect(['queued', 'running']).toContain((await jobOf(server.url, id)).status)
	}
	simulator.faults.clear()
	const done = await waitFor(server.url, id, (job) => job.status === 'done')
	expect(done).toMatchObject({ status: 'done', collected: 5400, total: 5400 })
	expect(done.collected).toBeGreaterThan(before)

	const expected: string[] = []
	let cursor: string | null = null
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
		const page = await (
			await fetch(`${server.url}/api/friendships/followers/${DEMO_PRESETS.mega.pk}?count=1000${query}`)
		).json()
		expected.push(...page.data.map((user: { pk: string }) => user.pk))
		cursor = page.next_cursor
	} while (cursor)
	const exported = await (await fetch(`${server.url}/api/jobs/${id}/export?format=jsonl`)).text()
	const pks = exported
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line).pk)
	expect(pks).toEqual(expected)
	expect(new Set(pks).size).toBe(5400)
	server.child.kill('SIGTERM')
	expect(await server.child.exited).toBe(0)
}, 120_000)

test("a second playground on the --db follows the other's job through the store, and takes it up once that one dies", async () => {
	simulator.faults.set({ kind: 'latency', latencyMs: 40, pathPattern: 'followers' })
	const [viewer, runner] = [await startServer(), await startServer()]
	const created = await fetch(`${runner.url}/api/jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'followers', target: DEMO_PRESETS.mega.username })
	})
	const { id } = (await created.json()).data
	// The viewer shows it running and streams its pages, read from the store.
	expect((await waitFor(viewer.url, id, (job) => job.pages >= 2)).status).toBe('running')
	const stream = new AbortController()
	const events = await fetch(`${viewer.url}/api/jobs/${id}/events`, { signal: stream.signal })
	const reader = (events.body as ReadableStream<Uint8Array>).getReader()
	let seen = ''
	while (!seen.includes('"type":"page"')) {
		const { value, done } = await reader.read()
		if (done) break
		seen += new TextDecoder().decode(value)
	}
	stream.abort()
	expect(seen).toContain('"type":"page"')
	// The runner dies: the viewer shows the job paused, and resuming it there finishes it exactly.
	runner.child.kill('SIGKILL')
	await runner.child.exited
	expect((await waitFor(viewer.url, id, (job) => job.status === 'paused')).status).toBe('paused')
	simulator.faults.clear()
	const resumed = await fetch(`${viewer.url}/api/jobs/${id}/resume`, { method: 'POST' })
	expect(resumed.status).toBe(200)
	const done = await waitFor(viewer.url, id, (job) => job.status === 'done')
	expect(done).toMatchObject({ status: 'done', collected: 5400 })
	const exported = await (await fetch(`${viewer.url}/api/jobs/${id}/export?format=jsonl`)).text()
	expect(
		new Set(
			exported
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line).pk)
		).size
	).toBe(5400)
	viewer.child.kill('SIGTERM')
	expect(await viewer.child.exited).toBe(0)
}, 120_000)
