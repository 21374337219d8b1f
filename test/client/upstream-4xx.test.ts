/**
 * Instagram refusing a request it does not explain (an unmatched 400, a 403 page) is its failure,
 * `upstream_error` (the API's 502), never the API's own `bad_request`; and since it would refuse
 * the same request again, neither the client's retries nor a job's back-off repeat it.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError, IgNetworkError, IgTimeoutError } from '../../src/client/errors'
import { isTransient } from '../../src/jobs/run-errors'
import { startUpstream } from '../support/upstream'

const requests = new Map<string, number>()
const counted = (answer: () => Response) => (request: Request) => {
	const path = new URL(request.url).pathname
	requests.set(path, (requests.get(path) ?? 0) + 1)
	return answer()
}
const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	'/api/v1/users/blocked_list/': counted(() =>
		Response.json({ message: 'bad request: unexpected parameter', status: 'fail' }, { status: 400 })
	),
	'/api/v1/restrict_action/restricted_users/': counted(
		() => new Response('<html><body>Forbidden</body></html>', { status: 403 })
	)
})
afterAll(() => upstream.stop(true))

describe('an upstream 4xx that matches nothing', () => {
	const ig = new InstagramClient({
		baseURL: upstream.url.href,
		credentials: { sessionId: 'session-value-2', csrfToken: 'csrf-value-2', dsUserId: '1' },
		rateLimits: false,
		retryBaseDelayMs: 1
	})

	it('is an upstream_error with its status, asked once', async () => {
		for (const [call, path, status] of [
			[() => ig.account.getBlockedUsers(), '/api/v1/users/blocked_list/', 400],
			[() => ig.account.getRestrictedUsers(), '/api/v1/restrict_action/restricted_users/', 403]
		] as const) {
			const error = (await call().catch((caught: unknown) => caught)) as IgApiError
			expect(error).toBeInstanceOf(IgApiError)
			expect({ path, kind: error.kind, status: error.upstreamStatus, requests: requests.get(path) }).toEqual({
				path,
				kind: 'upstream_error',
				status,
				requests: 1
			})
		}
		expect(ig.stats.snapshot().retries).toBe(0)
	})

	it('is no job error to wait out and try again, unlike rate limits and failures of Instagram', () => {
		const apiError = (kind: 'upstream_error' | 'rate_limited', upstreamStatus: number, body?: unknown) =>
			new IgApiError(kind, 'Instagram: x', { upstreamStatus, body })
		for (const status of [400, 403, 405, 410, 422])
			expect({ status, transient: isTransient(apiError('upstream_error', status)) }).toEqual({
				status,
				transient: false
			})
		for (const error of [
			apiError('upstream_error', 500),
			apiError('upstream_error', 503),
			apiError('upstream_error', 200, '{"items": ['),
			apiError('rate_limited', 429),
			apiError('rate_limited', 400),
			apiError('rate_limited', 0),
			new IgNetworkError('Could not reach Instagram', {}),
			new IgTimeoutError('Instagram did not answer', {})
		])
			expect({ error: error.message, transient: isTransient(error) }).toEqual({
				error: error.message,
				transient: true
			})
	})
})
