/**
 * Two rules of the playground API: a request marked `X-Smkit-Poll` (the page's own periodic looks)
 * is neither counted nor recorded in the history, while the same request unmarked is; and a
 * comment's replies without `count` are every reply, in one answer (docs/api-contract.md,
 * "System endpoints" and "Pagination").
 */
import { describe, expect, it } from 'bun:test'
import { expectList, expectOk, usePlayground } from './support'

const playground = usePlayground()

/** The header as documented (docs/api-contract.md, "System endpoints"). */
const POLL_HEADER = 'X-Smkit-Poll'

/** luna.explorer's post DIGTDkeJd6Y and its comment with four replies (two a simulator page). */
const MEDIA = '3604652359959305880'
const COMMENT = '18928815347468480'

const history = async () => (await expectOk(await playground.get('/api/history'))).data as { path: string }[]
const status = async () => (await expectOk(await playground.get('/api/status'))).data

describe('X-Smkit-Poll', () => {
	it('a marked request is neither counted nor recorded; the same request unmarked is', async () => {
		await playground.get('/api/users/username/luna.explorer')
		const before = await status()
		const [newest] = await history()
		for (let look = 0; look < 3; look++) {
			const polled = await playground.request('GET', '/api/jobs', { headers: { [POLL_HEADER]: '1' } })
			await expectOk(polled)
			expect(polled.headers.has('x-smkit-history-id')).toBe(false)
		}
		expect((await history())[0]).toEqual(newest as { path: string })
		expect((await status()).total_requests).toBe(before.total_requests)
		// A person's own look at the same list is recorded.
		await expectOk(await playground.get('/api/jobs'))
		expect((await history())[0]?.path).toBe('/api/jobs')
		expect((await status()).total_requests).toBe(before.total_requests + 1)
	})
})

describe('comment replies', () => {
	it('without count: every reply in one answer, oldest first, with no cursor', async () => {
		const state = playground.simulator.state
		const media = state.media(MEDIA)
		const thread = media && state.commentsOf(media).find((comment) => comment.pk === COMMENT)
		const expected = thread?.replies.map((reply) => String(reply.pk)) ?? []
		expect(expected.length).toBeGreaterThan(2)
		const body = await expectList(await playground.get(`/api/media/comments/${MEDIA}/replies/${COMMENT}`))
		expect(body.data.map((reply: { pk: unknown }) => String(reply.pk))).toEqual(expected)
		expect(body.next_cursor).toBeNull()
	})

	it('with count: pages as every list does', async () => {
		const body = await expectList(
			await playground.get(`/api/media/comments/${MEDIA}/replies/${COMMENT}?count=1`)
		)
		expect(body.data.length).toBe(1)
		expect(typeof body.next_cursor).toBe('string')
	})
})
