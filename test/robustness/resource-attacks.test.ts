/**
 * Resource attacks on the compiled binary (`smkit playground --demo` in a temporary folder), at
 * bounded sizes: each must be refused or served in bounded memory while the server keeps
 * answering. A separate process polls `/api/status` throughout: every poll must be answered, none
 * slower than a generous liveness bound (a blocked server took seconds). The latency itself is a
 * performance figure (target: under 200 ms), printed here and measured by `npm run bench`, not
 * asserted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { compiledBinary, freePort, waitForOk } from '../support/binary'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'

/** Liveness, not performance: a server that blocks on an attack takes seconds. */
const STATUS_LIVENESS_MS = 1000

let folder: string
let base: string
let server: ReturnType<typeof Bun.spawn>
let llm: FakeLlm
beforeAll(async () => {
	folder = mkdtempSync(path.join(tmpdir(), 'smkit-attacks-'))
	llm = await startFakeLlm({ models: ['fake-model'] })
	const port = freePort()
	base = `http://127.0.0.1:${port}`
	server = Bun.spawn(
		[
			await compiledBinary(),
			...['playground', '--demo', '--port', String(port), '--saved-dir', 'saved'],
			...['--permission', 'full_access']
		],
		{
			cwd: folder,
			env: {
				PATH: process.env.PATH ?? '/usr/bin:/bin',
				HOME: folder,
				OPENAI_API_KEY: 'sk-test-attacks-0123456789',
				OPENAI_BASE_URL: llm.url
			},
			stdout: 'pipe',
			stderr: 'pipe'
		}
	)
	expect(await waitForOk(`${base}/api/status`)).toBe(true)
}, 120_000)
afterAll(async () => {
	server?.kill('SIGTERM')
	await server?.exited
	await llm?.stop()
	rmSync(folder, { recursive: true, force: true })
})

/** What the status poller saw. */
interface StatusReport {
	slowestMs: number
	polls: number
	failures: number
}

/** Polls `/api/status` from a child process until `until` settles; returns what it saw. */
async function pollStatus(until: Promise<unknown>): Promise<StatusReport> {
	const watcher = Bun.spawn([process.execPath, path.join(import.meta.dir, 'status-watch.ts'), base], {
		stdin: 'pipe',
		stdout: 'pipe'
	})
	await until.catch(() => {})
	watcher.stdin.end()
	const report = JSON.parse(await new Response(watcher.stdout).text()) as StatusReport
	await watcher.exited
	return report
}

/**
 * Polls `/api/status` for an idle second (the machine's own noise), then while `work` runs;
 * returns work's result and both reports.
 */
async function whileWatchingStatus<Result>(
	work: () => Promise<Result>
): Promise<{ result: Result; idle: StatusReport; status: StatusReport }> {
	const idle = await pollStatus(Bun.sleep(1000))
	const running = Bun.sleep(200).then(work)
	const status = await pollStatus(running)
	return { result: await running, idle, status }
}

/** The poller saw answers throughout, all 200, none slower than the liveness bound; prints the figures. */
function expectStatusResponsive(
	what: string,
	{ idle, status }: { idle: StatusReport; status: StatusReport }
) {
	console.log(
		`/api/status during ${what}: slowest ${Math.round(status.slowestMs)} ms over ${status.polls} polls (idle: ${Math.round(idle.slowestMs)} ms)`
	)
	expect(status.polls).toBeGreaterThan(1)
	expect(status.failures).toBe(0)
	expect(status.slowestMs).toBeLessThan(STATUS_LIVENESS_MS)
}

/** The request body of an export (built before the watch: this process also serves the requests). */
const csvBody = (records: unknown[]) => JSON.stringify({ data: records })

const postCsv = (body: string) =>
	fetch(`${base}/api/export/csv`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body
	})

describe('CSV export attacks', () => {
	test('records with many distinct keys are refused at the column cap, quickly', async () => {
		// 300 records x 100 keys of their own: 30,000 columns, 9 million mostly empty cells uncapped.
		const body = csvBody(
			Array.from({ length: 300 }, (_, row) =>
				Object.fromEntries(Array.from({ length: 100 }, (_, key) => [`r${row}_k${key}`, key]))
			)
		)
		const { result, ...watched } = await whileWatchingStatus(async () => {
			const response = await postCsv(body)
			return { status: response.status, body: await response.text() }
		})
		expect(result.status).toBe(400)
		expect(JSON.parse(result.body)).toMatchObject({ success: false, code: 'bad_request' })
		expect(result.body).toContain('1,000 columns')
		expectStatusResponsive('a refused wide CSV export', watched)
	}, 60_000)

	test('a large export within the caps streams while /api/status keeps answering', async () => {
		// 20,000 records x 20 fields (about 4 MB of JSON in): 400,000 cells, about 3 MB of CSV.
		const fields = 'abcdefghijklmnopqrst'.split('')
		const body = csvBody(
			Array.from({ length: 20_000 }, (_, row) =>
				Object.fromEntries(fields.map((field, index) => [field, index % 3 === 0 ? `v${row}` : row]))
			)
		)
		const { result, ...watched } = await whileWatchingStatus(async () => {
			const response = await postCsv(body)
			let lines = 0
			let bytes = 0
			const reader = (response.body as ReadableStream<Uint8Array>).getReader()
			for (let next = await reader.read(); !next.done; next = await reader.read()) {
				const chunk = next.value
				bytes += chunk.byteLength
				for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
			}
			return { status: response.status, lines, bytes }
		})
		expect(result.status).toBe(200)
		// Header plus 20,000 rows: 20,000 line breaks (none after the last row).
		expect(result.lines).toBe(20_000)
		expect(result.bytes).toBeGreaterThan(1_000_000)
		expectStatusResponsive('a 3 MB CSV export', watched)
	}, 60_000)
})

describe('saveFile attack', () => {
	test('a model writing files as fast as it can stops at the run quota while /api/status answers', async () => {
		// 1 MB files in a loop, then a burst of concurrent writes: 60 MB asked for, 10 MB allowed.
		const code = `const content = 'z'.repeat(1024 * 1024)
let written = 0
let refused = ''
for (let index = 0; index < 40; index++) {
	try { await saveFile('flood-' + index + '.txt', content); written++ } catch (error) { refused = String(error) }
}
await Promise.allSettled(Array.from({ length: 20 }, (_, index) => saveFile('burst-' + index + '.txt', content)))
console.log('written', written, refused)`
		llm.setScript((_request, index) => (index === 0 ? reply.code(code) : reply.text('done')))
		const { result, ...watched } = await whileWatchingStatus(async () => {
			const response = await fetch(`${base}/api/ai/ask`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'write files' })
			})
			return { status: response.status, body: await response.json() }
		})
		expect(result.status).toBe(200)
		const output = path.join(folder, 'output')
		const files = readdirSync(output)
		const bytes = files.reduce((sum, name) => sum + statSync(path.join(output, name)).size, 0)
		expect(files.length).toBeLessThanOrEqual(20)
		expect(bytes).toBeLessThanOrEqual(10 * 1024 * 1024)
		expect(files.length).toBeGreaterThan(0)
		expectStatusResponsive('a saveFile flood', watched)
	}, 60_000)
})
