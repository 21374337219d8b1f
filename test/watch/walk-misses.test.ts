/**
 * A follower list that moves while a watch walks it: followers who leave from the part already
 * walked pull the rest one place up, and the walk skips one who stayed. Such a follower must not
 * show up as lost in the diff: the run looks each follower of the previous list that the walk did
 * not see up by name before it stores the snapshot.
 */
import { expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { LOOKUP_ATTEMPTS, MAX_RECHECKS } from '../../src/watch/recheck'
import { runWatch, WatchRunError } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch } from '../../src/watch/types'
import { useSimulator } from '../client/simulator-setup'
import { followerPks, advanceClock as moveClock } from './support'

const simulator = useSimulator()

const advanceClock = (hours: number) => moveClock(simulator.sim.url, hours)

/**
 * Watches mega.travel's 5,400 followers: a first run, then a second during which 48 demo hours
 * pass after 24 of the list's 27 pages, so followers leave from the walked part. Returns the lists
 * before and after, the second run's stored list and the diff.
 */
async function runTwiceWhileTheListMoves() {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const ig = simulator.client()
	const created = watches.create({
		kind: 'account',
		target: 'mega.travel',
		every_seconds: 86_400,
		followers: true
	})
	const pk = (await ig.users.getByUsername('mega.travel')).pk
	const first = await runWatch(created, { watches, jobs, ig })
	const before = await followerPks(ig, pk)
	expect(first.follower_list_size).toBe(before.size)
	simulator.sent.length = 0
	let pages = 0
	const second = await runWatch(watches.get(created.id) as Watch, {
		watches,
		jobs,
		ig,
		backoffMs: 1,
		beforePage: async () => {
			pages++
			if (pages === 25) await advanceClock(48)
		}
	})
	const lookUps = simulator.sent.filter((sent) => sent.url.searchParams.has('query'))
	const after = await followerPks(ig, pk)
	const { job } = store.db
		.query<{ job: number }, [number]>('SELECT follower_job_id AS job FROM watch_snapshots WHERE id = ?')
		.get(second.id) as { job: number }
	const listed = new Set([...jobs.records(job)].map((user) => (user as { pk: string }).pk))
	const diff = watches.diff(created.id, first.id, second.id)
	const lost = (diff?.lost ?? []).map((user) => (user as { pk: string }).pk)
	return { pk, before, after, second, listed, lost, lookUps }
}

test('a follower the walk skipped while the list moved is found by name: the diff calls no current follower lost', async () => {
	const { pk, before, after, second, listed, lost, lookUps } = await runTwiceWhileTheListMoves()
	const stayedButUnlisted = [...before].filter((follower) => after.has(follower) && !listed.has(follower))
	expect(stayedButUnlisted).toEqual([])
	expect(lost.length).toBeGreaterThan(0)
	expect(lost.filter((follower) => after.has(follower))).toEqual([])
	expect(second.follower_list_size).toBe(listed.size)
	// One look-up per follower of the first list the walk did not return: those who left, and the
	// ones found again (there were some: the walk skipped followers who stayed).
	expect(lookUps.length).toBeGreaterThan(lost.length)
	expect(lookUps.length).toBeLessThanOrEqual(MAX_RECHECKS)
	for (const sent of lookUps) {
		expect(sent.url.pathname).toBe(`/api/v1/friendships/${pk}/followers/`)
		expect(sent.url.searchParams.get('search_surface')).toBe('follow_list_page')
	}
})

test('when the look-ups keep failing the run fails: no snapshot calls the followers it could not check lost', async () => {
	simulator.sim.faults.set({ kind: 'server_error', status: 500, pathPattern: 'query=' })
	try {
		const failed = await runTwiceWhileTheListMoves().then(
			() => undefined,
			(error: unknown) => error
		)
		expect(failed).toBeInstanceOf(WatchRunError)
		expect((failed as WatchRunError).code).toBe('upstream_error')
		// The first look-up, asked again with back-off, then the run gives up: one follower asked about.
		const lookUps = simulator.sent.filter((sent) => sent.url.searchParams.has('query'))
		expect(new Set(lookUps.map((sent) => sent.url.searchParams.get('query'))).size).toBe(1)
		expect(lookUps).toHaveLength(LOOKUP_ATTEMPTS)
	} finally {
		simulator.sim.faults.clear()
	}
})
