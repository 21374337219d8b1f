/**
 * Smaller hardening: short access tokens are refused, wrong tokens are answered ever later after a
 * few, and the API reference pages carry the same kind of security headers as the UI.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { resolveAccessToken, securityGuard, TokenFailures } from '../../src/server/security'
import { expectOk, type PlaygroundHarness, startPlayground } from '../playground/support'

describe('access tokens', () => {
	test('shorter than 16 characters are refused, from --token or SMKIT_TOKEN alike', () => {
		expect(() => resolveAccessToken('0.0.0.0', 'fifteen-chars-x')).toThrow('at least 16 characters')
		expect(() => resolveAccessToken('127.0.0.1', 'short')).toThrow('at least 16 characters')
		expect(resolveAccessToken('0.0.0.0', 'sixteen-chars-xy')).toEqual({
			token: 'sixteen-chars-xy',
			generated: false
		})
		expect(resolveAccessToken('0.0.0.0').token?.length).toBeGreaterThanOrEqual(16)
	})

	test('after five wrong tokens each further one waits longer, up to 5 s; the count restarts later', () => {
		const failures = new TokenFailures()
		const now = 1_000_000
		const delays = Array.from({ length: 12 }, (_, index) => failures.record(now + index))
		expect(delays).toEqual([0, 0, 0, 0, 0, 100, 200, 400, 800, 1600, 3200, 5000])
		expect(failures.record(now + 11 * 60 * 1000)).toBe(0)
	})

	test('the guard holds back a wrong token after a few, never the right one', async () => {
		const token = 'the-right-token-123'
		const app = new Elysia().use(securityGuard({ host: '0.0.0.0', token })).get('/api/x', () => 'ok')
		const at = (given: string) =>
			app.handle(new Request('http://192.168.1.20/api/x', { headers: { authorization: `Bearer ${given}` } }))
		for (let attempt = 0; attempt < 7; attempt++) expect((await at('wrong-token-guess-1')).status).toBe(403)
		// The 8th wrong token is held back at least 400 ms (a lower bound: a slow machine only adds to it).
		const started = performance.now()
		expect((await at('wrong-token-guess-2')).status).toBe(403)
		expect(performance.now() - started).toBeGreaterThanOrEqual(390)
		expect((await at(token)).status).toBe(200)
	})
})

describe('API reference pages', () => {
	let playground: PlaygroundHarness
	beforeAll(async () => {
		playground = await startPlayground()
	})
	afterAll(() => playground.stop())

	test('carry a content security policy, no framing and no sniffing', async () => {
		for (const path of ['/openapi', '/openapi/json']) {
			const response = await playground.get(path)
			expect(response.status).toBe(200)
			const policy = response.headers.get('content-security-policy') ?? ''
			expect(policy).toContain("frame-ancestors 'none'")
			expect(policy).toContain("default-src 'self'")
			expect(policy).toContain("object-src 'none'")
			expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		}
		// The API itself is unchanged.
		await expectOk(await playground.get('/api/status'))
	})
})
