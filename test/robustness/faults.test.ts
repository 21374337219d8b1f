import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { FaultRule } from '../../src/simulator/faults'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { envelopeProblem, type RobustPlayground, startRobustPlayground } from './support'

// Upstream faults in 30% of calls (issue "Benchmarks and robustness", test 2): every playground
// response is the right envelope with the right status, and the server keeps serving. The client
// does not retry here and each endpoint makes exactly one upstream call, so every fault the
// simulator reports having injected must show up as exactly one failure of the matching kind.
const REQUESTS = 600
const PARALLEL = 20

let playground: RobustPlayground
beforeAll(async () => {
	playground = await startRobustPlayground({ listen: true, client: { maxRetries: 0, timeout: 400 } })
})
afterAll(() => playground.stop())

/** Six fault kinds at 5% of all upstream calls each: rules are tried in order, so later ones scale up. */
const kinds: { rule: FaultRule; status: number; code: string }[] = [
	{ rule: { kind: 'rate_limit', retryAfter: 3 }, status: 429, code: 'rate_limited' },
	{ rule: { kind: 'server_error', status: 500 }, status: 502, code: 'upstream_error' },
	{ rule: { kind: 'server_error', status: 503, format: 'html' }, status: 502, code: 'upstream_error' },
	{ rule: { kind: 'malformed' }, status: 502, code: 'upstream_error' },
	{ rule: { kind: 'challenge' }, status: 403, code: 'challenge_required' },
	{ rule: { kind: 'hang' }, status: 504, code: 'upstream_timeout' }
]
const rules = kinds.map(({ rule }, index) => ({ ...rule, probability: 0.05 / (1 - 0.05 * index) }))

/** Endpoints that make one upstream call each (checked against the simulator's request count). */
const singleCallPaths = [
	`/api/users/username/${DEMO_PRESETS.luna.username}`,
	`/api/media/info/${DEMO_PRESETS.media[0].pk}`,
	`/api/friendships/status/${DEMO_PRESETS.luna.pk}`
]
/** Plus endpoints whose client method falls back to a second strategy when the first fails. */
const allPaths = [...singleCallPaths, `/api/users/id/${DEMO_PRESETS.luna.pk}`, '/api/account/me']

/** What one request came back with. */
interface Outcome {
	status: number
	code: string
	retryAfter: string | null
	problem?: string
}

/** GETs `count` requests over `paths` in turn from `PARALLEL` workers; returns each outcome. */
async function load(origin: string, count: number, paths: readonly string[]): Promise<Outcome[]> {
	const outcomes: Outcome[] = []
	let next = 0
	const worker = async () => {
		while (next < count) {
			const path = paths[next++ % paths.length]!
			const response = await fetch(origin + path)
			const text = await response.text()
			const problem = envelopeProblem(response.status, text)
			outcomes.push({
				status: response.status,
				code: problem ? '' : ((JSON.parse(text) as { code?: string }).code ?? 'success'),
				retryAfter: response.headers.get('retry-after'),
				problem: problem && `${path}: ${problem}`
			})
		}
	}
	await Promise.all(Array.from({ length: PARALLEL }, worker))
	return outcomes
}

const tally = (items: readonly string[]) => {
	const counts: Record<string, number> = {}
	for (const item of items) counts[item] = (counts[item] ?? 0) + 1
	return counts
}

describe('upstream faults in 30% of calls', () => {
	test('every response is the envelope and status of the fault that hit it; serving goes on', async () => {
		// The client's one-time session warm-up call happens before the faults, not during them.
		await load(playground.url, singleCallPaths.length, singleCallPaths)
		playground.simulator.faults.set(rules)
		const upstreamBefore = playground.simulator.requests.total
		const outcomes = await load(playground.url, REQUESTS, singleCallPaths)
		const hits = playground.simulator.faults.list().map((fault) => fault.hits)
		playground.simulator.faults.clear()

		expect(outcomes.flatMap((outcome) => (outcome.problem ? [outcome.problem] : []))).toEqual([])
		// A hung upstream request is logged when the simulator notices the client left: give it a moment.
		const upstreamCalls = () => playground.simulator.requests.total - upstreamBefore
		for (let waited = 0; upstreamCalls() < REQUESTS && waited < 2000; waited += 10) await Bun.sleep(10)
		expect(upstreamCalls()).toBe(REQUESTS)
		const injected = hits.reduce((sum, count) => sum + count, 0)
		// Roughly 30% of the calls were hit (binomial: 180 expected, far outside 120..240 means broken rules).
		expect(injected).toBeGreaterThan(120)
		expect(injected).toBeLessThan(240)

		const expected: Record<string, number> = { '200 success': REQUESTS - injected }
		kinds.forEach(({ status, code }, index) => {
			const key = `${status} ${code}`
			expected[key] = (expected[key] ?? 0) + (hits[index] ?? 0)
		})
		for (const key of Object.keys(expected)) if (expected[key] === 0) delete expected[key]
		expect(tally(outcomes.map((outcome) => `${outcome.status} ${outcome.code}`))).toEqual(expected)
		const limited = outcomes.filter((outcome) => outcome.status === 429)
		expect(limited.every((outcome) => outcome.retryAfter === '3')).toBe(true)

		// The faults are gone: the same server answers everything again.
		const after = await load(playground.url, 100, allPaths)
		expect(tally(after.map((outcome) => `${outcome.status} ${outcome.code}`))).toEqual({ '200 success': 100 })
	}, 60_000)

	test('with retries on, faults still end as envelopes with matching statuses, most recovered', async () => {
		const retrying = await startRobustPlayground({
			listen: true,
			client: { maxRetries: 2, timeout: 400, retryBaseDelayMs: 1, maxRetryWait: 200 }
		})
		try {
			retrying.simulator.faults.set(rules)
			const outcomes = await load(retrying.url, 200, allPaths)
			expect(outcomes.flatMap((outcome) => (outcome.problem ? [outcome.problem] : []))).toEqual([])
			expect(outcomes.every((outcome) => [200, 403, 429, 502, 504].includes(outcome.status))).toBe(true)
			// Retries turn most transient faults into successes (a challenge is not retried).
			expect(outcomes.filter((outcome) => outcome.status === 200).length).toBeGreaterThan(150)
		} finally {
			await retrying.stop()
		}
	}, 60_000)
})
