import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requireTag } from '../../src/client/api/base'
import { isDataPath } from '../../src/playground/app'
import { openApiPath } from '../../src/playground/openapi/document'
import { DocumentValidator, operationKey, operationsOf, resolveResponse, schemasOf } from '../support/openapi'
import { type PlaygroundHarness, startPlayground } from './support'

// The document is checked as validators and client generators read it; each failure names the
// operation and what it lacks, so a new route shows exactly what to add to its `documented(...)`.
let playground: PlaygroundHarness
let document: any
beforeAll(async () => {
	playground = await startPlayground()
	const response = await playground.get('/openapi/json')
	expect(response.status).toBe(200)
	document = await response.json()
})
afterAll(() => playground.stop())

/** Every value in the document with its JSON path. */
function* walk(value: unknown, at = ''): Generator<[string, string, unknown]> {
	if (typeof value !== 'object' || value === null) return
	for (const [key, nested] of Object.entries(value)) {
		yield [at, key, nested]
		yield* walk(nested, `${at}/${key}`)
	}
}

describe('OpenAPI document', () => {
	it('is OpenAPI 3.1 with servers, the access token schemes and shared failure responses', () => {
		expect(document.openapi).toBe('3.1.0')
		expect(document.servers[0].url).toBe('http://{host}:{port}')
		expect(document.components.securitySchemes).toMatchObject({
			bearerAuth: { type: 'http', scheme: 'bearer' },
			tokenQuery: { type: 'apiKey', in: 'query', name: 'token' }
		})
		expect(document.security).toEqual([{}, { bearerAuth: [] }, { tokenQuery: [] }])
		// A loopback server given a token asks for it too (SMKIT_TOKEN on a shared machine).
		expect(document.info.description).toContain('on loopback only a server given one')
		expect(document.components.securitySchemes.bearerAuth.description).toContain(
			'on loopback when it was given one'
		)
		for (const name of [
			'BadRequest',
			'LoginRequired',
			'Forbidden',
			'NotFound',
			'InternalError',
			'RateLimited'
		]) {
			expect(document.components.responses[name].content['application/json'].schema).toEqual({
				$ref: '#/components/schemas/Failure'
			})
		}
		expect(document.components.responses.RateLimited.headers['Retry-After']).toBeDefined()
	})

	it('names the request headers the API reads: X-Smkit-Poll everywhere, X-Smkit-Load-More on list pages', () => {
		const headersOf = (path: string) =>
			(document.paths[path].get.parameters ?? [])
				.filter((parameter: { in: string }) => parameter.in === 'header')
				.map((parameter: { name: string }) => parameter.name)
		expect(headersOf('/api/friendships/followers/{user_pk}')).toEqual(['X-Smkit-Poll', 'X-Smkit-Load-More'])
		expect(headersOf('/api/feed/user/{user_pk}')).toEqual(['X-Smkit-Poll', 'X-Smkit-Load-More'])
		expect(headersOf('/api/status')).toEqual(['X-Smkit-Poll'])
		expect(headersOf('/api/users/username/{username}')).toEqual(['X-Smkit-Poll'])
	})

	it('compiles every schema with Ajv (JSON Schema 2020-12, strict)', () => {
		const validator = new DocumentValidator(document)
		const located = schemasOf(document)
		expect(located.length).toBeGreaterThan(150)
		const failures: string[] = []
		for (const { where, schema } of located) {
			try {
				validator.compile(schema)
			} catch (error) {
				failures.push(`${where}: ${(error as Error).message}`)
			}
		}
		expect(failures).toEqual([])
		// The shared failure examples are real envelopes.
		for (const [name, response] of Object.entries<any>(document.components.responses)) {
			const media = response.content['application/json']
			expect([name, validator.problems(media.schema, media.example)]).toEqual([name, []])
		}
	})

	it('carries no keyword validators do not know and no coerced numbers', () => {
		const found: string[] = []
		for (const [at, key, value] of walk(document)) {
			if (key === 'error' && at.includes('schema') && !at.endsWith('/properties')) found.push(`${at}/error`)
			if (key === 'format' && ['integer', 'numeric', 'boolean'].includes(String(value)))
				found.push(`${at}/format`)
		}
		expect(found).toEqual([])
		const count = document.paths['/api/friendships/followers/{user_pk}'].get.parameters.find(
			(parameter: any) => parameter.name === 'count'
		)
		expect(count.schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 50 })
	})

	it('names the models in components and references them', () => {
		for (const name of ['User', 'UserShort', 'Media', 'Comment', 'Failure', 'ErrorCode']) {
			expect(document.components.schemas[name]).toBeDefined()
		}
		const profile = document.paths['/api/users/username/{username}'].get
		expect(profile.responses['200'].content['application/json'].schema).toEqual({
			$ref: '#/components/schemas/UserEnvelope'
		})
		expect(document.components.schemas.UserEnvelope.properties.data).toEqual({
			$ref: '#/components/schemas/User'
		})
		const followers = document.components.schemas.UserShortListEnvelope
		expect(followers.properties.data).toEqual({
			type: 'array',
			items: { $ref: '#/components/schemas/UserShort' }
		})
		expect(followers.required).toContain('next_cursor')
	})

	it('describes every operation: summary, description, operationId, tag, success and failure responses', () => {
		const problems: string[] = []
		const ids = new Set<string>()
		const tags = new Set(document.tags.map((tag: any) => tag.name))
		for (const { method, path, operation } of operationsOf(document)) {
			const key = operationKey(method, path)
			const lacks = (what: string, hint = 'document the route with documented(...) from routes/docs.ts') =>
				problems.push(`${key} lacks ${what} (${hint})`)
			const parameterHint = "give the parameter's schema a description and examples"
			if (!operation.summary) lacks('a summary')
			if (!operation.description) lacks('a description')
			if (!/^[a-z][A-Za-z0-9]*$/.test(operation.operationId ?? ''))
				lacks('an operationId of letters and digits')
			if (ids.has(operation.operationId)) problems.push(`${key} repeats operationId ${operation.operationId}`)
			ids.add(operation.operationId)
			if (!operation.tags?.length || !tags.has(operation.tags[0])) lacks('a tag listed in tags')
			const success = operation.responses['200']
			if (!success?.content) lacks('a documented 200 response')
			const failures = Object.keys(operation.responses).filter((status) => Number(status) >= 400)
			if (!failures.some((status) => Number(status) < 500)) lacks('a 4xx response')
			for (const status of failures) {
				if (!operation.responses[status].$ref)
					problems.push(`${key} ${status} is not a shared failure response`)
			}
			for (const parameter of operation.parameters ?? []) {
				if (!parameter.description)
					lacks(`a description of ${parameter.in} parameter '${parameter.name}'`, parameterHint)
				if (parameter.in === 'path' && !parameter.schema.examples?.length)
					lacks(
						`an example of path parameter '${parameter.name}' (the response test calls it)`,
						parameterHint
					)
			}
		}
		expect(problems).toEqual([])
	})

	it('documents every /api/ route the app serves', () => {
		const documentedKeys = new Set(
			operationsOf(document).map(({ method, path }) => operationKey(method, path))
		)
		const served = playground.app.routes
			.filter((route) => route.path.startsWith('/api/'))
			.map((route) => operationKey(route.method, openApiPath(route.path)))
		expect(served.filter((key) => !documentedKeys.has(key))).toEqual([])
		expect(documentedKeys.size).toBe(new Set(served).size)
	})

	it("declares the history id header of every data route's success, and it is the id POST /api/save takes", async () => {
		const lacking = operationsOf(document)
			.filter(({ path }) => isDataPath(path))
			.filter(
				({ operation }) => operation.responses['200'].headers?.['X-Smkit-History-Id']?.required !== true
			)
			.map(({ method, path }) => operationKey(method, path))
		expect(lacking).toEqual([])
		const profile = await playground.get('/api/users/username/luna.explorer')
		const historyId = Number(profile.headers.get('x-smkit-history-id'))
		expect(historyId).toBeGreaterThan(0)
		const saved = await playground.request('POST', '/api/save', {
			body: { name: 'by-header', history_id: historyId }
		})
		expect(saved.status).toBe(200)
		const content = await (await playground.get('/api/saved/by-header')).json()
		expect(content.data.request).toBe('GET /api/users/username/luna.explorer')
	})

	it('lists failures through shared responses whose codes match their status', () => {
		const profile = document.paths['/api/users/username/{username}'].get
		expect(Object.keys(profile.responses)).toEqual([
			'200',
			'400',
			'401',
			'403',
			'404',
			'413',
			'429',
			'500',
			'502',
			'504'
		])
		// Every route meets the guard, the body limit (checked before routing) and unexpected errors.
		const status = document.paths['/api/status'].get
		expect(Object.keys(status.responses)).toEqual(['200', '403', '413', '500'])
		const forbidden = resolveResponse(document, status.responses['403'])
		expect(forbidden.content['application/json'].example.code).toBe('forbidden')
	})

	it('bounds every whole number a request sends as the server does: at most 15 digits', () => {
		const integersOf = (schema: any): any[] =>
			schema?.type === 'integer'
				? [schema]
				: (schema?.anyOf ?? []).filter((branch: any) => branch.type === 'integer')
		const unbounded: string[] = []
		for (const { method, path, operation } of operationsOf(document)) {
			const key = operationKey(method, path)
			const inputs: [string, any][] = (operation.parameters ?? []).map((parameter: any) => [
				`parameter ${parameter.name}`,
				parameter.schema
			])
			let body = operation.requestBody?.content?.['application/json']?.schema
			if (body?.$ref) body = document.components.schemas[body.$ref.replace('#/components/schemas/', '')]
			for (const [name, field] of Object.entries<any>(body?.properties ?? {}))
				inputs.push([`body field ${name}`, field])
			for (const [where, schema] of inputs)
				for (const integer of integersOf(schema))
					if (!(integer.maximum <= 999_999_999_999_999)) unbounded.push(`${key} ${where}`)
		}
		expect(unbounded).toEqual([])
		const job = document.paths['/api/jobs/{id}'].get.parameters[0].schema
		expect(job).toMatchObject({ type: 'integer', minimum: 1, maximum: 999_999_999_999_999 })
	})

	it("documents a list name's pattern, and the server takes exactly the names it admits", async () => {
		const validator = new DocumentValidator(document)
		const name =
			document.paths['/api/lists'].post.requestBody.content['application/json'].schema.properties.name
		expect(typeof name.pattern).toBe('string')
		const names = [
			'café',
			'competitors',
			' spaced out ',
			'-dash',
			'a/b',
			'tab\tin',
			'x'.repeat(50),
			` ${'y'.repeat(50)}  `,
			'z'.repeat(51),
			` ${'w'.repeat(49)} v `,
			'ok.name_1-2'
		]
		// The names differ, so each one the document admits is created (none exists already).
		for (const [index, text] of names.entries()) {
			const admitted = validator.problems(name, text).length === 0
			const response = await playground.request('POST', '/api/lists', {
				body: { name: text, usernames: [] }
			})
			expect({ text, index, status: response.status }).toEqual({ text, index, status: admitted ? 200 : 400 })
		}
		expect(validator.problems(name, 'café')).not.toEqual([])
		// The 50-character limit is the document's too, not only the server's.
		expect(validator.problems(name, 'z'.repeat(51))).not.toEqual([])
	})

	it('documents the hashtag pattern the server applies: the same characters up to U+FFFF, U+202E refused', () => {
		for (const [path, parameter] of [
			['/api/feed/tag/{hashtag}', 'hashtag'],
			['/api/hashtags/info/{tag}', 'tag']
		]) {
			const documented = document.paths[path].get.parameters.find((item: any) => item.name === parameter)
			const schema = documented.schema
			// As JSON Schema tools read it (the `u` flag), and as the server's validator does (without).
			for (const pattern of [new RegExp(schema.pattern, 'u'), new RegExp(schema.pattern)]) {
				const differing: string[] = []
				for (let code = 0; code <= 0xffff; code++) {
					if (code >= 0xd800 && code <= 0xdfff) continue
					const character = String.fromCharCode(code)
					let taken = true
					try {
						requireTag(`x${character}x`)
					} catch {
						taken = false
					}
					if (pattern.test(`x${character}x`) !== taken) differing.push(code.toString(16))
				}
				expect({ path, differing }).toEqual({ path, differing: [] })
				expect(pattern.test('\u202E')).toBe(false)
				expect(pattern.test('𠮷野家')).toBe(true)
				expect(pattern.test('a'.repeat(100))).toBe(true)
				expect(pattern.test('a'.repeat(101))).toBe(false)
			}
			expect(documented.description).toContain('an emoji is a 400')
		}
	})

	it('renders the reference page from the embedded Scalar bundle: no external URL', async () => {
		const page = await (await playground.get('/openapi')).text()
		expect(page).toContain('/openapi/scalar.js')
		expect(page).not.toMatch(/https?:\/\//)
		// Scalar's hosted extras stay off: no web fonts, telemetry or "Ask AI" agent (proxy.scalar.com).
		expect(page).toContain('"withDefaultFonts":false')
		expect(page).toContain('"agent":{"disabled":true}')
		const script = await playground.get('/openapi/scalar.js')
		expect(script.status).toBe(200)
		expect(script.headers.get('content-type')).toContain('javascript')
		// The vendored bundle (vendor/README.md), byte for byte, of the version its folder records.
		const vendored = join(import.meta.dir, '../../vendor/scalar-api-reference')
		const served = new Uint8Array(await script.arrayBuffer())
		expect(served.byteLength).toBeGreaterThan(1_000_000)
		expect(Buffer.from(served).equals(readFileSync(join(vendored, 'standalone.js')))).toBe(true)
		const version = readFileSync(join(vendored, 'VERSION'), 'utf8').trim()
		expect(new TextDecoder().decode(served.subarray(0, 600))).toContain(`@scalar/api-reference ${version}`)
		expect(readFileSync(join(vendored, 'LICENSE'), 'utf8')).toContain('MIT License')
		expect(Object.keys(document.paths)).not.toContain('/openapi/scalar.js')
	})
})
