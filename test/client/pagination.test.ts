import { describe, expect, it } from 'bun:test'
import { IgArgumentError } from '../../src/client/errors'
import { type PageFetcher, paginate } from '../../src/client/pagination'

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

	it('collects across pages up to count', async () => {
		const { fetchPage, cursors } = numbered()
		const page = await paginate(fetchPage, { count: 7 })
		expect(page.items).toEqual([0, 1, 2, 3, 4, 5, 6])
		expect(page.next_cursor).toBe('9')
		expect(cursors).toEqual([null, '3', '6'])
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

	it('treats a repeated cursor as the end', async () => {
		let calls = 0
		const page = await paginate(async () => ({ items: [calls++], next_cursor: 'same' }), { count: 10 })
		expect(page.items).toEqual([0, 1])
		expect(page.next_cursor).toBeNull()
	})

	it('rejects a count that is not a positive integer', async () => {
		for (const count of [0, -1, 1.5])
			await expect(paginate(numbered().fetchPage, { count })).rejects.toBeInstanceOf(IgArgumentError)
	})
})
