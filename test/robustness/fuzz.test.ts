import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type FuzzRequest, generateRequest, hostileBodies, type RouteEntry } from './fuzz-requests'
import {
	envelopeProblem,
	heapAfterGcMiB,
	type RobustPlayground,
	rssMiB,
	SeededRandom,
	startRobustPlayground
} from './support'

// The playground under a stream of generated requests (issue "Benchmarks and robustness", test 1):
// every /api/ response is a valid envelope whose status matches its code, none is a 500, the app
// keeps answering and its memory stays bounded. Driven through app.handle, 16 requests at a time.
const TOTAL = 5000
const PARALLEL = 16
const SEED = Number(process.env.SMKIT_FUZZ_SEED ?? 20260301)

let playground: RobustPlayground
beforeAll(async () => {
	playground = await startRobustPlayground({ client: { maxRetries: 0, timeout: 2000 } })
})
afterAll(() => playground.stop())

/** The AI ask endpoints answer the ask response shape, not an envelope (docs/api-contract.md, "Envelope"). */
const isAskEndpoint = (request: FuzzRequest, pathname: string) =>
	request.method === 'POST' && /^\/api\/ai\/ask(\/stream)?\/?$/.test(pathname)

/** Sends one request and returns what is wrong with the answer, if anything. */
async function check(request: FuzzRequest): Promise<{ status: number; problem?: string }> {
	const response = await playground.app.handle(
		new Request(request.url, { method: request.method, headers: request.headers, body: request.body })
	)
	const text = await response.text()
	const pathname = new URL(request.url).pathname
	const status = response.status
	if (status >= 500 && status !== 502 && status !== 503 && status !== 504) {
		return { status, problem: `status ${status}: ${text.slice(0, 200)}` }
	}
	if (!pathname.startsWith('/api/') || request.method === 'HEAD') return { status }
	if (status === 200 && response.headers.get('content-type')?.startsWith('text/csv')) return { status }
	if (isAskEndpoint(request, pathname)) {
		const body = JSON.parse(text) as { success?: unknown; error?: unknown }
		return typeof body.success === 'boolean'
			? { status }
			: { status, problem: `ask shape: ${text.slice(0, 200)}` }
	}
	return { status, problem: envelopeProblem(status, text) }
}

const describeRequest = (request: FuzzRequest) =>
	`${request.method} ${request.url.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 200)} body(${request.bodyKind})=${(request.body ?? '').slice(0, 120)}`

describe('playground fuzzer', () => {
	test(`${TOTAL} generated requests: envelopes only, no 500, bounded memory`, async () => {
		const routes = playground.app.routes as RouteEntry[]
		const random = new SeededRandom(SEED)
		const statuses = new Map<number, number>()
		const problems: string[] = []
		let heapBefore = 0
		let rssBefore = 0
		for (let sent = 0; sent < TOTAL; sent += PARALLEL) {
			// Measured after a warm-up, so lazily built state (JIT, pools, caches) is not counted.
			if (sent === 800) {
				heapBefore = heapAfterGcMiB()
				rssBefore = rssMiB()
			}
			const batch = Array.from({ length: Math.min(PARALLEL, TOTAL - sent) }, () =>
				generateRequest(random, routes, 'http://127.0.0.1')
			)
			const outcomes = await Promise.all(
				batch.map((request) =>
					check(request).catch((error: unknown) => ({ status: -1, problem: `threw ${String(error)}` }))
				)
			)
			outcomes.forEach((outcome, index) => {
				statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1)
				if (outcome.problem)
					problems.push(`${outcome.problem}\n    request: ${describeRequest(batch[index]!)}`)
			})
		}
		const heapGrowth = heapAfterGcMiB() - heapBefore
		const rssGrowth = rssMiB() - rssBefore
		console.log(
			`fuzz seed ${SEED}: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, heap +${heapGrowth.toFixed(1)} MiB, rss +${rssGrowth.toFixed(1)} MiB`
		)
		expect(problems.slice(0, 10)).toEqual([])
		expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBe(TOTAL)
		// Unexpected errors are logged as "failed:" (the 500 path); none may have happened.
		expect(playground.logs.filter((line) => line.includes(' failed: '))).toEqual([])
		// Generous bounds: history and statistics are capped, so nothing should grow with the count.
		expect(heapGrowth).toBeLessThan(64)
		expect(rssGrowth).toBeLessThan(256)
		// Still serving normally.
		const after = await playground.app.handle(
			new Request('http://127.0.0.1/api/users/username/luna.explorer')
		)
		expect(after.status).toBe(200)
	}, 120_000)

	test('every POST route answers hostile bodies (deep nesting, prototype keys, bad JSON) with an envelope', async () => {
		const routes = (playground.app.routes as RouteEntry[]).filter((route) => route.method === 'POST')
		expect(routes.length).toBeGreaterThan(3)
		const problems: string[] = []
		for (const route of routes) {
			for (const { kind, body } of hostileBodies()) {
				const request: FuzzRequest = {
					method: 'POST',
					url: `http://127.0.0.1${route.path}`,
					headers: { 'content-type': 'application/json' },
					body,
					bodyKind: kind
				}
				const outcome = await check(request)
				if (outcome.problem) problems.push(`POST ${route.path} with ${kind}: ${outcome.problem}`)
			}
		}
		expect(problems).toEqual([])
	}, 60_000)
})
