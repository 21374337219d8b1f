import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { InstagramClient } from '../../src/client/client'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp, isDataPath } from '../../src/playground/app'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startChatHarness, testApiKey } from '../agentweb/support'
import { reply } from '../support/fake-llm'
import {
	type DocumentOperation,
	DocumentValidator,
	eventData,
	operationKey,
	operationsOf
} from '../support/openapi'
import { type Call, type Handler, invalidCalls, ResponseLedger, sensibleCall } from './openapi-driver'

// Every operation of the served OpenAPI document is called on the demo: a well-formed request built
// from the document's examples, requests breaking each documented constraint, a foreign Host, no
// Instagram credentials, no AI provider, and Instagram's rate limit. Every response must match the
// document (status listed, media type, headers, body schema with objects closed to undocumented
// fields). The list of operations comes from the document, so a new route is covered on arrival;
// one whose schemas lack examples fails here with what to add.

const harness = await startChatHarness()
const savedDirs = await Promise.all([1, 2, 3].map(() => mkdtemp(path.join(tmpdir(), 'smkit-openapi-'))))
const log = () => {}
const fastRetries = { retryBaseDelayMs: 1, maxRetryWait: 50 }

const playground = (ig: InstagramClient, savedDir: string, withAi: boolean) =>
	createPlaygroundApp({
		ig,
		savedDir,
		demo: true,
		demoClock: simulatorClock(harness.simulator.url),
		permission: 'ask_once',
		log,
		ai: withAi
			? createPlaygroundAi({
					client: ig,
					env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: harness.llm.url },
					permission: 'ask_once',
					filesDir: harness.filesDir,
					modelOptions: { maxRetries: 0, timeoutMs: 10_000 },
					log
				})
			: undefined
	})

const main = playground(createDemoClient(harness.simulator.url, fastRetries), savedDirs[0], true)
const loggedOut = playground(
	new InstagramClient({ baseURL: harness.simulator.url, rateLimits: false, ...fastRetries }),
	savedDirs[1],
	false
)
const document = await (await main.handle(new Request('http://127.0.0.1/openapi/json'))).json()
const operations = operationsOf(document)
const ledger = new ResponseLedger(new DocumentValidator(document, { closed: true }), operations)
harness.llm.setScript(() => reply.text('Done.'))

afterAll(async () => {
	harness.simulator.faults.clear()
	await harness.stop()
	await Promise.all(savedDirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/** Operations whose success needs more than a request built from examples. */
const scenarios: Record<string, (operation: DocumentOperation) => Promise<void>> = {
	// A decision needs a waiting permission request: a streamed ask whose code needs approval.
	'POST /api/ai/approve': async (operation) => {
		const stream = ledger.operation('POST', '/api/ai/ask/stream')
		harness.llm.setScript([reply.code('console.log(1 + 1)'), reply.text('It is 2.')])
		const streamed = main.handle(
			new Request('http://127.0.0.1/api/ai/ask/stream', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'What is 1 + 1?' })
			})
		)
		const response = await streamed
		const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
		let text = ''
		while (!text.includes('"type":"permission"')) {
			const { value, done } = await reader.read()
			if (done) throw new Error(`the stream ended before asking: ${text}`)
			text += value
		}
		const permission = eventData(text).find((event: any) => event.type === 'permission') as { id: string }
		const decided = await ledger.send(main, operation, {
			label: 'approve the waiting request',
			path: '/api/ai/approve',
			body: { id: permission.id, allow: true }
		})
		expect(decided.status).toBe(200)
		for (;;) {
			const { value, done } = await reader.read()
			if (done) break
			text += value
		}
		expect(text).toContain('It is 2.')
		const problems = ledger.validator.responseProblems(stream, {
			status: 200,
			headers: response.headers,
			text
		})
		expect(problems).toEqual([])
		harness.llm.setScript(() => reply.text('Done.'))
		const unknown = await ledger.send(main, operation, {
			label: 'unknown id',
			path: '/api/ai/approve',
			body: { id: 'no-such-request', allow: false }
		})
		expect(unknown.status).toBe(404)
	}
}

const post = (path: string, body?: unknown) =>
	main.handle(
		new Request(`http://127.0.0.1${path}`, {
			method: 'POST',
			...(body === undefined
				? {}
				: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
		})
	)

/**
 * An operation on a resource of its own (a job, a watch): `create` makes one and brings it to the
 * state the operation needs; then the documented refusals: each broken constraint (400) and an
 * unknown id (404). `cleanup` leaves nothing running.
 */
function resourceScenario(
	collection: '/api/jobs' | '/api/watches',
	create: () => Promise<number>,
	cleanup: (id: number) => Promise<unknown> = async () => {}
) {
	return async (operation: DocumentOperation) => {
		const id = await create()
		const sensible = sensibleCall(document, operation) as Call
		const path = sensible.path.replace(`${collection}/1`, `${collection}/${id}`)
		const success = await ledger.send(main, operation, { ...sensible, path, label: 'one of its own' })
		expect(`${operation.path} answered ${success.status}: ${success.text.slice(0, 300)}`).toBe(
			`${operation.path} answered 200: ${success.text.slice(0, 300)}`
		)
		for (const invalid of invalidCalls(document, operation, sensible)) {
			const refused = await ledger.send(main, operation, invalid)
			expect(`${invalid.label}: ${refused.status}`).toBe(`${invalid.label}: 400`)
		}
		const unknownPath = sensible.path.replace(`${collection}/1`, `${collection}/999999`)
		const unknown = await ledger.send(main, operation, {
			...sensible,
			path: unknownPath,
			label: 'unknown id'
		})
		expect(unknown.status).toBe(404)
		await cleanup(id)
	}
}

/** A job of mega.travel's followers (long enough to pause), after `then` (pause, cancel). */
const newJob = (then?: 'pause' | 'cancel') => async (): Promise<number> => {
	const created = await post('/api/jobs', { kind: 'followers', target: 'mega.travel' })
	const { id } = (await created.json()).data as { id: number }
	if (then) expect((await post(`/api/jobs/${id}/${then}`)).status).toBe(200)
	return id
}
const jobScenario = (then?: 'pause' | 'cancel') =>
	// A cancelled, deleted or finished job answers 400 or 404 to the cancel.
	resourceScenario('/api/jobs', newJob(then), (id) => post(`/api/jobs/${id}/cancel`))

/** A watch of its own target (each is watched once), run `runs` times. */
const newWatch =
	(target: { username: string; followers?: boolean } | { hashtag: string }, runs: number) =>
	async (): Promise<number> => {
		const created = await post('/api/watches', target)
		expect(created.status).toBe(200)
		const { id } = (await created.json()).data as { id: number }
		for (let run = 0; run < runs; run++) expect((await post(`/api/watches/${id}/run`)).status).toBe(200)
		return id
	}
const watchScenario = (...watch: Parameters<typeof newWatch>) =>
	resourceScenario('/api/watches', newWatch(...watch))

// Connecting an account is refused in demo mode: a playground with an environment file, whose
// client talks to the simulator, connects the demo session from its cookies and disconnects it.
const connectable = createPlaygroundApp({
	ig: new InstagramClient({ baseURL: harness.simulator.url, rateLimits: false, ...fastRetries }),
	savedDir: savedDirs[2],
	envPath: path.join(savedDirs[2], 'connect.env'),
	demo: false,
	permission: 'ask_once',
	log
})
const demoCookies = `sessionid=${DEMO_CREDENTIALS.sessionId}; csrftoken=${DEMO_CREDENTIALS.csrfToken}; ds_user_id=${DEMO_CREDENTIALS.dsUserId}`
const sessionScenario = (connectFirst: boolean) => async (operation: DocumentOperation) => {
	const call = { label: 'the demo session', path: '/api/session' }
	if (connectFirst) {
		const connected = await connectable.handle(
			new Request('http://127.0.0.1/api/session', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ cookies: demoCookies })
			})
		)
		expect(connected.status).toBe(200)
	}
	const body = operation.method === 'POST' ? { cookies: demoCookies } : undefined
	const success = await ledger.send(connectable, operation, { ...call, body })
	expect(`${operation.path} answered ${success.status}: ${success.text.slice(0, 300)}`).toBe(
		`${operation.path} answered 200: ${success.text.slice(0, 300)}`
	)
	if (operation.method === 'POST') {
		for (const invalid of invalidCalls(document, operation, { ...call, body })) {
			const refused = await ledger.send(connectable, operation, invalid)
			expect(`${invalid.label}: ${refused.status}`).toBe(`${invalid.label}: 400`)
		}
		const unusable = await ledger.send(connectable, operation, {
			label: 'cookies without a session',
			path: '/api/session',
			body: { cookies: 'csrftoken=abc' }
		})
		expect(unusable.status).toBe(400)
	}
	const demo = await ledger.send(main, operation, { ...call, label: 'demo mode refuses', body })
	expect(demo.status).toBe(400)
}

Object.assign(scenarios, {
	'POST /api/session': sessionScenario(false),
	'DELETE /api/session': sessionScenario(true),
	'GET /api/jobs/{id}': jobScenario(),
	// A cancelled job's event stream sends its status and ends.
	'GET /api/jobs/{id}/events': jobScenario('cancel'),
	'GET /api/jobs/{id}/export': jobScenario('cancel'),
	'POST /api/jobs/{id}/pause': jobScenario(),
	'POST /api/jobs/{id}/resume': jobScenario('pause'),
	'POST /api/jobs/{id}/cancel': jobScenario(),
	'DELETE /api/jobs/{id}': jobScenario(),
	// Exactly one of username and hashtag (neither is required on its own).
	'POST /api/watches': async (operation: DocumentOperation) => {
		const call = { label: 'watch an account', path: '/api/watches', body: { username: 'luna.explorer' } }
		const created = await ledger.send(main, operation, call)
		expect(`${created.status}: ${created.text.slice(0, 300)}`).toBe(`200: ${created.text.slice(0, 300)}`)
		for (const invalid of invalidCalls(document, operation, call)) {
			const refused = await ledger.send(main, operation, invalid)
			expect(`${invalid.label}: ${refused.status}`).toBe(`${invalid.label}: 400`)
		}
		for (const body of [
			{},
			{ username: 'luna.explorer', hashtag: 'sunset' },
			{ username: 'luna.explorer' }
		]) {
			const refused = await ledger.send(main, operation, { ...call, label: JSON.stringify(body), body })
			expect(`${JSON.stringify(body)}: ${refused.status}`).toBe(`${JSON.stringify(body)}: 400`)
		}
	},
	// The scenarios below watch targets of their own (POST /api/watches watches luna.explorer).
	'GET /api/watches/{id}': watchScenario({ hashtag: 'sunset' }, 0),
	'GET /api/watches/{id}/snapshots': watchScenario({ hashtag: 'travel' }, 1),
	'GET /api/watches/{id}/diff': watchScenario({ username: 'xss.payload', followers: true }, 2),
	'POST /api/watches/{id}/run': watchScenario({ hashtag: 'coffee' }, 0),
	'DELETE /api/watches/{id}': watchScenario({ username: 'smkit_demo' }, 0)
})

/**
 * GETs first, then writes, deletes last; a GET of something a write creates runs after the writes
 * (the saved file its example names is written by POST /api/save, the list by POST /api/lists).
 */
const afterWrites = new Set([
	'GET /api/saved/{filename}',
	// The examples' list is made by POST /api/lists; a member is removed before DELETE of the list.
	'GET /api/lists/{name}',
	'GET /api/lists/{name}/compare',
	'DELETE /api/lists/{name}/members/{username}'
])
const methodRank: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 3 }
const rank = ({ method, path }: DocumentOperation) =>
	afterWrites.has(operationKey(method, path)) ? 2 : (methodRank[method] ?? 1)
const ordered = operations.toSorted((a, b) => rank(a) - rank(b))

describe('every operation of the OpenAPI document answers as documented', () => {
	for (const operation of ordered) {
		const key = operationKey(operation.method, operation.path)
		test(key, async () => {
			const sensible = sensibleCall(document, operation)
			if (typeof sensible === 'string') {
				throw new Error(`${key}: ${sensible}; add examples to its schema, or a scenario in this test`)
			}
			const scenario = scenarios[key]
			if (scenario) await scenario(operation)
			else {
				const success = await ledger.send(main, operation, sensible)
				expect(`${key} answered ${success.status}: ${success.text.slice(0, 300)}`).toBe(
					`${key} answered 200: ${success.text.slice(0, 300)}`
				)
				for (const invalid of invalidCalls(document, operation, sensible)) {
					const refused = await ledger.send(main, operation, invalid)
					expect(`${invalid.label}: ${refused.status}`).toBe(`${invalid.label}: 400`)
				}
			}
			await checkEverywhereFailures(operation, sensible)
			expect(ledger.problems.filter((problem) => problem.startsWith(`${key} `))).toEqual([])
		})
	}

	test('every operation answered a documented success and a documented failure', () => {
		const missing = operations.flatMap(({ method, path }) => {
			const key = operationKey(method, path)
			const statuses = [...(ledger.seen.get(key) ?? [])]
			return [
				...(statuses.some((status) => status < 300) ? [] : [`${key}: no success response was checked`]),
				...(statuses.some((status) => status >= 400) ? [] : [`${key}: no failure response was checked`])
			]
		})
		expect(missing).toEqual([])
		expect(ledger.problems).toEqual([])
	})
})

/** Failures every operation can meet, checked on each: refused Host, no credentials or AI, 429. */
async function checkEverywhereFailures(operation: DocumentOperation, sensible: Call) {
	const foreign = await ledger.send(main, operation, {
		...sensible,
		label: 'foreign Host',
		headers: { host: 'rebind.attacker.example' }
	})
	expect(foreign.status).toBe(403)

	const isAi = operation.path.startsWith('/api/ai/')
	const upstream = isDataPath(operation.path)
	if (isAi || upstream) {
		const unconfigured = await ledger.send(loggedOut, operation, {
			...sensible,
			label: 'no credentials, no AI'
		})
		// Operations documented as working without credentials (public, analytics) may answer anything documented.
		const anonymous = String(operation.operation.description).includes('Works without Instagram credentials')
		// A list's comparison needs its list first, which only the main playground has.
		const needsList = operation.path.startsWith('/api/lists/')
		const expected = isAi ? 503 : anonymous ? unconfigured.status : needsList ? 404 : 401
		expect(`${operation.path}: ${unconfigured.status}`).toBe(`${operation.path}: ${expected}`)
	}
	if (upstream) {
		harness.simulator.faults.set({ kind: 'rate_limit', retryAfter: 30 })
		try {
			const limited = await ledger.send(main as Handler, operation, { ...sensible, label: 'rate limited' })
			expect(`${operation.path}: ${limited.status}`).toBe(`${operation.path}: 429`)
		} finally {
			harness.simulator.faults.clear()
		}
	}
}
