/**
 * Save after "Load more": a page asked for with the "Load more" header and the previous page's
 * `next_cursor` joins the list it continues, so `POST /api/save` writes every record loaded so far;
 * the same page without the header is a result of its own.
 */
import { describe, expect, it } from 'bun:test'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { LOAD_MORE_HEADER } from '../../src/playground/result-chain'
import { expectList, expectOk, usePlayground } from './support'

const FEED = '/api/feed/user/1000000002?count=12'

const harness = usePlayground()

/** Next page of `first` ("Load more" when `loadMore`); returns the list envelope. */
async function next(pathname: string, cursor: string, loadMore: boolean) {
	const url = `${pathname}&cursor=${encodeURIComponent(cursor)}`
	return expectList(
		await harness.request('GET', url, { headers: loadMore ? { [LOAD_MORE_HEADER]: '1' } : {} })
	)
}

/** Saves the last result and returns the file's content. */
async function save(name: string) {
	const receipt = (await expectOk(await harness.request('POST', '/api/save', { body: { name } }))).data
	return JSON.parse(await readFile(path.join(harness.savedDir, path.basename(receipt.file)), 'utf8'))
}

const pks = (records: { pk: string }[]) => records.map((record) => record.pk)

describe('Save after Load more', () => {
	it('saves every loaded record, in order, under the first page request', async () => {
		const first = await expectList(await harness.get(FEED))
		const second = await next(FEED, first.next_cursor, true)
		const third = await next(FEED, second.next_cursor, true)
		const file = await save('feed-three-pages')
		expect(file.request).toBe(`GET ${FEED}`)
		expect(pks(file.result.data)).toEqual(pks([...first.data, ...second.data, ...third.data]))
		expect(file.result.data).toHaveLength(36)
		expect(file.result.next_cursor).toBe(third.next_cursor)
	})

	it('a page re-fetched as Load more after other requests still joins its list', async () => {
		const first = await expectList(await harness.get(FEED))
		const second = await next(FEED, first.next_cursor, true)
		await expectOk(await harness.get('/api/hashtags/info/sunset'))
		// What the UI does on Save when another request came in between: fetch the last page again.
		await next(FEED, first.next_cursor, true)
		const file = await save('feed-refetched')
		expect(pks(file.result.data)).toEqual(pks([...first.data, ...second.data]))
	})

	it('without the header a page with a cursor is saved alone', async () => {
		const first = await expectList(await harness.get(FEED))
		const second = await next(FEED, first.next_cursor, false)
		const file = await save('feed-second-page')
		expect(file.request).toBe(`GET ${FEED}&cursor=${encodeURIComponent(first.next_cursor)}`)
		expect(pks(file.result.data)).toEqual(pks(second.data))
	})

	it('a Load more page that continues no list this playground served is saved alone', async () => {
		// A cursor from elsewhere (the client itself): no result of the playground ends there.
		const cursor = (await harness.ig.feed.getUserFeed('1000000002', { count: 5 })).next_cursor as string
		await expectList(await harness.get(FEED))
		const page = await next(FEED, cursor, true)
		const file = await save('feed-foreign-cursor')
		expect(pks(file.result.data)).toEqual(pks(page.data))
		expect(file.result.data).toHaveLength(12)
	})
})
