import { afterAll, describe, expect, it } from 'bun:test'
import { startLoadWorker } from '../../bench/lib/load-process'

// A server that counts what it answered, so the worker's counts can be checked against it.
let answered = 0
const server = Bun.serve({
	port: 0,
	hostname: '127.0.0.1',
	fetch(request) {
		answered++
		return new URL(request.url).pathname === '/fail'
			? new Response('no', { status: 500 })
			: new Response('{"ok":true}')
	}
})
afterAll(() => server.stop(true))
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`

describe('load worker process', () => {
	it('runs job after job in one process, each answered with its own results', async () => {
		const worker = startLoadWorker()
		try {
			const job = (path: string) => ({
				targets: [{ id: 'target', url: url(path) }],
				concurrency: 4,
				slices: 2,
				sliceMs: 100,
				warmupMs: 0
			})
			const first = await worker.run(job('/ok'))
			const countedFirst = answered
			const second = await worker.run(job('/fail'))
			expect(first.target?.requests).toBeGreaterThan(0)
			expect(first.target?.failures).toBe(0)
			// Every answer of the second job failed, and none of it was counted in the first.
			expect(second.target?.requests).toBeGreaterThan(0)
			expect(second.target?.failures).toBeGreaterThanOrEqual(second.target?.requests as number)
			expect(countedFirst).toBeGreaterThanOrEqual(first.target?.requests as number)
			expect(answered - countedFirst).toBeGreaterThanOrEqual(second.target?.requests as number)
		} finally {
			await worker.close()
		}
	})

	it('reports a job it cannot run as an error with the worker output', async () => {
		const worker = startLoadWorker()
		await expect(
			worker.run({ targets: [{ id: 'nothing' }], concurrency: 1, slices: 1, sliceMs: 50, warmupMs: 0 })
		).rejects.toThrow(/needs url or client/)
		await worker.close()
	})
})
