import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type FakeLlm, type FakeReply, reply, startFakeLlm } from '../support/fake-llm'
import { type FuzzRequest, generateRequest, hostileBodies, type RouteEntry } from './fuzz-requests'
import { envelopeProblem, type RobustPlayground, SeededRandom, startRobustPlayground } from './support'

// The fuzzer on the playground's AI side, wired to a scripted model that answers erratically
// (text, code, failing code, unknown tools, bad arguments, HTTP errors, malformed bodies): every
// answer is an envelope, or for a 200 ask the ask response, or for a 200 stream an event stream
// whose last event is `done`. No 500, and plain requests still work afterwards.
const TOTAL = 600
const PARALLEL = 4

let llm: FakeLlm
let playground: RobustPlayground
const modelRandom = new SeededRandom(7)

/** One erratic model answer. */
function erraticReply(): FakeReply {
	const roll = modelRandom.int(10)
	if (roll < 4) return reply.text('Done.')
	if (roll === 4)
		return reply.code("const user = await ig.users.getByUsername('luna.explorer')\nreturn user.username")
	if (roll === 5) return reply.code('throw new Error("boom")')
	if (roll === 6) return { toolCalls: [{ name: 'no_such_tool', arguments: {} }] }
	if (roll === 7) return { toolCalls: [{ name: 'run_code', arguments: '{"code": ' }] }
	if (roll === 8) return reply.error(500, 'model exploded')
	return { malformed: '{"choices": [' }
}

beforeAll(async () => {
	llm = await startFakeLlm({ script: () => erraticReply() })
	playground = await startRobustPlayground({ aiBaseURL: llm.url, client: { maxRetries: 0, timeout: 2000 } })
})
afterAll(async () => {
	await playground.stop()
	await llm.stop()
})

/** Sends one request; returns what is wrong with the answer, if anything. */
async function check(request: FuzzRequest, statuses: Map<number, number>): Promise<string | undefined> {
	const response = await playground.app.handle(
		new Request(request.url, { method: request.method, headers: request.headers, body: request.body })
	)
	const text = await response.text()
	statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
	const { pathname } = new URL(request.url)
	const status = response.status
	if (status === 500) return `status 500: ${text.slice(0, 200)}`
	if (request.method === 'HEAD') return undefined
	if (request.method === 'POST' && status === 200 && /^\/api\/ai\/ask\/?$/.test(pathname)) {
		const body = JSON.parse(text) as Record<string, unknown>
		return typeof body.success === 'boolean' &&
			typeof body.answer === 'string' &&
			typeof body.timestamp === 'number'
			? undefined
			: `ask response shape: ${text.slice(0, 200)}`
	}
	if (request.method === 'POST' && status === 200 && /^\/api\/ai\/ask\/stream\/?$/.test(pathname)) {
		const typeOk = response.headers.get('content-type')?.startsWith('text/event-stream')
		// Every event is one `data: <json>` line; the last one is `done`.
		const events = text
			.split('\n\n')
			.filter((block) => block.startsWith('data: '))
			.map((block) => JSON.parse(block.slice(6)) as { type?: string })
		return typeOk && events.at(-1)?.type === 'done' ? undefined : `event stream: ${text.slice(-200)}`
	}
	return envelopeProblem(status, text)
}

describe('playground AI fuzzer', () => {
	test(`${TOTAL} generated requests to /api/ai/* with an erratic model`, async () => {
		const routes = (playground.app.routes as RouteEntry[]).filter((route) =>
			route.path.startsWith('/api/ai/')
		)
		expect(routes.length).toBeGreaterThanOrEqual(5)
		const random = new SeededRandom(20260302)
		const requests: FuzzRequest[] = []
		for (let index = 0; index < TOTAL; index++) {
			const request = generateRequest(random, routes, 'http://127.0.0.1')
			// Most asks carry a real question, so the agent loop (not only validation) runs.
			if (request.method === 'POST' && request.url.includes('/ask') && random.chance(0.8)) {
				request.headers = { 'content-type': 'application/json' }
				request.body = JSON.stringify({
					message: random.pick([
						'Who is luna.explorer?',
						'How many posts?',
						'Compare two users',
						' ',
						'x'.repeat(8001)
					])
				})
				request.bodyKind = 'question'
			}
			requests.push(request)
		}
		for (const route of routes) {
			if (route.method !== 'POST') continue
			for (const { kind, body } of hostileBodies()) {
				requests.push({
					method: 'POST',
					url: `http://127.0.0.1${route.path}`,
					headers: { 'content-type': 'application/json' },
					body,
					bodyKind: kind
				})
			}
		}
		const problems: string[] = []
		const statuses = new Map<number, number>()
		let next = 0
		const worker = async () => {
			while (next < requests.length) {
				const request = requests[next++]!
				const problem = await check(request, statuses).catch((error: unknown) => `threw ${String(error)}`)
				if (problem)
					problems.push(`${problem}\n    request: ${request.method} ${request.url} body(${request.bodyKind})`)
			}
		}
		await Promise.all(Array.from({ length: PARALLEL }, worker))
		console.log(
			`AI fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, ${llm.chatRequests().length} model calls`
		)
		expect(problems.slice(0, 10)).toEqual([])
		expect(llm.chatRequests().length).toBeGreaterThan(10)
		const after = await playground.app.handle(new Request('http://127.0.0.1/api/ai/history'))
		expect(after.status).toBe(200)
	}, 60_000)
})
