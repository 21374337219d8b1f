/**
 * Pages in the agent's sandbox are what the client's pages are: `{ items, next_cursor }` that is
 * also async-iterable, so `for await` over a page walks the whole rest of the list, each following
 * page one more call of the run through the same bridge. Checked against the simulator's own data.
 */
import { describe, expect, it } from 'bun:test'
import { runInSandbox, type SandboxOptions } from '../../src/agent/sandbox'
import type { InstagramClient } from '../../src/client/client'
import { DEMO, useSimulator } from '../client/simulator-setup'

const context = useSimulator()

/** Sandbox options whose `ig` calls go to `ig` (a demo client); `calls` records each one. */
function through(ig: InstagramClient, methods: string[]) {
	const calls: unknown[][] = []
	const options: SandboxOptions = {
		methods,
		callMethod: async (path, args) => {
			calls.push(args)
			const [group, method] = path.split('.') as [string, string]
			const api = (ig as unknown as Record<string, Record<string, (...values: unknown[]) => unknown>>)[group]
			return api?.[method]?.(...args)
		},
		timeoutMs: 20_000
	}
	return { calls, options }
}

describe('for await over a page in the sandbox', () => {
	it('yields every follower exactly once, in order, carrying the method, its arguments and count', async () => {
		const expected = [...context.sim.state.followersOf(DEMO.luna.pk)]
		const { calls, options } = through(context.client(), ['friendships.getFollowers'])
		const result = await runInSandbox(
			`const pks = []
			for await (const user of await ig.friendships.getFollowers(${JSON.stringify(DEMO.luna.pk)}, { count: 40 })) pks.push(user.pk)
			return pks`,
			options
		)
		expect(result.error).toBeUndefined()
		expect(result.returnValue).toEqual(expected)
		expect(calls.length).toBe(Math.ceil(expected.length / 40))
		expect(calls[0]).toEqual([DEMO.luna.pk, { count: 40 }])
		expect(calls[1]).toEqual([DEMO.luna.pk, { count: 40, cursor: expect.any(String) }])
	})

	it('walks lists without an identifier or options, and lists sent in one piece', async () => {
		const state = context.sim.state
		const { options } = through(context.client(), ['feed.getLiked', 'media.getLikers'])
		const post = DEMO.posts[0][1]
		const media = state.media(post)
		const result = await runInSandbox(
			`const liked = [], likers = []
			for await (const media of await ig.feed.getLiked()) liked.push(media.pk)
			for await (const user of await ig.media.getLikers(${JSON.stringify(post)}, { count: 7 })) likers.push(user.pk)
			return { liked, likers }`,
			options
		)
		expect(result.error).toBeUndefined()
		expect(result.returnValue).toEqual({
			liked: state.likedMedia().map((liked) => String(liked.pk)),
			likers: media ? [...state.likersOf(media)] : []
		})
	})

	it('ends at a cursor it has seen already instead of reading its page again', async () => {
		const options: SandboxOptions = {
			methods: ['feed.getSaved'],
			// A misbehaving upstream: page two points back at itself.
			callMethod: async (_path, args) => {
				const cursor = (args[0] as { cursor?: string } | undefined)?.cursor
				return cursor ? { items: [cursor], next_cursor: 'two' } : { items: ['one'], next_cursor: 'two' }
			},
			timeoutMs: 5000
		}
		const result = await runInSandbox(
			'const seen = []; for await (const item of await ig.feed.getSaved()) seen.push(item); return seen',
			options
		)
		expect(result.returnValue).toEqual(['one', 'two'])
	})

	it('leaves the page as JSON data: items and next_cursor only', async () => {
		const { options } = through(context.client(), ['friendships.getFollowers'])
		const result = await runInSandbox(
			`const page = await ig.friendships.getFollowers(${JSON.stringify(DEMO.luna.pk)}, { count: 2 })
			return Object.keys(page)`,
			options
		)
		expect(result.returnValue).toEqual(['items', 'next_cursor'])
	})
})
