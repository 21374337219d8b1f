import { describe, expect, it } from 'bun:test'
import { KeptResult, ResultChains } from '../../src/playground/result-chain'

const page = (ids: string[], next: string | null) => ({
	success: true,
	message: `${ids.length} users`,
	data: ids.map((pk) => ({ pk, username: `user${pk}` })),
	next_cursor: next,
	timestamp: 1
})

describe('KeptResult', () => {
	it('gives back the serialised envelope once it holds only its text', () => {
		const envelope = page(['1', '2'], 'c1')
		const kept = new KeptResult('GET /api/x', envelope)
		expect(kept.envelope).toBe(envelope)
		kept.serialised(JSON.stringify(envelope))
		expect(kept.envelope).not.toBe(envelope)
		expect(kept.envelope).toEqual(envelope)
		expect(kept.request).toBe('GET /api/x')
	})

	it('joins a "Load more" page to a first page already kept as text', () => {
		const chains = new ResultChains()
		const first = page(['1', '2'], 'c1')
		const url = new URL('http://127.0.0.1/api/friendships/followers/9?count=2')
		const kept = chains.add(url, 'GET /api/friendships/followers/9?count=2', first, false)
		kept.serialised(JSON.stringify(first))
		const nextUrl = new URL('http://127.0.0.1/api/friendships/followers/9?count=2&cursor=c1')
		const joined = chains.add(nextUrl, 'GET second', page(['3'], null), true)
		const envelope = joined.envelope as { data: { pk: string }[]; message: string }
		expect(envelope.data.map((user) => user.pk)).toEqual(['1', '2', '3'])
		expect(envelope.message).toBe('1 users (3 records loaded in 2 pages)')
		expect(joined.request).toBe('GET /api/friendships/followers/9?count=2')
	})

	it('does not join a page of another list with the same cursor', () => {
		const chains = new ResultChains()
		chains.add(new URL('http://127.0.0.1/api/a?count=2'), 'GET a', page(['1'], 'c1'), false)
		const other = chains.add(new URL('http://127.0.0.1/api/b?cursor=c1'), 'GET b', page(['9'], null), true)
		expect((other.envelope as { data: unknown[] }).data).toHaveLength(1)
		expect(other.request).toBe('GET b')
	})
})
