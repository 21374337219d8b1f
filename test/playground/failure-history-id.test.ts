/**
 * Every answer recorded in the history names its entry in X-Smkit-History-Id, failures included:
 * an error thrown by a route (Instagram's 404, a bad parameter) is recorded by the app's error
 * hook, and its answer carries the same id as the history entry.
 */
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness

beforeAll(async () => {
	playground = await startPlayground()
})
afterAll(async () => {
	await playground.stop()
})

it.each([
	['/api/users/username/no.such.account', 404],
	['/api/friendships/followers/1000000002?count=abc', 400]
])('a failed %s names its history entry', async (path, status) => {
	const response = await playground.request('GET', path)
	expect(response.status).toBe(status)
	const history = (await playground.json('/api/history')).body.data
	expect(history[0]).toMatchObject({ path, status, success: false })
	expect(response.headers.get('x-smkit-history-id')).toBe(String(history[0].id))
})
