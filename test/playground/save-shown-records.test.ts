/**
 * `POST /api/save { records }`: a save naming how many records the client shows writes only a
 * result holding exactly those. A result holding another number, or a "Load more" page kept on its
 * own once its list was no longer kept, is a 400 and nothing is written; the list fetched again
 * from its first page, its later pages as "Load more", is saved whole under its first request.
 */
import { describe, expect, it } from 'bun:test'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { LOAD_MORE_HEADER } from '../../src/playground/result-chain'
import { expectFailure, expectList, expectOk, usePlayground } from './support'

const FOLLOWERS = '/api/friendships/followers/1000000005?count=50'

const harness = usePlayground()

const historyIdOf = (response: Response) => Number(response.headers.get('x-smkit-history-id'))

/** The next page of `list` as "Load more": the envelope and its history id. */
async function loadMore(list: string, cursor: string) {
	const response = await harness.request('GET', `${list}&cursor=${encodeURIComponent(cursor)}`, {
		headers: { [LOAD_MORE_HEADER]: '1' }
	})
	return { id: historyIdOf(response), body: await expectList(response) }
}

/** Eight other lists with a cursor, from another client: the playground keeps no older list open. */
async function otherLists() {
	for (const count of [3, 4, 5, 6, 7, 8, 9, 10])
		await expectList(await harness.get(`/api/feed/user/1000000002?count=${count}`))
}

const save = (body: Record<string, unknown>) => harness.request('POST', '/api/save', { body })
const savedFiles = async () => (await readdir(harness.savedDir)).filter((name) => name.endsWith('.json'))
const pks = (records: { pk: string }[]) => records.map((record) => record.pk)

describe('POST /api/save with records', () => {
	it('a count larger than the kept result is a 400 saying so, and nothing is written', async () => {
		const response = await harness.get(FOLLOWERS)
		const id = historyIdOf(response)
		expect((await expectList(response)).data).toHaveLength(50)
		const before = await savedFiles()
		const failure = await expectFailure(
			await save({ name: 'too-many', history_id: id, records: 150 }),
			400,
			'bad_request'
		)
		expect(failure.error).toContain('holds 50 records, not the 150 records shown')
		expect(failure.error).toContain('fetch the list again from its first page')
		// Without a history id the last result is checked the same way.
		await expectFailure(await save({ name: 'too-many', records: 51 }), 400, 'bad_request')
		// Fewer shown than held is not the result on screen either.
		const fewer = await expectFailure(
			await save({ name: 'fewer', history_id: id, records: 10 }),
			400,
			'bad_request'
		)
		expect(fewer.error).toContain('holds 50 records, not the 10 records shown')
		// A name with nothing usable is refused as such first: fetching the list again would not help.
		const badName = await expectFailure(
			await save({ name: '!!!', history_id: id, records: 150 }),
			400,
			'bad_request'
		)
		expect(badName.error).toStartWith('Invalid name')
		expect(await savedFiles()).toEqual(before)
	})

	it('a Load more page whose list is no longer kept is refused, not saved as the list', async () => {
		const first = await harness.get(FOLLOWERS)
		const firstPage = await expectList(first)
		const second = await loadMore(FOLLOWERS, firstPage.next_cursor)
		await otherLists()
		const third = await loadMore(FOLLOWERS, second.body.next_cursor)
		expect(third.body.data).toHaveLength(50)
		const before = await savedFiles()
		const failure = await expectFailure(
			await save({ name: 'after-8-lists', history_id: third.id, records: 150 }),
			400,
			'bad_request'
		)
		expect(failure.error).toContain('is a later page of its list on its own (50 records')
		expect(failure.error).toContain('not the 150 records shown')
		// Even a count the page matches: it is not the list from its first page.
		await expectFailure(
			await save({ name: 'after-8-lists', history_id: third.id, records: 50 }),
			400,
			'bad_request'
		)
		expect(await savedFiles()).toEqual(before)
	})

	it('the list fetched again from its first page is saved whole, under its first request, each record once', async () => {
		const first = await expectList(await harness.get(FOLLOWERS))
		const second = await loadMore(FOLLOWERS, first.next_cursor)
		const third = await loadMore(FOLLOWERS, second.body.next_cursor)
		const receipt = await expectOk(
			await save({ name: 'followers-again', history_id: third.id, records: 150 })
		)
		expect(receipt.data.records).toBe(150)
		const file = JSON.parse(await readFile(path.join(harness.savedDir, 'followers-again.json'), 'utf8'))
		expect(file.request).toBe(`GET ${FOLLOWERS}`)
		const saved = pks(file.result.data)
		expect(saved).toEqual(pks([...first.data, ...second.body.data, ...third.body.data]))
		expect(new Set(saved).size).toBe(150)
	})

	it('without records a lone Load more page is still saved, and the answer says it is that page only', async () => {
		const first = await expectList(await harness.get(FOLLOWERS))
		await otherLists()
		const second = await loadMore(FOLLOWERS, first.next_cursor)
		const answer = await expectOk(await save({ name: 'page-only', history_id: second.id }))
		expect(answer.message).toContain('this page only')
		expect(answer.data.records).toBe(50)
	})

	it('records must be a whole number', async () => {
		for (const records of [-1, 2.5, 'ten']) {
			const failure = await expectFailure(await save({ name: 'bad', records }), 400, 'bad_request')
			expect(failure.error).toContain("'records'")
		}
	})
})
