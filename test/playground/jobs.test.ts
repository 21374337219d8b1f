/**
 * `/api/jobs` in the playground: a job started over HTTP collects exactly the list a walk of the
 * matching endpoint returns, its events arrive at least once per page, exports follow the export
 * rules, wrong input and wrong states answer envelopes, the routes are in the OpenAPI document, and
 * they follow the security rules of the other routes (token beyond loopback, JSON bodies, Host).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { toCsv, UTF8_BOM } from '../../src/server/csv'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness

// The app's own job manager: an in-memory store (the file store and restarts are tested with the binary).
beforeAll(async () => {
	playground = await startPlayground()
})
afterAll(async () => {
	await playground.stop()
})

/** Reads an event stream to its end; returns the parsed events. */
async function readEvents(response: Response): Promise<any[]> {
	const text = await response.text()
	return text
		.split('\n\n')
		.filter((block) => block.startsWith('data: '))
		.map((block) => JSON.parse(block.slice(6)))
}

/** Every follower pk of an account by walking /api/friendships/followers at count=1000. */
async function walkFollowers(pk: string): Promise<string[]> {
	const pks: string[] = []
	let cursor: string | null = null
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
		const { body } = await playground.json(`/api/friendships/followers/${pk}?count=1000${query}`)
		pks.push(...body.data.map((user: { pk: string }) => user.pk))
		cursor = body.next_cursor
	} while (cursor)
	return pks
}

describe('a followers job over HTTP', () => {
	it('collects exactly the walk of the followers endpoint, with an event for every page', async () => {
		const created = await playground.request('POST', '/api/jobs', {
			body: { kind: 'followers', target: '@Mega.Travel' }
		})
		expect(created.status).toBe(200)
		const { data: job, success } = await created.json()
		expect(success).toBe(true)
		expect(job).toMatchObject({ kind: 'followers', target: 'mega.travel', limit: null })
		expect(['queued', 'running']).toContain(job.status)
		const events = await readEvents(await playground.get(`/api/jobs/${job.id}/events`))
		const last = events.at(-1)
		expect(last.job.status).toBe('done')
		expect(last.job).toMatchObject({ collected: 5400, total: 5400 })
		const pages = events.filter((event) => event.type === 'page')
		// The stream may open after the first pages were stored; every later page has its event.
		expect(pages.length).toBeGreaterThan(0)
		const numbers = pages.map((event) => event.job.pages)
		expect(numbers).toEqual(numbers.map((_, index) => numbers[0] + index))
		expect(numbers.at(-1)).toBe(last.job.pages)

		const exported = await playground.get(`/api/jobs/${job.id}/export?format=jsonl`)
		expect(exported.headers.get('content-disposition')).toBe(
			`attachment; filename="job-${job.id}-followers-mega.travel.jsonl"`
		)
		const pks = (await exported.text())
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line).pk)
		expect(pks).toEqual(await walkFollowers(DEMO_PRESETS.mega.pk))

		const one = await playground.json(`/api/jobs/${job.id}`)
		expect(one.body.data).toMatchObject({ id: job.id, status: 'done', collected: 5400 })
		expect(one.body.data.owner).toBeUndefined()
		const list = await playground.json('/api/jobs')
		expect(list.body.data[0].id).toBe(job.id)
	})

	it('exports CSV with the export rules and JSON as an array', async () => {
		const { body } = await playground.json('/api/jobs')
		const id = body.data[0].id
		const csv = await playground.get(`/api/jobs/${id}/export?format=csv`)
		expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		const bytes = new Uint8Array(await csv.arrayBuffer())
		expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		const lines = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n')
		expect(lines[0]).toBe('pk,username,full_name,is_private,is_verified,profile_pic_url')
		expect(lines.length).toBe(5401)
		const json = await (await playground.get(`/api/jobs/${id}/export?format=json`)).json()
		expect(json.length).toBe(5400)
		// Streamed from the store, the same bytes as the whole list turned into CSV at once.
		expect(Buffer.from(bytes)).toEqual(Buffer.concat([UTF8_BOM, Buffer.from(toCsv(json))]))
		const bad = await playground.json(`/api/jobs/${id}/export?format=xml`)
		expect(bad.status).toBe(400)
		expect(bad.body.error).toContain('format')
	})

	it('a stream of a finished job sends its state once and ends', async () => {
		const { body } = await playground.json('/api/jobs')
		const events = await readEvents(await playground.get(`/api/jobs/${body.data[0].id}/events`))
		expect(events.map((event) => [event.type, event.job.status])).toEqual([['status', 'done']])
	})
})

describe('states and errors', () => {
	it('pause, resume and cancel follow the job; wrong states answer 400 saying why', async () => {
		playground.simulator.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: 'followers' })
		const { data: job } = await (
			await playground.request('POST', '/api/jobs', { body: { kind: 'followers', target: 'luna.explorer' } })
		).json()
		const paused = await playground.request('POST', `/api/jobs/${job.id}/pause`)
		expect((await paused.json()).data.status).toBe('paused')
		const again = await playground.request('POST', `/api/jobs/${job.id}/pause`)
		expect(again.status).toBe(400)
		expect((await again.json()).error).toContain('paused')
		playground.simulator.faults.clear()
		const resumed = await playground.request('POST', `/api/jobs/${job.id}/resume`)
		expect(['queued', 'running']).toContain((await resumed.json()).data.status)
		const events = await readEvents(await playground.get(`/api/jobs/${job.id}/events`))
		expect(events.at(-1).job).toMatchObject({ status: 'done', collected: 263 })
		const cancel = await playground.request('POST', `/api/jobs/${job.id}/cancel`)
		expect(cancel.status).toBe(400)
		const removed = await playground.request('DELETE', `/api/jobs/${job.id}`)
		expect((await removed.json()).data).toEqual({ deleted: job.id })
		expect((await playground.json(`/api/jobs/${job.id}`)).status).toBe(404)
	})

	it('the stream of a job deleted while it runs ends', async () => {
		playground.simulator.faults.set({ kind: 'latency', latencyMs: 100, pathPattern: 'followers' })
		try {
			const { data: job } = await (
				await playground.request('POST', '/api/jobs', { body: { kind: 'followers', target: 'mega.travel' } })
			).json()
			// Straight to the app: the harness reads every answer to its end before handing it over.
			const stream = await playground.app.handle(new Request(`http://127.0.0.1/api/jobs/${job.id}/events`))
			const text = stream.text()
			await playground.request('DELETE', `/api/jobs/${job.id}`)
			// It used to stay open, sending keep-alive comments, for ever.
			const ended = await Promise.race([
				text.then(() => 'ended'),
				new Promise((resolve) => setTimeout(resolve, 15_000, 'still open'))
			])
			expect(ended).toBe('ended')
			expect((await playground.json(`/api/jobs/${job.id}`)).status).toBe(404)
		} finally {
			playground.simulator.faults.clear()
		}
	})

	it('rejects a bad kind, target or limit with the field named, and an unknown job with 404', async () => {
		for (const [body, field] of [
			[{ kind: 'friends', target: 'x' }, 'kind'],
			[{ kind: 'followers', target: 'not a user!' }, 'target'],
			[{ kind: 'comments', target: 'luna.explorer' }, 'target'],
			[{ kind: 'followers', target: 'luna.explorer', limit: 0 }, 'limit'],
			[{ kind: 'followers', target: 'luna.explorer', limit: 2.5 }, 'limit']
		] as const) {
			const response = await playground.request('POST', '/api/jobs', { body })
			expect(response.status).toBe(400)
			const failure = await response.json()
			expect(failure).toMatchObject({ success: false, code: 'bad_request' })
			expect(failure.error).toContain(field)
			// Says what is expected, not the validator's wording ("Expected union value").
			if (field === 'limit') expect(failure.error).toContain('a whole number of at least 1')
		}
		for (const [method, suffix] of [
			['GET', ''],
			['GET', '/events'],
			['GET', '/export'],
			['POST', '/resume'],
			['DELETE', '']
		] as const) {
			const response = await playground.request(method, `/api/jobs/999999${suffix}`)
			expect(response.status).toBe(404)
			expect((await response.json()).code).toBe('not_found')
		}
		expect((await playground.json('/api/jobs/abc')).status).toBe(400)
	})

	it('a job on a missing account fails with the upstream message', async () => {
		const { data: job } = await (
			await playground.request('POST', '/api/jobs', {
				body: { kind: 'followers', target: DEMO_PRESETS.missing.username }
			})
		).json()
		const events = await readEvents(await playground.get(`/api/jobs/${job.id}/events`))
		expect(events.at(-1).job).toMatchObject({ status: 'failed', error_code: 'not_found' })
	})

	it('refuses a cross-origin POST and documents every route with schemas', async () => {
		const forbidden = await playground.request('POST', '/api/jobs', {
			body: { kind: 'followers', target: 'luna.explorer' },
			headers: { origin: 'https://evil.example' }
		})
		expect(forbidden.status).toBe(403)
		const { body } = await playground.json('/openapi/json')
		for (const route of ['/api/jobs', '/api/jobs/{id}', '/api/jobs/{id}/events', '/api/jobs/{id}/export']) {
			const operations = body.paths[route]
			expect(operations).toBeDefined()
			for (const operation of Object.values(operations) as any[])
				expect(Object.keys(operation.responses[200].content).length).toBeGreaterThan(0)
		}
		expect(Object.keys(body.paths['/api/jobs/{id}/resume'])).toEqual(['post'])
		expectNoLeaks(playground)
	})
})

describe('the security rules of the other routes', () => {
	let guarded: PlaygroundHarness
	beforeAll(async () => {
		guarded = await startPlayground({
			deps: { security: { host: '0.0.0.0', port: 8877, token: 'jobs-token' } }
		})
	})
	afterAll(async () => {
		await guarded.stop()
	})
	const at = (path: string, init: RequestInit = {}) =>
		guarded.app.handle(new Request(`http://192.168.1.20:8877${path}`, init))
	const json = { 'content-type': 'application/json' }
	const start = JSON.stringify({ kind: 'followers', target: 'luna.explorer' })

	it('beyond loopback every jobs route needs the token', async () => {
		for (const [method, path] of [
			['GET', '/api/jobs'],
			['POST', '/api/jobs'],
			['GET', '/api/jobs/1'],
			['GET', '/api/jobs/1/events'],
			['GET', '/api/jobs/1/export?format=jsonl'],
			['POST', '/api/jobs/1/pause'],
			['POST', '/api/jobs/1/cancel'],
			['DELETE', '/api/jobs/1']
		] as const) {
			const response = await at(path, { method, headers: json, body: method === 'POST' ? start : undefined })
			expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 })
			expect((await response.json()).code).toBe('forbidden')
		}
		const created = await at('/api/jobs', {
			method: 'POST',
			headers: { ...json, authorization: 'Bearer jobs-token' },
			body: start
		})
		expect(created.status).toBe(200)
		const { id } = (await created.json()).data
		const listed = await (await at('/api/jobs?token=jobs-token')).json()
		expect(listed.data.map((job: { id: number }) => job.id)).toEqual([id])
	})

	it('a text/plain POST or a foreign Host is refused and starts nothing', async () => {
		const before = (await (await at('/api/jobs?token=jobs-token')).json()).data.length
		const plain = await at('/api/jobs?token=jobs-token', {
			method: 'POST',
			headers: { 'content-type': 'text/plain' },
			body: start
		})
		expect(plain.status).toBe(403)
		const rebound = await guarded.app.handle(
			new Request('http://127.0.0.1/api/jobs?token=jobs-token', {
				method: 'POST',
				headers: { ...json, host: 'rebind.attacker.example' },
				body: start
			})
		)
		expect(rebound.status).toBe(403)
		expect((await (await at('/api/jobs?token=jobs-token')).json()).data.length).toBe(before)
		expect(JSON.stringify(guarded.logs)).not.toContain('jobs-token')
	})
})
