import { afterEach, describe, expect, it } from 'bun:test'
import { IgApiError, IgTimeoutError } from '../../src/client/errors'
import { DEMO, failure, useSimulator } from './simulator-setup'

const context = useSimulator()
afterEach(() => context.sim.faults.clear())

const INFO_PATH = `/api/v1/media/${DEMO.posts[0][1]}/info/`
const infoRequests = () => context.sim.requests.records().filter((record) => record.path === INFO_PATH)

describe('simulator faults become typed client errors', () => {
	it('rate_limit that persists: rate_limited with the upstream Retry-After, after maxRetries', async () => {
		context.sim.faults.set({ kind: 'rate_limit', retryAfter: 0, pathPattern: '/media/' })
		const before = infoRequests().length
		const error = await failure(context.client({ maxRetries: 2 }).media.getInfo(DEMO.posts[0][1]))
		expect(error).toBeInstanceOf(IgApiError)
		expect(error.kind).toBe('rate_limited')
		expect(error.retryAfter).toBe(0)
		expect(infoRequests().length - before).toBe(3)
	})

	it('rate_limit with a Retry-After beyond the wait budget: fails at once, Retry-After kept', async () => {
		context.sim.faults.set({ kind: 'rate_limit', retryAfter: 120, pathPattern: '/media/' })
		const before = infoRequests().length
		const error = await failure(context.client().media.getInfo(DEMO.posts[0][1]))
		expect(error.kind).toBe('rate_limited')
		expect(error.retryAfter).toBe(120)
		expect(infoRequests().length - before).toBe(1)
	})

	it('a short 429 burst is retried after at least Retry-After and then succeeds', async () => {
		context.sim.faults.set({ kind: 'rate_limit', retryAfter: 1, times: 1, pathPattern: '/media/' })
		const before = infoRequests().length
		const media = await context.client().media.getInfo(DEMO.posts[0][1])
		expect(media.pk).toBe(DEMO.posts[0][1])
		const [limited, retried] = infoRequests().slice(before)
		expect(limited?.status).toBe(429)
		expect(retried?.status).toBe(200)
		expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990)
	})

	for (const status of [500, 502, 503, 504]) {
		it(`server_error ${status}: upstream_error after retrying`, async () => {
			context.sim.faults.set({ kind: 'server_error', status, pathPattern: '/media/' })
			const before = infoRequests().length
			const error = await failure(context.client({ maxRetries: 1 }).media.getInfo(DEMO.posts[0][1]))
			expect(error.kind).toBe('upstream_error')
			expect(error.upstreamStatus).toBe(status)
			expect(infoRequests().length - before).toBe(2)
		})
	}

	it('a single 5xx is retried transparently', async () => {
		context.sim.faults.set({ kind: 'server_error', times: 1, pathPattern: '/media/' })
		const ig = context.client()
		expect((await ig.media.getInfo(DEMO.posts[0][1])).pk).toBe(DEMO.posts[0][1])
		expect(ig.stats.snapshot().retries).toBe(1)
	})

	it('malformed: a read cut off once is asked again; one that stays malformed is upstream_error "malformed JSON"', async () => {
		context.sim.faults.set({ kind: 'malformed', times: 1, pathPattern: '/media/' })
		const ig = context.client()
		expect((await ig.media.getInfo(DEMO.posts[0][1])).pk).toBe(DEMO.posts[0][1])
		expect(ig.stats.snapshot().retries).toBe(1)
		context.sim.faults.set({ kind: 'malformed', pathPattern: '/media/' })
		const error = await failure(context.client().media.getInfo(DEMO.posts[0][1]))
		expect(error.kind).toBe('upstream_error')
		expect(error.message).toContain('malformed JSON')
	})

	it('a walk of a whole list with for await survives answers cut off on the way', async () => {
		const pk = '1000000005'
		const expected = [...context.sim.state.followersOf(pk)]
		context.sim.faults.set({ kind: 'malformed', probability: 0.25, times: 12, pathPattern: '/followers/' })
		const walked: string[] = []
		for await (const user of await context.client().friendships.getFollowers(pk, { count: 7 }))
			walked.push(user.pk)
		expect(context.sim.faults.list()[0]?.hits).toBeGreaterThan(0)
		expect(walked).toEqual(expected)
	})

	it('challenge: challenge_required keeping the challenge URL, not retried', async () => {
		context.sim.faults.set({ kind: 'challenge', pathPattern: '/media/' })
		const before = infoRequests().length
		const error = await failure(context.client().media.getInfo(DEMO.posts[0][1]))
		expect(error.kind).toBe('challenge_required')
		expect(error.challengeUrl).toContain('/challenge/')
		expect(infoRequests().length - before).toBe(1)
	})

	it('login: login_required, not retried', async () => {
		context.sim.faults.set({ kind: 'login', pathPattern: '/media/' })
		const before = infoRequests().length
		const error = await failure(context.client().media.getInfo(DEMO.posts[0][1]))
		expect(error.kind).toBe('login_required')
		expect(infoRequests().length - before).toBe(1)
	})

	it('hang: upstream_timeout', async () => {
		context.sim.faults.set({ kind: 'hang', pathPattern: '/media/' })
		const error = await failure(
			context.client({ timeout: 100, maxRetries: 0 }).media.getInfo(DEMO.posts[0][1])
		)
		expect(error).toBeInstanceOf(IgTimeoutError)
		expect(error.kind).toBe('upstream_timeout')
	})

	it('latency below the timeout still succeeds; above it times out', async () => {
		context.sim.faults.set({ kind: 'latency', latencyMs: 50, pathPattern: '/media/' })
		expect((await context.client({ timeout: 2000 }).media.getInfo(DEMO.posts[0][1])).pk).toBe(
			DEMO.posts[0][1]
		)
		context.sim.faults.set({ kind: 'latency', latencyMs: 1000, pathPattern: '/media/' })
		expect(
			(await failure(context.client({ timeout: 100, maxRetries: 0 }).media.getInfo(DEMO.posts[0][1]))).kind
		).toBe('upstream_timeout')
	})

	it("a caller that gives up while the client's first request (the warm-up) hangs is let go at once", async () => {
		// The warm-up would wait for its whole 30 s deadline; the test's own limit is 5 s.
		context.sim.faults.set({ kind: 'latency', latencyMs: 20_000, pathPattern: 'ig_sso_users' })
		const ig = context.client({ timeout: 30_000, maxRetries: 0 })
		const controller = new AbortController()
		const asked = ig.media.getInfo(DEMO.posts[0][1], { signal: controller.signal })
		setTimeout(() => controller.abort(new Error('the job was paused')), 50)
		expect((await failure(asked)).message).toBe('the job was paused')
	})

	it('a wrong session: login_required', async () => {
		const ig = context.client({
			credentials: { sessionId: 'expired-session', csrfToken: 'x', dsUserId: DEMO.viewerPk }
		})
		expect((await failure(ig.media.getInfo(DEMO.posts[0][1]))).kind).toBe('login_required')
	})

	it('no error message carries the demo session or CSRF token', async () => {
		const { sessionId, csrfToken } = context.sim.credentials
		const errors = []
		for (const kind of ['rate_limit', 'server_error', 'malformed', 'challenge', 'login'] as const) {
			context.sim.faults.set({ kind, retryAfter: 0, pathPattern: '/media/' })
			errors.push(await failure(context.client({ maxRetries: 0 }).media.getInfo(DEMO.posts[0][1])))
		}
		for (const error of errors) {
			expect(error.message).not.toContain(sessionId)
			expect(error.message).not.toContain(decodeURIComponent(sessionId))
			expect(error.message).not.toContain(csrfToken)
		}
	})
})
