import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { expectFailure, expectNoLeaks, expectOk, type PlaygroundHarness, startPlayground } from './support'

// Each upstream fault the simulator can inject, and the envelope it must become (docs/api-contract.md,
// "Errors").
let playground: PlaygroundHarness
beforeAll(async () => {
	// No retries and a short timeout: the mapping is under test, not the retry policy.
	playground = await startPlayground({ client: { maxRetries: 0, timeout: 300 } })
})
afterEach(() => playground.simulator.faults.clear())
afterAll(() => playground.stop())

const PROFILE = '/api/users/username/luna.explorer'

describe('upstream faults', () => {
	it('rate_limit -> 429 rate_limited with Retry-After', async () => {
		playground.simulator.faults.set({ kind: 'rate_limit', retryAfter: 7 })
		const response = await playground.get(PROFILE)
		await expectFailure(response, 429, 'rate_limited')
		expect(response.headers.get('retry-after')).toBe('7')
	})

	it('server_error -> 502 upstream_error', async () => {
		playground.simulator.faults.set({ kind: 'server_error', status: 500 })
		await expectFailure(await playground.get(PROFILE), 502, 'upstream_error')
		playground.simulator.faults.set({ kind: 'server_error', status: 503, format: 'html' })
		await expectFailure(await playground.get(PROFILE), 502, 'upstream_error')
	})

	it('malformed JSON -> 502 upstream_error', async () => {
		playground.simulator.faults.set({ kind: 'malformed' })
		await expectFailure(await playground.get(PROFILE), 502, 'upstream_error')
	})

	it('challenge -> 403 challenge_required', async () => {
		playground.simulator.faults.set({ kind: 'challenge' })
		await expectFailure(await playground.get(PROFILE), 403, 'challenge_required')
	})

	it('login -> 401 login_required', async () => {
		playground.simulator.faults.set({ kind: 'login' })
		await expectFailure(await playground.get('/api/account/me'), 401, 'login_required')
	})

	it('hang -> 504 upstream_timeout', async () => {
		playground.simulator.faults.set({ kind: 'hang', pathPattern: 'web_profile_info' })
		await expectFailure(await playground.get(PROFILE), 504, 'upstream_timeout')
	})

	it('recovers once the fault is gone, and counts the failures', async () => {
		playground.simulator.faults.set({ kind: 'server_error', times: 1 })
		await expectFailure(await playground.get(PROFILE), 502, 'upstream_error')
		await expectOk(await playground.get(PROFILE))
		const status = await expectOk(await playground.get('/api/status'))
		expect(status.data.total_errors).toBeGreaterThanOrEqual(7)
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
