/**
 * A JSON request body is an object (docs/api-contract.md, "Data"): a number, a string, an array,
 * null or no body at all is a 400 on every route that takes a body, even one whose fields are all
 * optional, where Elysia would otherwise fill the defaults into an empty object and go on.
 */
import { describe, expect, it } from 'bun:test'
import { expectFailure, expectNoLeaks, expectOk, usePlayground } from './support'

const playground = usePlayground()

/** Bodies that are no JSON object, as sent (the empty text: no body, with the JSON content type). */
const notObjects = ['42', '"str"', '[1,2]', 'null', 'true', '']

const post = (path: string, body: string) =>
	playground.request('POST', path, { body, headers: { 'content-type': 'application/json' } })

/** Every playground route with a JSON body (the AI routes check theirs in src/agent/chat). */
const bodyRoutes = [
	'/api/lists',
	'/api/lists/auditlist/members',
	'/api/lists/auditlist/watches',
	'/api/lists/auditlist/jobs',
	'/api/watches',
	'/api/jobs',
	'/api/save',
	'/api/demo/clock',
	'/api/session',
	'/api/export/csv'
]

describe('JSON request bodies', () => {
	it('POST lists/{name}/watches: a body that is no object is a 400 and watches nothing', async () => {
		await expectOk(
			await playground.request('POST', '/api/lists', {
				body: { name: 'auditlist', usernames: ['luna.explorer'] }
			})
		)
		for (const body of notObjects) {
			const failure = await expectFailure(
				await post('/api/lists/auditlist/watches', body),
				400,
				'bad_request'
			)
			expect({ body, error: failure.error }).toEqual({ body, error: 'Invalid body: expected a JSON object' })
		}
		expect((await expectOk(await playground.get('/api/watches'))).data).toEqual([])
	})

	it('POST lists/{name}/watches: an empty object takes the defaults (every 1d, no follower lists)', async () => {
		const answer = await expectOk(await post('/api/lists/auditlist/watches', '{}'))
		expect(answer.data.created).toHaveLength(1)
		expect(answer.data.created[0]).toMatchObject({ target: 'luna.explorer', every: '1d', followers: false })
	})

	it('every route with a body refuses one that is no object, with the same message', async () => {
		for (const path of bodyRoutes)
			for (const body of notObjects) {
				const response = await post(path, body)
				const answer = await response.json()
				expect({ path, body, status: response.status, error: answer.error }).toEqual({
					path,
					body,
					status: 400,
					error: 'Invalid body: expected a JSON object'
				})
			}
	})

	it('leaks no credential or absolute path', () => expectNoLeaks(playground))
})
