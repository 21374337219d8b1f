import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { MAX_UPSTREAM_BODY_BYTES, readUpstreamText } from '../../src/client/response-body'
import { startUpstream } from '../support/upstream'

/** How many bytes the endless answer has sent, to show the read stopped. */
let endlessSent = 0
const MiB = 1024 * 1024
// 64 MiB of spaces, about 64 KiB once gzipped: fetch inflates it on its own.
const bomb = Bun.gzipSync(new Uint8Array(64 * MiB).fill(32))

const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	'/api/v1/users/web_profile_info/': (request: Request) => {
		const username = new URL(request.url).searchParams.get('username')
		if (username === 'endless') {
			const chunk = new Uint8Array(MiB).fill(32)
			return new Response(
				new ReadableStream({
					pull(controller) {
						endlessSent += chunk.byteLength
						controller.enqueue(chunk)
					}
				}),
				{ headers: { 'content-type': 'application/json' } }
			)
		}
		if (username === 'bomb')
			return new Response(bomb, {
				headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }
			})
		return Response.json({ data: { user: null }, status: 'ok' })
	}
})
afterAll(() => upstream.stop(true))

const client = () =>
	new InstagramClient({
		baseURL: upstream.url.href,
		credentials: { sessionId: 'S', csrfToken: 'C', dsUserId: '1' },
		rateLimits: false,
		retryBaseDelayMs: 1,
		timeout: 10_000
	})

async function failure(promise: Promise<unknown>): Promise<IgApiError> {
	try {
		await promise
	} catch (error) {
		return error as IgApiError
	}
	throw new Error('expected the call to fail')
}

describe('an upstream answer over the size limit', () => {
	it('is an upstream_error once 16 MiB have arrived, and the endless body stops being read', async () => {
		const error = await failure(client().users.getByUsername('endless'))
		expect(error).toBeInstanceOf(IgApiError)
		expect(error.kind).toBe('upstream_error')
		expect(error.message).toContain('larger than 16 MiB')
		expect(error.message).toContain('GET /api/v1/users/web_profile_info/')
		const sentAtFailure = endlessSent
		await Bun.sleep(200)
		// The server may have a few chunks in flight; an unlimited read would go on for the timeout.
		expect(endlessSent).toBeLessThan(sentAtFailure + 16 * MiB)
		expect(sentAtFailure).toBeLessThan(MAX_UPSTREAM_BODY_BYTES * 3)
	})

	it('counts the inflated bytes of a compressed answer (a gzip bomb)', async () => {
		const error = await failure(client().users.getByUsername('bomb'))
		expect(error.kind).toBe('upstream_error')
		expect(error.message).toContain('larger than 16 MiB')
	})
})

describe('readUpstreamText', () => {
	it('refuses a declared length over the limit before reading anything', async () => {
		let pulled = false
		const body = new ReadableStream({
			pull(controller) {
				pulled = true
				controller.enqueue(new Uint8Array(10))
			}
		})
		const response = new Response(body, { status: 502, headers: { 'content-length': '2000' } })
		const error = await failure(readUpstreamText(response, 'GET /x', 1000))
		expect(error.message).toBe("Instagram's answer is larger than 1000 bytes (HTTP 502 from GET /x)")
		expect(error.upstreamStatus).toBe(502)
		expect(pulled).toBe(false)
	})

	it('reads a body without a length up to the limit, multi-byte characters across chunks intact', async () => {
		const bytes = new TextEncoder().encode('{"name":"Łuna ✨ 🌍"}')
		const body = new ReadableStream({
			start(controller) {
				for (const byte of bytes) controller.enqueue(new Uint8Array([byte]))
				controller.close()
			}
		})
		expect(await readUpstreamText(new Response(body), 'GET /x', bytes.length)).toBe('{"name":"Łuna ✨ 🌍"}')
	})

	it('reads a declared length that fits, and an empty body', async () => {
		expect(await readUpstreamText(new Response('{"ok":1}'), 'GET /x', 8)).toBe('{"ok":1}')
		expect(await readUpstreamText(new Response(null), 'GET /x')).toBe('')
	})
})
