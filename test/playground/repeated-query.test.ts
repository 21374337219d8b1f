/**
 * A query parameter a route reads, given more than once (`count=5&count=6`), is a 400 naming it:
 * which of the values would count is nowhere said, so none is taken. Parameters a route does not
 * read stay ignored, repeated or not. (Every documented query parameter is also tried twice by the
 * OpenAPI response test.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness
beforeAll(async () => {
	playground = await startPlayground()
})
afterAll(async () => {
	expectNoLeaks(playground)
	await playground.stop()
})

/** GETs `pathname` and expects a 400 saying `name` was given more than once. */
async function expectRepeated(pathname: string, name: string) {
	const { status, body } = await playground.json(pathname)
	expect({ pathname, status, code: body.code }).toEqual({ pathname, status: 400, code: 'bad_request' })
	expect(body.error).toBe(`Invalid query parameter '${name}': given more than once; give it once`)
}

describe('repeated query parameters', () => {
	it('a count, cursor or search text given twice is a 400 naming it, whatever the values', async () => {
		await expectRepeated('/api/friendships/followers/1000000002?count=5&count=6', 'count')
		await expectRepeated('/api/friendships/followers/1000000002?count=5&count=5', 'count')
		await expectRepeated('/api/search/users?q=luna&count=3&q=mega', 'q')
		await expectRepeated('/api/feed/tag/sunset?cursor=a&cursor=b', 'cursor')
		// However the name is spelled in the URL.
		await expectRepeated('/api/friendships/followers/1000000002?co%75nt=5&count=6', 'count')
		await expectRepeated('/api/compare?users=luna.explorer,mega.travel&posts=3&posts=4', 'posts')
	})

	it('each parameter once still works, and parameters the route does not read are ignored', async () => {
		const once = await playground.json('/api/friendships/followers/1000000002?count=5&unused=1&unused=2')
		expect(once.status).toBe(200)
		expect(once.body.data).toHaveLength(5)
		const search = await playground.json('/api/search/users?q=mega&count=1')
		expect(search.status).toBe(200)
		expect(search.body.data[0].username).toBe('mega.travel')
	})
})
