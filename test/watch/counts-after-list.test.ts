/**
 * An account snapshot's counts describe the moment its follower list was complete, as its
 * `taken_at` does: followers who come and go during the walk change the counts read before it, so
 * a run that collects the list reads them again afterwards. When that read fails, the run fails and
 * keeps its list: a retry within the hour stores it with counts read then, without a new walk.
 */
import { expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch } from '../../src/watch/types'
import { useSimulator } from '../client/simulator-setup'
import { advanceClock as moveClock } from './support'

const simulator = useSimulator()

const advanceClock = (hours: number) => moveClock(simulator.sim.url, hours)

function watchOf(target: string) {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const watch = watches.create({ kind: 'account', target, every_seconds: 86_400, followers: true })
	return { watches, jobs, watch }
}

test('the counts are read once the follower list is complete: the clock moved during the walk shows in them', async () => {
	const { watches, jobs, watch } = watchOf('mega.travel')
	const ig = simulator.client()
	const before = await ig.users.getByUsername('mega.travel')
	let pages = 0
	const snapshot = await runWatch(watch, {
		watches,
		jobs,
		ig,
		beforePage: async () => {
			if (++pages === 10) await advanceClock(48)
		}
	})
	const after = await ig.users.getByUsername('mega.travel')
	expect(after.follower_count).not.toBe(before.follower_count)
	expect(snapshot.followers).toBe(after.follower_count)
	expect(snapshot.following).toBe(after.following_count)
	expect(snapshot.posts).toBe(after.media_count)
})

test('a failed read of the counts after the list fails the run; the retry stores the list without a new walk', async () => {
	const { watches, jobs, watch } = watchOf('luna.explorer')
	const ig = simulator.client({ maxRetries: 0 })
	const failed = await runWatch(watch, {
		watches,
		jobs,
		ig,
		onEvent: (event) => {
			if (event.type === 'status' && event.job.status === 'done')
				simulator.sim.faults.set({ kind: 'server_error', status: 500, pathPattern: 'web_profile_info' })
		}
	}).catch((error: Error) => error)
	simulator.sim.faults.clear()
	expect(failed).toBeInstanceOf(Error)
	expect(watches.snapshots(watch.id)).toHaveLength(0)
	expect(watches.get(watch.id)?.last_status).toBe('failed')
	const list = watches.pendingJob(watch.id) as number
	expect(jobs.get(list)?.status).toBe('done')
	simulator.sent.length = 0
	const snapshot = await runWatch(watches.get(watch.id) as Watch, { watches, jobs, ig })
	expect(simulator.sent.filter((sent) => sent.url.pathname.endsWith('/followers/'))).toHaveLength(0)
	expect(watches.lastFollowerJob(watch.id)).toBe(list)
	expect(snapshot.followers).toBe((await ig.users.getByUsername('luna.explorer')).follower_count)
})
