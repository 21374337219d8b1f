/**
 * Text limits count characters (Unicode code points), as OpenAPI 3.1 / JSON Schema's `maxLength`
 * does and as the messages say: an emoji (😀) or 𝐀, two UTF-16 units, counts once. At each limit
 * exactly LIMIT such characters are taken and LIMIT + 1 are a 400 with the field's message; the
 * question of an ask counts once trimmed (as its description says); the document publishes the
 * character limits, and Ajv (which counts code points) agrees with the server at each of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020'
import type { createAgentWeb } from '../../src/agentweb/app'
import { type ChatHarness, jsonRequest, startChatHarness } from '../agentweb/support'
import { reply } from '../support/fake-llm'
import { expectFailure, expectList, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

/** `count` emoji (U+1F600), each two UTF-16 units. */
const emoji = (count: number) => '😀'.repeat(count)
/** `count` MATHEMATICAL BOLD CAPITAL A (U+1D400): a letter beyond U+FFFF, two UTF-16 units. */
const boldA = (count: number) => '𝐀'.repeat(count)

const get = (path: string, query: Record<string, string>) =>
	playground.get(`${path}?${new URLSearchParams(query)}`)
const post = (path: string, body: unknown) => playground.request('POST', path, { body })

/** A 400 whose message is exactly `message`. */
async function expectRefused(response: Response, message: string) {
	const body = await expectFailure(response, 400, 'bad_request')
	expect(body.error).toBe(message)
}

describe('query text', () => {
	it('search q: 200 characters are taken, 201 are a 400 (three routes)', async () => {
		for (const path of ['/api/search/users', '/api/users/search', '/api/search/top']) {
			for (const q of [emoji(150), emoji(200), boldA(200), `a${boldA(199)}`]) {
				const response = await get(path, { q })
				if (path === '/api/search/top') await expectOk(response)
				else await expectList(response)
			}
			await expectRefused(
				await get(path, { q: emoji(201) }),
				"Invalid query parameter 'q': expected 1-200 characters, not only spaces"
			)
		}
	})

	it('followers q: 100 characters are taken, 101 are a 400', async () => {
		const path = '/api/friendships/followers/1000000002'
		await expectList(await get(path, { q: emoji(60) }))
		await expectList(await get(path, { q: emoji(100) }))
		await expectRefused(
			await get(path, { q: emoji(101) }),
			"Invalid query parameter 'q': expected 1-100 characters, not only spaces"
		)
	})

	it('followers q: only spaces is a 400, as the search q is', async () => {
		const message = "Invalid query parameter 'q': expected 1-100 characters, not only spaces"
		await expectRefused(await playground.get('/api/friendships/followers/1000000002?q=%20%20%20'), message)
		await expectRefused(await get('/api/friendships/followers/1000000002', { q: ' \t ' }), message)
		await expectRefused(
			await get('/api/users/search', { q: '   ' }),
			"Invalid query parameter 'q': expected 1-200 characters, not only spaces"
		)
		// Spaces around text are fine.
		await expectList(await get('/api/friendships/followers/1000000002', { q: ' a ' }))
	})

	it('cursor: 2000 characters pass the schema, 2001 are a 400', async () => {
		const schemaMessage = "Invalid query parameter 'cursor': expected a next_cursor value"
		// Not a cursor Instagram gave: whatever the answer, it is not the schema's refusal.
		const taken = await (await get('/api/search/users', { q: 'luna', cursor: emoji(2000) })).json()
		expect(taken.error).not.toBe(schemaMessage)
		await expectRefused(await get('/api/search/users', { q: 'luna', cursor: emoji(2001) }), schemaMessage)
	})
})

describe('body text', () => {
	it('watch hashtag: 𝐀 × 70 and × 100 are watched (as the tag feed takes them); × 121 is a 400', async () => {
		// The feed and jobs took these already: the watch takes the same tags.
		await expectOk(await playground.get(`/api/feed/tag/${encodeURIComponent(boldA(70))}`))
		for (const hashtag of [boldA(70), boldA(100)]) {
			const body = await expectOk(await post('/api/watches', { hashtag }))
			expect(body.data.target).toBe(hashtag.toLowerCase())
		}
		await expectRefused(
			await post('/api/watches', { hashtag: boldA(121) }),
			"Invalid body field 'hashtag': expected a hashtag"
		)
	})

	it('save name: 200 characters are taken, 201 are a 400', async () => {
		await expectOk(await playground.get('/api/users/username/luna.explorer'))
		for (const name of [boldA(200), `a${emoji(199)}`, `𝐀${emoji(149)}`]) {
			const body = await expectOk(await post('/api/save', { name }))
			expect(body.data.file).toMatch(/\.json$/)
		}
		await expectRefused(
			await post('/api/save', { name: boldA(201) }),
			"Invalid body field 'name': expected 1-200 characters"
		)
	})

	it('export name: 200 characters are taken, 201 are a 400', async () => {
		for (const name of [emoji(150), emoji(200), `list${emoji(196)}`]) {
			const response = await post('/api/export/csv', { data: [{ a: 1 }], name })
			expect(response.status).toBe(200)
			expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		}
		await expectRefused(
			await post('/api/export/csv', { data: [{ a: 1 }], name: emoji(201) }),
			"Invalid body field 'name': expected text of at most 200 characters"
		)
	})

	it('an unpaired surrogate is no text: refused', async () => {
		await expectRefused(
			await playground.request('POST', '/api/export/csv', { body: '{"data":[{"a":1}],"name":"a\\ud800b"}' }),
			"Invalid body field 'name': expected text of at most 200 characters"
		)
	})
})

describe('AI bodies (playground without a provider: a valid body is the 503, an invalid one the 400)', () => {
	const unavailable = async (response: Response) => {
		const body = await expectFailure(response, 503, 'ai_unavailable')
		expect(body.error).toContain('AI chat is not available')
	}

	it('ask: 8000 characters once trimmed are taken, 8001 are a 400 counting characters', async () => {
		for (const message of [
			emoji(5000),
			emoji(8000),
			`${'x'.repeat(7990)}${' '.repeat(20)}`,
			`\n ${emoji(8000)}\t `
		])
			for (const path of ['/api/ai/ask', '/api/ai/ask/stream'])
				await unavailable(await post(path, { message }))
		for (const [message, length] of [
			[emoji(8001), 8001],
			[`  ${'x'.repeat(8001)}  `, 8001],
			[boldA(9000), 9000]
		] as const)
			await expectRefused(
				await post('/api/ai/ask', { message }),
				`Message is too long: ${length} characters (at most 8000)`
			)
		await expectRefused(await post('/api/ai/ask', { message: ' \n\t ' }), 'Message is empty')
		await expectRefused(
			await playground.request('POST', '/api/ai/ask', { body: '{"message":"hi \\udc00"}' }),
			'Message is not valid text: it holds an unpaired UTF-16 surrogate'
		)
	})

	it('approve: an id of 200 characters is taken, 201 are a 400', async () => {
		await unavailable(await post('/api/ai/approve', { id: emoji(200), allow: true }))
		await expectRefused(
			await post('/api/ai/approve', { id: emoji(201), allow: true }),
			"Body field 'id' must be the permission request's id"
		)
	})
})

describe('the OpenAPI document publishes the character limits, and the server keeps them', () => {
	type Json = Record<string, any>
	let document: Json
	beforeAll(async () => {
		document = await (await playground.get('/openapi/json')).json()
	})
	const resolved = (schema: Json): Json =>
		schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema
	const parameter = (path: string, name: string) =>
		(document.paths[path].get.parameters as Json[]).find((entry) => entry.name === name)?.schema as Json
	const bodyField = (path: string, name: string) =>
		resolved(document.paths[path].post.requestBody.content['application/json'].schema).properties[
			name
		] as Json
	// Ajv counts code points, as JSON Schema says: the document's verdict.
	const ajv = new Ajv2020({ strict: false })
	const admits = (schema: Json, value: string) => ajv.validate(schema, value)

	it('publishes minLength/maxLength in characters, with no kind or other trace of the validator', () => {
		const limits: [Json, number | undefined, number][] = [
			[parameter('/api/search/users', 'q'), 1, 200],
			[parameter('/api/users/search', 'q'), 1, 200],
			[parameter('/api/friendships/followers/{user_pk}', 'q'), 1, 100],
			[parameter('/api/search/users', 'cursor'), 1, 2000],
			[bodyField('/api/watches', 'hashtag'), undefined, 120],
			[bodyField('/api/save', 'name'), 1, 200],
			[bodyField('/api/export/csv', 'name'), undefined, 200],
			[bodyField('/api/ai/ask', 'message'), 1, 8000],
			[bodyField('/api/ai/approve', 'id'), 1, 200]
		]
		for (const [schema, minLength, maxLength] of limits) {
			expect(schema.type).toBe('string')
			expect(schema.minLength).toBe(minLength)
			expect(schema.maxLength).toBe(maxLength)
			expect(Object.keys(schema).every((key) => !/kind/i.test(key))).toBe(true)
		}
		expect(bodyField('/api/ai/ask', 'message').description).toContain('8000 characters once trimmed')
	})

	it('the document and the server agree at each limit (𝐀 and 😀 count once)', async () => {
		const q = parameter('/api/search/users', 'q')
		for (const [value, taken] of [
			[emoji(200), true],
			[emoji(201), false]
		] as const) {
			expect(admits(q, value)).toBe(taken)
			expect((await get('/api/search/users', { q: value })).status).toBe(taken ? 200 : 400)
		}
		const name = bodyField('/api/export/csv', 'name')
		for (const [value, taken] of [
			[boldA(200), true],
			[boldA(201), false]
		] as const) {
			expect(admits(name, value)).toBe(taken)
			expect((await post('/api/export/csv', { data: [{ a: 1 }], name: value })).status).toBe(
				taken ? 200 : 400
			)
		}
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})

describe('the agent web server counts the trimmed question in characters too', () => {
	let harness: ChatHarness
	let app: ReturnType<typeof createAgentWeb>
	beforeAll(async () => {
		harness = await startChatHarness()
		app = harness.agentWeb({ permission: 'full_access' })
	})
	afterAll(() => harness.stop())

	it('takes 8000 characters once trimmed, refuses 8001', async () => {
		for (const message of [emoji(5000), emoji(8000), `${'x'.repeat(7990)}${' '.repeat(20)}`]) {
			harness.llm.setScript([reply.text('ok')])
			const response = await app.handle(jsonRequest('POST', '/api/ask', { message }))
			expect(response.status).toBe(200)
			expect((await response.json()).success).toBe(true)
		}
		for (const [message, length] of [
			[emoji(8001), 8001],
			[`${' '.repeat(20)}${'x'.repeat(8001)}`, 8001]
		] as const) {
			const response = await app.handle(jsonRequest('POST', '/api/ask', { message }))
			expect(response.status).toBe(400)
			expect((await response.json()).error).toBe(`Message is too long: ${length} characters (at most 8000)`)
		}
	})

	it('parallel tasks count the same way', async () => {
		const refused = await app.handle(jsonRequest('POST', '/api/parallel', { tasks: ['hi', emoji(8001)] }))
		expect(refused.status).toBe(400)
		expect((await refused.json()).error).toBe('Task 2 is too long (at most 8000 characters)')
		harness.llm.setScript([reply.text('ok')])
		const taken = await app.handle(jsonRequest('POST', '/api/parallel', { tasks: [` ${emoji(8000)} `] }))
		expect(taken.status).toBe(200)
	})
})
