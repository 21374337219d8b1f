/**
 * A watch run stores only what Instagram said: a profile answer without its counts (a malformed 200)
 * or without its user fails the run, with no snapshot of zeros, and the next run works; a tag feed
 * walk that stopped early (fewer posts than the pool, a cursor still to follow) fails the run rather
 * than picking the top posts of a partial pool.
 */
import { afterEach, expect, test } from 'bun:test'
import { IgApiError } from '../../src/client/errors'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch, WatchSpec } from '../../src/watch/types'
import { DEMO, useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
afterEach(() => simulator.sim.faults.clear())

/** A profile answer whose user has its id and username but none of its counts. */
const WITHOUT_COUNTS = `{"data":{"user":{"id":"${DEMO.luna.pk}","username":"${DEMO.luna.username}"}},"status":"ok"}`

function watchOf(spec: Pick<WatchSpec, 'kind' | 'target'> & { followers?: boolean }) {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const watch = watches.create({ every_seconds: 86_400, followers: false, ...spec })
	const ig = simulator.client()
	return { store, watches, jobs, ig, watch, options: { watches, jobs, ig } }
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
	return promise.then(
		(value) => {
			throw new Error(`expected the run to fail, it stored ${JSON.stringify(value)}`)
		},
		(error: unknown) => error
	)
}

for (const [what, body] of [
	['without its counts', WITHOUT_COUNTS],
	['without its user', '{"status":"ok"}']
] as const)
	test(`a profile answer ${what} fails the run: no snapshot; the next run stores the real counts`, async () => {
		const { store, watches, ig, watch, options } = watchOf({ kind: 'account', target: DEMO.luna.username })
		simulator.sim.faults.set({ kind: 'wrong_shape', body, pathPattern: 'web_profile_info' })
		const error = await failure(runWatch(watch, options))
		expect(error).toBeInstanceOf(IgApiError)
		expect((error as IgApiError).kind).toBe('upstream_error')
		const failed = watches.get(watch.id) as Watch
		expect(failed.snapshots).toBe(0)
		expect(failed.last_status).toBe('failed')
		simulator.sim.faults.clear()
		const snapshot = await runWatch(failed, options)
		const profile = await ig.users.getByUsername(DEMO.luna.username)
		expect(profile.follower_count).toBeGreaterThan(0)
		expect([snapshot.followers, snapshot.following, snapshot.posts]).toEqual([
			profile.follower_count,
			profile.following_count,
			profile.media_count
		])
		store.close()
	})

test('counts missing after the follower list fail the run; the next run stores the list with real counts', async () => {
	const { store, watches, jobs, ig, watch, options } = watchOf({
		kind: 'account',
		target: DEMO.luna.username,
		followers: true
	})
	// The counts read before the walk are fine; the read once the list is complete is not.
	const error = await failure(
		runWatch(watch, {
			...options,
			beforePage: async () => {
				simulator.sim.faults.set({
					kind: 'wrong_shape',
					body: WITHOUT_COUNTS,
					pathPattern: 'web_profile_info'
				})
			}
		})
	)
	expect((error as IgApiError).kind).toBe('upstream_error')
	expect((watches.get(watch.id) as Watch).snapshots).toBe(0)
	const pending = watches.pendingJob(watch.id) as number
	expect(jobs.get(pending)?.status).toBe('done')
	simulator.sim.faults.clear()
	const snapshot = await runWatch(watches.get(watch.id) as Watch, options)
	const profile = await ig.users.getByUsername(DEMO.luna.username)
	expect(snapshot.followers).toBe(profile.follower_count)
	expect(snapshot.follower_list_size).toBe(jobs.get(pending)?.collected ?? -1)
	store.close()
})

test('a tag feed walk that stops early fails the run: no snapshot of a partial pool, no top posts changed', async () => {
	const { store, watches, watch, options } = watchOf({ kind: 'hashtag', target: 'coffee' })
	const first = await runWatch(watch, options)
	// The same feed page again under new cursors: the walk stops with fewer posts and a cursor.
	simulator.sim.faults.set({ kind: 'stale_page', times: 8, pathPattern: 'graphql' })
	const error = await failure(runWatch(watches.get(watch.id) as Watch, options))
	expect((error as IgApiError).kind).toBe('upstream_error')
	expect((error as Error).message).toContain('stopped early')
	expect((watches.get(watch.id) as Watch).snapshots).toBe(1)
	simulator.sim.faults.clear()
	const next = await runWatch(watches.get(watch.id) as Watch, options)
	const diff = watches.diff(watch.id, first.id, next.id)
	expect(diff?.top_posts).toEqual({ entered: [], left: [], stayed: first.top_posts?.length ?? -1 })
	store.close()
})
