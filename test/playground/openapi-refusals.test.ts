import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ClientOptions } from '../../src/client/client'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { createPlaygroundApp, type PlaygroundDeps } from '../../src/playground/app'
import { startSimulator } from '../../src/simulator/server'
import { DocumentValidator, operationsOf } from '../support/openapi'
import { type Handler, ResponseLedger } from './openapi-driver'

// Refusals that no request built from the document's examples meets: an unknown history id or list,
// demo time outside demo mode or with the simulator gone, Instagram failing a session check. Each
// must be answered with a status the route's OpenAPI operation lists, in the documented envelope.

const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
const savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-refusals-'))
afterAll(async () => {
	await simulator.stop()
	await rm(savedDir, { recursive: true, force: true })
})

const playground = (client: ClientOptions, deps: Partial<PlaygroundDeps> = {}) =>
	createPlaygroundApp({
		ig: createDemoClient(simulator.url, client),
		savedDir,
		demo: true,
		log: () => {},
		...deps
	})
// Fast retries: a 429 or 5xx is answered at once.
const main = playground(
	{ retryBaseDelayMs: 1, maxRetryWait: 50 },
	{ demoClock: simulatorClock(simulator.url) }
)
const document = await (await main.handle(new Request('http://127.0.0.1/openapi/json'))).json()
const ledger = new ResponseLedger(new DocumentValidator(document, { closed: true }), operationsOf(document))

/** Sends `body` (if any) to `path` as the operation `method template`; resolves to the status. */
async function status(app: Handler, operation: string, path: string, body?: unknown): Promise<number> {
	const [method, template] = operation.split(' ')
	const label = `${method} ${path}`
	return (await ledger.send(app, ledger.operation(method, template), { label, path, body })).status
}

const withFault = async <T>(rule: Parameters<typeof simulator.faults.set>[0], run: () => Promise<T>) => {
	simulator.faults.set(rule)
	try {
		return await run()
	} finally {
		simulator.faults.clear()
	}
}

describe('documented refusals beyond validation', () => {
	test('saving an unknown history id is a 404 the document lists', async () => {
		expect(await status(main, 'POST /api/save', '/api/save', { name: 'x', history_id: 999_999 })).toBe(404)
		expect(ledger.problems).toEqual([])
	})

	test('every route of a list answers 404 for an unknown list, as documented', async () => {
		const routes: [string, string, unknown?][] = [
			['GET /api/lists/{name}', '/api/lists/no-such-list'],
			['DELETE /api/lists/{name}', '/api/lists/no-such-list'],
			['POST /api/lists/{name}/members', '/api/lists/no-such-list/members', { usernames: ['luna.explorer'] }],
			['DELETE /api/lists/{name}/members/{username}', '/api/lists/no-such-list/members/luna.explorer'],
			['POST /api/lists/{name}/watches', '/api/lists/no-such-list/watches', {}],
			['POST /api/lists/{name}/jobs', '/api/lists/no-such-list/jobs', { kind: 'followers' }],
			['GET /api/lists/{name}/compare', '/api/lists/no-such-list/compare']
		]
		for (const [operation, path, body] of routes)
			expect(`${operation}: ${await status(main, operation, path, body)}`).toBe(`${operation}: 404`)
		expect(ledger.problems).toEqual([])
	})

	test("comparing a list meets Instagram's failures, as documented", async () => {
		const created = await main.handle(
			new Request('http://127.0.0.1/api/lists', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'pair', usernames: ['luna.explorer', 'mega.travel'] })
			})
		)
		expect(created.status).toBe(200)
		const compare = () => status(main, 'GET /api/lists/{name}/compare', '/api/lists/pair/compare?posts=3')
		expect(await withFault({ kind: 'rate_limit', retryAfter: 30 }, compare)).toBe(429)
		expect(await withFault({ kind: 'server_error', status: 500 }, compare)).toBe(502)
		expect(await compare()).toBe(200)
		expect(ledger.problems).toEqual([])
	})

	test('demo time answers 404 outside demo mode and 502 when the simulator is gone, as documented', async () => {
		const noClock = playground({})
		// Port 1 on loopback: nothing listens, the connection is refused at once.
		const goneClock = playground({}, { demoClock: simulatorClock('http://127.0.0.1:1') })
		for (const [app, expected] of [
			[noClock, 404],
			[goneClock, 502]
		] as const) {
			expect(await status(app, 'GET /api/demo/clock', '/api/demo/clock')).toBe(expected)
			const advanced = await status(app, 'POST /api/demo/clock', '/api/demo/clock', { advance_hours: 1 })
			expect(advanced).toBe(expected)
		}
		expect(ledger.problems).toEqual([])
	})

	test('a session check Instagram cannot answer is its failure, as documented; the state is kept', async () => {
		const check = (app: Handler = main) => status(app, 'POST /api/session/check', '/api/session/check')
		expect(await withFault({ kind: 'rate_limit', retryAfter: 30 }, () => check())).toBe(429)
		expect(await withFault({ kind: 'server_error', status: 503 }, () => check())).toBe(502)
		expect(await withFault({ kind: 'malformed' }, () => check())).toBe(502)
		// A client that waits out the Retry-After is cut off by the check's deadline: a 504, not a 500.
		const patient = playground({ maxRetryWait: 60_000 }, { sessionCheckTimeoutMs: 200 })
		const cutOff = await withFault({ kind: 'rate_limit', retryAfter: 30 }, async () => {
			const response = await patient.handle(
				new Request('http://127.0.0.1/api/session/check', { method: 'POST' })
			)
			return { status: response.status, body: await response.json() }
		})
		expect(cutOff.status).toBe(504)
		expect(cutOff.body).toMatchObject({ success: false, code: 'upstream_timeout' })
		expect(cutOff.body.error).toContain('did not confirm the session within 0.2 s')
		expect(await check(patient)).toBe(200)
		const state = await (await main.handle(new Request('http://127.0.0.1/api/status'))).json()
		expect(state.data.session).toBe('valid')
		expect(ledger.problems).toEqual([])
	})

	test('a body over the limit, or not JSON, is refused as documented on routes that take no body', async () => {
		const over = `{"x":"${'a'.repeat(1024 * 1024)}"}`
		const send = async (operation: string, path: string, rawBody: string) => {
			const [method, template] = operation.split(' ')
			return (
				await ledger.send(main, ledger.operation(method, template), {
					label: operation,
					path,
					rawBody,
					// As a client sends it: the server reads the declared length before the body.
					headers: { 'content-length': String(Buffer.byteLength(rawBody)) }
				})
			).status
		}
		expect(await send('GET /api/status', '/api/status', over)).toBe(413)
		expect(await send('POST /api/session/check', '/api/session/check', over)).toBe(413)
		expect(await send('POST /api/session/check', '/api/session/check', '{bad')).toBe(400)
		expect(await send('POST /api/ai/reset', '/api/ai/reset', '{bad')).toBe(400)
		expect(await send('DELETE /api/saved/{filename}', '/api/saved/none.json', over)).toBe(413)
		expect(await send('DELETE /api/saved/{filename}', '/api/saved/none.json', '{bad')).toBe(400)
		expect(ledger.problems).toEqual([])
	})

	test('a data answer given after Instagram ended the session carries the documented session header', async () => {
		const operation = ledger.operation('GET', '/api/users/username/{username}')
		const call = { label: 'profile', path: '/api/users/username/luna.explorer' }
		simulator.session.set('expired')
		try {
			const answered = await ledger.send(main, operation, call)
			expect([answered.status, answered.headers.get('x-smkit-session')]).toEqual([200, 'expired'])
		} finally {
			simulator.session.set('valid')
		}
		expect(await status(main, 'POST /api/session/check', '/api/session/check')).toBe(200)
		const header = operation.operation.responses['200'].headers['X-Smkit-Session']
		expect(header).toMatchObject({ required: false, schema: { enum: ['expired', 'challenge'] } })
		expect(ledger.problems).toEqual([])
	})
})
