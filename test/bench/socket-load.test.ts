import { afterAll, describe, expect, it } from 'bun:test'
import { summariseSlices } from '../../bench/lib/load'
import { socketDriver } from '../../bench/lib/socket-load'

// A server that counts what it answered, so the load's own counts can be checked against it.
let answered = 0
const body = 'x'.repeat(20_000)
const server = Bun.serve({
	port: 0,
	hostname: '127.0.0.1',
	fetch(request) {
		answered++
		const { pathname } = new URL(request.url)
		if (pathname === '/fail') return new Response('no', { status: 500 })
		if (pathname === '/chunked')
			return new Response(
				new ReadableStream({
					start(controller) {
						controller.enqueue(new TextEncoder().encode(body.slice(0, 9000)))
						controller.enqueue(new TextEncoder().encode(body.slice(9000)))
						controller.close()
					}
				})
			)
		return new Response(body)
	}
})
afterAll(() => server.stop(true))
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`

describe('socketDriver', () => {
	for (const path of ['/ok', '/chunked']) {
		it(`reads every answer of ${path} whole, over kept-alive connections, across slices`, async () => {
			answered = 0
			const driver = socketDriver(url(path), 4)
			const slices = [await driver.slice(150), await driver.slice(150)]
			driver.close()
			const latencies = slices.flatMap((slice) => slice.latencies)
			expect(latencies.length).toBe(answered)
			expect(latencies.length).toBeGreaterThan(8)
			expect(slices.every((slice) => slice.failures === 0)).toBe(true)
			// Completed within the deadline: all but at most one in flight per connection and slice.
			const completed = slices.reduce((sum, slice) => sum + slice.completed, 0)
			expect(completed).toBeGreaterThanOrEqual(latencies.length - 8)
			const result = summariseSlices(slices, 150, 0)
			expect(result.rps).toBeCloseTo((completed / 300) * 1000, 5)
		})
	}

	it('counts an error status as a failure', async () => {
		const driver = socketDriver(url('/fail'), 2)
		const slice = await driver.slice(100)
		driver.close()
		expect(slice.latencies.length).toBeGreaterThan(0)
		expect(slice.failures).toBe(slice.latencies.length)
		expect(slice.firstFailure).toBe('HTTP 500')
	})

	it('counts a refused connection as a failure and still ends the slice', async () => {
		const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
		const port = closed.port
		closed.stop(true)
		const driver = socketDriver(`http://127.0.0.1:${port}/`, 2)
		const slice = await driver.slice(50)
		driver.close()
		expect(slice.failures).toBeGreaterThan(0)
		expect(slice.completed + slice.failures).toBeGreaterThan(0)
	})
})
