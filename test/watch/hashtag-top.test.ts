/**
 * A hashtag watch's top posts come from a fixed pool of the tag's most recent posts, whatever the
 * page size of the endpoint that answers: with nothing changed, the REST fallback (pages of 20)
 * finds the same top posts as the GraphQL query (smaller pages), and the top is not one page's posts.
 */
import { expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { HASHTAG_CANDIDATE_POSTS, HASHTAG_TOP_POSTS, runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()

test('two runs a moment apart, one answered by the fallback, keep the same top posts of the same pool', async () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const ig = simulator.client()
	const options = { watches, jobs: new JobStore(store), ig }
	const watch = watches.create({ kind: 'hashtag', target: 'coffee', every_seconds: 86_400, followers: false })
	const first = await runWatch(watch, options)
	simulator.sim.faults.set({ kind: 'server_error', status: 500, format: 'json', pathPattern: 'graphql' })
	let second: Awaited<ReturnType<typeof runWatch>>
	try {
		second = await runWatch(watch, options)
	} finally {
		simulator.sim.faults.clear()
	}
	const pks = (snapshot: typeof first) => (snapshot.top_posts ?? []).map((post) => post.pk)
	expect(pks(first)).toHaveLength(HASHTAG_TOP_POSTS)
	expect(pks(second)).toEqual(pks(first))
	// The pool is the tag's most recent posts across pages, not the first page reordered.
	const recent = await ig.feed.getTagFeed('coffee', { count: HASHTAG_CANDIDATE_POSTS })
	expect(recent.items).toHaveLength(HASHTAG_CANDIDATE_POSTS)
	const firstPage = await ig.feed.getTagFeed('coffee')
	expect(firstPage.items.length).toBeLessThan(HASHTAG_CANDIDATE_POSTS)
	const engagement = (post: { like_count: number; comment_count: number }) =>
		post.like_count + post.comment_count
	const best = [...recent.items].sort((a, b) => engagement(b) - engagement(a)).slice(0, HASHTAG_TOP_POSTS)
	expect(new Set(pks(first))).toEqual(new Set(best.map((post) => post.pk)))
	store.close()
})
