import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness
beforeAll(async () => {
	playground = await startPlayground()
})
afterAll(() => playground.stop())

describe('OpenAPI', () => {
	it('documents every playground endpoint with its envelope schema', async () => {
		const response = await playground.get('/openapi/json')
		expect(response.status).toBe(200)
		const document = await response.json()
		const paths = Object.keys(document.paths)
		for (const path of [
			'/api/status',
			'/api/save',
			'/api/saved/{filename}',
			'/api/export/csv',
			'/api/users/username/{username}',
			'/api/friendships/followers/{user_pk}',
			'/api/public/posts/{username}',
			'/api/notifications',
			'/api/direct/inbox'
		]) {
			expect(paths).toContain(path)
		}
		const profile = document.paths['/api/users/username/{username}'].get
		const schema = profile.responses['200'].content['application/json'].schema
		expect(schema.properties.data.properties.username.type).toBe('string')
		expect(schema.properties.success.const).toBe(true)
		expect(paths).not.toContain('/openapi/scalar.js')
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
	})
})
