/**
 * Whole numbers in paths, queries and bodies are plain decimal digits: text JavaScript would read
 * as a number in another way (`0x10`, `1e3`, ` 7`, `+7`, `1.0`, `0b1`) is a 400 naming the field,
 * never taken for another id or count; digits still work, and a JSON number in a body too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness
let watchId: number
let jobId: number

/** Spellings of the number 1 (or 16) that are not plain decimal digits, as they appear in a URL. */
const oddSpellings = ['0x1', '1e0', '%201', '1%20', '+1', '1.0', '0b1', '-0', '1_0']

beforeAll(async () => {
	playground = await startPlayground()
	const watch = await playground.request('POST', '/api/watches', { body: { username: 'luna.explorer' } })
	watchId = (await watch.json()).data.id
	const job = await playground.request('POST', '/api/jobs', {
		body: { kind: 'followers', target: 'luna.explorer', limit: 10 }
	})
	jobId = (await job.json()).data.id
	expect(watchId).toBe(1)
	expect(jobId).toBe(1)
})
afterAll(async () => {
	expectNoLeaks(playground)
	await playground.stop()
})

/** GETs `pathname` and expects a 400 whose message names `field`. */
async function expectRefused(pathname: string, field: string) {
	const { status, body } = await playground.json(pathname)
	expect({ pathname, status, code: body.code }).toEqual({ pathname, status: 400, code: 'bad_request' })
	expect(body.error).toContain(`'${field}'`)
}

describe('numeric path ids', () => {
	it('plain digits find the watch and the job', async () => {
		expect((await playground.json('/api/watches/1')).status).toBe(200)
		expect((await playground.json('/api/watches/01')).status).toBe(200)
		expect((await playground.json('/api/jobs/1')).status).toBe(200)
	})

	it('any other spelling of a number is a 400 naming the id', async () => {
		for (const spelling of oddSpellings) {
			await expectRefused(`/api/watches/${spelling}`, 'id')
			await expectRefused(`/api/watches/${spelling}/snapshots`, 'id')
			await expectRefused(`/api/jobs/${spelling}`, 'id')
		}
	})

	it('an id too long to be exact is a 400, not a lookup of a rounded number', async () => {
		await expectRefused('/api/watches/99999999999999999999', 'id')
		await expectRefused('/api/jobs/9999999999999999', 'id')
	})
})

describe('numeric query values', () => {
	it('count, posts, from and to take plain digits only', async () => {
		const pk = (await playground.json('/api/users/username/luna.explorer')).body.data.pk
		expect((await playground.json(`/api/friendships/followers/${pk}?count=5`)).body.data).toHaveLength(5)
		for (const spelling of ['0x5', '5e0', '%205', '+5', '5.0']) {
			await expectRefused(`/api/friendships/followers/${pk}?count=${spelling}`, 'count')
			await expectRefused(`/api/analytics/profile/luna.explorer?posts=${spelling}`, 'posts')
			await expectRefused(`/api/watches/1/diff?from=${spelling}`, 'from')
			await expectRefused(`/api/watches/1/diff?to=${spelling}`, 'to')
		}
	})
})

describe('numeric body fields', () => {
	it('a job limit as odd text is a 400; as a number or digits it is taken', async () => {
		for (const limit of ['0x10', '1e1', ' 5', '5.0']) {
			const response = await playground.request('POST', '/api/jobs', {
				body: { kind: 'following', target: 'luna.explorer', limit }
			})
			const body = await response.json()
			expect({ limit, status: response.status }).toEqual({ limit, status: 400 })
			expect(body.error).toContain("'limit'")
		}
		for (const limit of [7, '7']) {
			const response = await playground.request('POST', '/api/jobs', {
				body: { kind: 'following', target: 'luna.explorer', limit }
			})
			expect((await response.json()).data.limit).toBe(7)
		}
	})

	it('a JSON number over 15 digits or with a fraction is a 400 naming the field, never stored', async () => {
		expect(
			(
				await playground.request('POST', '/api/lists', {
					body: { name: 'big', usernames: ['luna.explorer'] }
				})
			).status
		).toBe(200)
		const before = (await playground.json('/api/jobs')).body.data.length
		// JSON reads 1e20 and 1234567890123456 as whole numbers: only the bound tells them apart.
		for (const number of ['1e20', '1234567890123456', '1000000000000000', '2.5', '1e-3']) {
			for (const [path, fields, field] of [
				['/api/jobs', '"kind":"posts","target":"luna.explorer",', 'limit'],
				['/api/lists/big/jobs', '"kind":"posts",', 'limit'],
				['/api/save', '"name":"hs",', 'history_id']
			]) {
				const response = await playground.request('POST', path, { body: `{${fields}"${field}":${number}}` })
				const body = await response.json()
				expect({ path, number, status: response.status, code: body.code }).toEqual({
					path,
					number,
					status: 400,
					code: 'bad_request'
				})
				expect(body.error).toContain(`'${field}'`)
			}
		}
		expect((await playground.json('/api/jobs')).body.data).toHaveLength(before)
		// The largest number of 15 digits is still taken.
		const largest = await playground.request('POST', '/api/jobs', {
			body: '{"kind":"following","target":"luna.explorer","limit":999999999999999}'
		})
		expect((await largest.json()).data.limit).toBe(999_999_999_999_999)
	})

	it('a history id to save as odd text is a 400 naming it', async () => {
		const response = await playground.request('POST', '/api/save', { body: { name: 'x', history_id: '0x1' } })
		expect(response.status).toBe(400)
		expect((await response.json()).error).toContain("'history_id'")
	})
})
