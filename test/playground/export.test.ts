import { describe, expect, it } from 'bun:test'
import Papa from 'papaparse'
import { expectFailure, expectList, expectNoLeaks, usePlayground } from './support'

const playground = usePlayground()

const exportCsv = (body: unknown) => playground.request('POST', '/api/export/csv', { body })

describe('POST /api/export/csv', () => {
	it('turns a list envelope straight into a CSV download', async () => {
		const followers = await expectList(await playground.get('/api/friendships/followers/1000000002?count=20'))
		const response = await exportCsv({ data: followers })
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('content-disposition')).toMatch(
			/^attachment; filename="export-\d{8}-\d{6}\.csv"$/
		)
		const text = await response.text()
		const rows = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { newline: '\r\n' }).data
		expect(rows[0]).toEqual(Object.keys(followers.data[0]))
		expect(rows.length).toBe(21)
		expect(rows[1][rows[0].indexOf('username')]).toBe(followers.data[0].username)
	})

	it('flattens nested media records (user.username) and keeps the exact pk', async () => {
		const posts = await expectList(await playground.get('/api/public/posts/luna.explorer?count=3'))
		const response = await exportCsv({ data: posts.data })
		const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ''), {
			newline: '\r\n'
		}).data
		const header = rows[0]
		expect(header).toContain('user.username')
		expect(rows[1][header.indexOf('user.username')]).toBe('luna.explorer')
		expect(rows[1][header.indexOf('pk')]).toBe('3842790443716764595')
	})

	it('exports a single record (a profile, a media info) as one row with dotted columns', async () => {
		for (const path of ['/api/users/username/luna.explorer', '/api/media/info/3842790443716764595']) {
			const envelope = await (await playground.get(path)).json()
			for (const body of [{ data: envelope }, { data: envelope.data }]) {
				const response = await exportCsv(body)
				expect(response.status).toBe(200)
				const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ''), {
					newline: '\r\n'
				}).data
				expect(rows).toHaveLength(2)
				expect(rows[1][rows[0].indexOf('pk')]).toBe(envelope.data.pk)
				if (envelope.data.user) expect(rows[1][rows[0].indexOf('user.username')]).toBe('luna.explorer')
				// The same columns a list of that record gets.
				const listed = await exportCsv({ data: [envelope.data] })
				expect(rows[0]).toEqual(
					Papa.parse<string[]>((await listed.text()).replace(/^\uFEFF/, ''), { newline: '\r\n' }).data[0]
				)
			}
		}
	})

	it('names the file after what it holds when the body says', async () => {
		const followers = await expectList(await playground.get('/api/friendships/followers/1000000002?count=2'))
		const response = await exportCsv({ data: followers, name: 'followers-luna.explorer' })
		expect(response.headers.get('content-disposition')).toMatch(
			/^attachment; filename="followers-luna\.explorer-\d{8}-\d{6}\.csv"$/
		)
	})

	it('answers bad input with a 400 envelope', async () => {
		await expectFailure(await exportCsv({ data: [] }), 400, 'bad_request')
		await expectFailure(await exportCsv({ data: { data: 'x' } }), 400, 'bad_request')
		await expectFailure(await exportCsv({ data: [1, 2] }), 400, 'bad_request')
		await expectFailure(await exportCsv({ records: [{ a: 1 }] }), 400, 'bad_request')
		await expectFailure(
			await playground.request('POST', '/api/export/csv', { body: '[{"a":' }),
			400,
			'bad_request'
		)
	})

	it('refuses an integer beyond 2^53 (JSON reading already changed its digits), naming its column; as text it is kept', async () => {
		for (const [body, column] of [
			['{"data":[{"id":"1","big":3842790443716764595}]}', 'big'],
			['{"data":[{"id":"1","user":{"pk":3842790443716764595}}]}', 'user.pk']
		] as const) {
			const envelope = await expectFailure(
				await playground.request('POST', '/api/export/csv', { body }),
				400,
				'bad_request'
			)
			expect(envelope.error).toContain(`'${column}'`)
			expect(envelope.error).toContain('send it as a string')
		}
		const kept = await exportCsv({ data: [{ id: '1', big: '3842790443716764595', small: 9007199254740991 }] })
		expect(kept.status).toBe(200)
		expect(await kept.text()).toContain('3842790443716764595,9007199254740991')
	})

	it('answers a value nested too deeply to serialise with a 400 naming its column', async () => {
		const depth = 100_000
		const deepArray = `${'['.repeat(depth)}${']'.repeat(depth)}`
		const deepObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
		for (const [value, column] of [
			[deepArray, 'tags'],
			[`{"inner":${deepObject}}`, 'tags.inner']
		]) {
			const body = `{"data":[{"id":"1","tags":${value}}]}`
			const response = await playground.request('POST', '/api/export/csv', { body })
			const envelope = await expectFailure(response, 400, 'bad_request')
			expect(envelope.error).toContain(`'${column}'`)
		}
	})

	it('accepts bodies up to 10 MiB and answers 413 beyond', async () => {
		const row = { text: 'y'.repeat(1000) }
		const threeMiB = { data: Array.from({ length: 3000 }, () => row) }
		expect((await exportCsv(threeMiB)).status).toBe(200)
		const elevenMiB = { data: Array.from({ length: 11_000 }, () => row) }
		await expectFailure(await exportCsv(elevenMiB), 413, 'payload_too_large')
	})

	it('requires Content-Type application/json (403 otherwise)', async () => {
		const response = await playground.request('POST', '/api/export/csv', {
			body: JSON.stringify({ data: [{ a: 1 }] }),
			headers: { 'content-type': 'text/plain' }
		})
		await expectFailure(response, 403, 'forbidden')
	})

	it('is recorded in the history as a download', async () => {
		await exportCsv({ data: [{ a: 1 }] })
		const history = await (await playground.get('/api/history')).json()
		expect(history.data[0]).toMatchObject({
			method: 'POST',
			path: '/api/export/csv',
			status: 200,
			success: true
		})
		expect(history.data[0].message).toMatch(/^Download export-/)
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
