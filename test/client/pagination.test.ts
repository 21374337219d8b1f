import { describe, expect, it } from 'bun:test'
import { IgApiError, IgArgumentError } from '../../src/client/errors'
import { ListStalledError, type PageFetcher, paginate } from '../../src/client/pagination'

/** Ten numbered items served three per page; records the cursors asked for. */
function numbered(total = 10, size = 3) {
	const cursors: (string | null)[] = []
	const fetchPage: PageFetcher<number> = async (cursor) => {
		cursors.push(cursor)
		const start = cursor ? Number(cursor) : 0
		const items = Array.from(
			{ length: Math.max(0, Math.min(size, total - start)) },
			(_, index) => start + index
		)
		return { items, next_cursor: start + size < total ? String(start + size) : null }
	}
	return { fetchPage, cursors }
}

describe('paginate', () => {
	it('fetches one page without count', async () => {
		const { fetchPage, cursors } = numbered()
		const page = await paginate(fetchPage)
		expect({ items: page.items, next_cursor: page.next_cursor }).toEqual({
			items: [0, 1, 2],
			next_cursor: '3'
		})
		expect(cursors).toEqual([null])
	})

	it('collects across pages up to count; a cut page resumes where count stopped', async () => {
		const { fetchPage, cursors } = numbered()
		const page = await paginate(fetchPage, { count: 7 })
		expect(page.items).toEqual([0, 1, 2, 3, 4, 5, 6])
		expect(cursors).toEqual([null, '3', '6'])
		const rest = await paginate(fetchPage, { count: 7, cursor: page.next_cursor })
		expect(rest.items).toEqual([7, 8, 9])
		expect(rest.next_cursor).toBeNull()
		// The upstream page the cut was in is fetched again from its own cursor.
		expect(cursors.slice(3)).toEqual(['6', '9'])
	})

	it('ends a page on an upstream boundary with the upstream cursor itself', async () => {
		const page = await paginate(numbered().fetchPage, { count: 6 })
		expect(page.next_cursor).toBe('6')
	})

	it('walks to exactly the whole list with any sequence of counts', async () => {
		const { fetchPage } = numbered(23, 4)
		const expected = Array.from({ length: 23 }, (_, index) => index)
		for (const counts of [[1], [2], [3], [4], [5], [23], [50], [3, 1, 4, 1, 5, 9, 2, 6], [7, 1], [4, 8, 1]]) {
			const seen: number[] = []
			let cursor: string | null = null
			for (let step = 0; step < 100; step++) {
				const count = counts[step % counts.length] as number
				const page: { items: number[]; next_cursor: string | null } = await paginate(fetchPage, {
					count,
					cursor
				})
				if (page.next_cursor !== null) expect(page.items.length).toBe(count)
				seen.push(...page.items)
				cursor = page.next_cursor
				if (cursor === null) break
			}
			expect({ counts, seen }).toEqual({ counts, seen: expected })
		}
	})

	it('without count returns the rest of the upstream page the cursor points into', async () => {
		const { fetchPage } = numbered()
		const cut = await paginate(fetchPage, { count: 4 })
		expect((await paginate(fetchPage, { cursor: cut.next_cursor })).items).toEqual([4, 5])
	})

	it('continues into the next page when the page a cursor points into comes back shorter', async () => {
		// The first answer for a cursor is 5 items; later answers for the same cursor only 2.
		const served = new Set<string>()
		const fetchPage: PageFetcher<number> = async (cursor) => {
			const start = cursor ? Number(cursor) : 0
			const size = served.has(String(start)) ? 2 : 5
			served.add(String(start))
			const items = Array.from(
				{ length: Math.max(0, Math.min(size, 12 - start)) },
				(_, index) => start + index
			)
			return { items, next_cursor: start + items.length < 12 ? String(start + items.length) : null }
		}
		const first = await paginate(fetchPage, { count: 3 })
		expect(first.items).toEqual([0, 1, 2])
		const second = await paginate(fetchPage, { count: 3, cursor: first.next_cursor })
		expect(second.items).toEqual([3, 4, 5])
	})

	it('rejects an in-page cursor that was tampered with', async () => {
		const cut = await paginate(numbered().fetchPage, { count: 4 })
		const cursor = cut.next_cursor as string
		const broken = `${cursor.slice(0, 4)}${Buffer.from('{"c":"3","o":-2}').toString('base64url')}`
		await expect(paginate(numbered().fetchPage, { cursor: broken })).rejects.toBeInstanceOf(IgArgumentError)
		await expect(paginate(numbered().fetchPage, { cursor: `${cursor}!` })).rejects.toBeInstanceOf(
			IgArgumentError
		)
	})

	it('rejects a cursor of ours whose marker was damaged instead of sending it upstream', async () => {
		const { fetchPage, cursors } = numbered()
		for (const cursor of ['~p', '~p1', '~p2.eyJjIjpudWxsLCJvIjoxfQ', '~px'])
			await expect(paginate(fetchPage, { cursor })).rejects.toBeInstanceOf(IgArgumentError)
		expect(cursors).toEqual([])
	})

	it('a list sent in one piece takes only its own in-piece cursors', async () => {
		const letters = ['a', 'b', 'c', 'd', 'e']
		const calls: (string | null)[] = []
		const whole: PageFetcher<string> = async (cursor) => {
			calls.push(cursor)
			return { items: letters, next_cursor: null }
		}
		const first = await paginate(whole, { count: 2 }, 'whole')
		const second = await paginate(whole, { count: 2, cursor: first.next_cursor }, 'whole')
		expect([...first.items, ...second.items]).toEqual(['a', 'b', 'c', 'd'])
		// An upstream-style cursor would be ignored upstream and bring 'a' back as if it came after it.
		await expect(paginate(whole, { cursor: 'QVFD-upstream' }, 'whole')).rejects.toBeInstanceOf(
			IgArgumentError
		)
		const crafted = `~p1.${Buffer.from('{"c":"QVFD","o":2}').toString('base64url')}`
		await expect(paginate(whole, { cursor: crafted }, 'whole')).rejects.toBeInstanceOf(IgArgumentError)
		expect(calls).toEqual([null, null])
		const rest: string[] = []
		for await (const letter of await paginate(whole, { count: 1 }, 'whole')) rest.push(letter)
		expect(rest).toEqual(letters)
	})

	it('stops at the end when count is larger than the list', async () => {
		const page = await paginate(numbered().fetchPage, { count: 50 })
		expect(page.items.length).toBe(10)
		expect(page.next_cursor).toBeNull()
	})

	it('resumes from a cursor', async () => {
		expect((await paginate(numbered().fetchPage, { cursor: '6' })).items).toEqual([6, 7, 8])
	})

	it('is async-iterable over every item of every page, and serialises as plain data', async () => {
		const page = await paginate(numbered().fetchPage)
		const all: number[] = []
		for await (const item of page) all.push(item)
		expect(all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
		expect(JSON.parse(JSON.stringify(page))).toEqual({ items: [0, 1, 2], next_cursor: '3' })
	})

	it('iterates without skipping the part of the last page that count cut off', async () => {
		const page = await paginate(numbered().fetchPage, { count: 4 })
		expect(page.items).toEqual([0, 1, 2, 3])
		const all: number[] = []
		for await (const item of page) all.push(item)
		expect(all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
	})

	it('stops at a repeated cursor with a cursor that continues, never null', async () => {
		let calls = 0
		const fetchPage: PageFetcher<number> = async () => ({ items: [calls++], next_cursor: 'same' })
		const page = await paginate(fetchPage, { count: 10 })
		expect(page.items).toEqual([0, 1])
		expect(page.next_cursor).not.toBeNull()
		// Still repeating, and nothing to return: an upstream error, not an empty end of the list.
		const error = await paginate(fetchPage, { count: 10, cursor: page.next_cursor }).catch((caught) => caught)
		expect(error).toBeInstanceOf(ListStalledError)
		expect((error as ListStalledError).kind).toBe('upstream_error')
	})

	it('rejects a count that is not a positive integer', async () => {
		for (const count of [0, -1, 1.5])
			await expect(paginate(numbered().fetchPage, { count })).rejects.toBeInstanceOf(IgArgumentError)
	})
})

describe('a cursor given by the caller that Instagram refuses', () => {
	const refusing: PageFetcher<number> = async (cursor) => {
		if (cursor === 'stale')
			throw new IgApiError('bad_request', 'Instagram: Invalid max_id (HTTP 400 from GET /api/v1/x/)', {
				upstreamStatus: 400
			})
		// How the client reads Instagram's unexplained 400 (docs/instagram.md, "Errors").
		if (cursor === 'refused')
			throw new IgApiError('upstream_error', 'Instagram: Invalid cursor (HTTP 400 from GET /api/v1/x/)', {
				upstreamStatus: 400
			})
		if (cursor === 'down')
			throw new IgApiError('upstream_error', 'Instagram: oops (server error, HTTP 500 from GET /api/v1/x/)', {
				upstreamStatus: 500
			})
		return { items: [1], next_cursor: 'stale' }
	}

	it("is an argument error naming the cursor, with Instagram's own words", async () => {
		const error = await paginate(refusing, { cursor: 'stale' }).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(IgArgumentError)
		expect((error as Error).message).toBe(
			'cursor is not a next_cursor this list returned: Instagram refused it (Invalid max_id)'
		)
	})

	it('is so whatever kind the client read the 400 as, bad_request or upstream_error', async () => {
		const error = await paginate(refusing, { cursor: 'refused' }).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(IgArgumentError)
		expect((error as Error).message).toBe(
			'cursor is not a next_cursor this list returned: Instagram refused it (Invalid cursor)'
		)
	})

	it('stays what it was for any other failure, and for a refusal on a page after the first', async () => {
		const down = await paginate(refusing, { cursor: 'down' }).catch((caught: unknown) => caught)
		expect(down).toBeInstanceOf(IgApiError)
		const later = await paginate(refusing, { count: 5 }).catch((caught: unknown) => caught)
		expect(later).toBeInstanceOf(IgApiError)
	})
})
