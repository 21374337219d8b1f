/**
 * A follower list a killed run left behind is continued by the next run only while it is fresh:
 * one that stood still for more than an hour is collected again from the start, so a snapshot never
 * holds followers of two different times (gone ones counted, new ones missed).
 */
import { expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { CONTINUE_LIST_SECONDS, runWatch } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch } from '../../src/watch/types'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()

/** A watch of mega.travel's followers whose first run was stopped after two of its 27 pages. */
async function interruptedWatch() {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const ig = simulator.client()
	const watch = watches.create({
		kind: 'account',
		target: 'mega.travel',
		every_seconds: 3600,
		followers: true
	})
	const controller = new AbortController()
	let pages = 0
	await runWatch(watch, {
		watches,
		jobs,
		ig,
		signal: controller.signal,
		beforePage: async () => {
			if (++pages === 3) controller.abort(new Error('killed'))
		}
	}).catch(() => undefined)
	const pending = watches.pendingJob(watch.id) as number
	expect(jobs.get(pending)?.collected).toBe(400)
	/** Runs the watch again; returns the follower pages it asked Instagram for (by max_id) and its snapshot. */
	const runAgain = async () => {
		simulator.sent.length = 0
		const snapshot = await runWatch(watches.get(watch.id) as Watch, { watches, jobs, ig })
		const pageCursors = simulator.sent
			.filter((sent) => sent.url.pathname.endsWith('/followers/'))
			.map((sent) => sent.url.searchParams.get('max_id'))
		return { snapshot, pageCursors }
	}
	const standStill = (seconds: number) =>
		store.db
			.query('UPDATE jobs SET updated_at = ? WHERE id = ?')
			.run(new Date(Date.now() - seconds * 1000).toISOString(), pending)
	const listOf = () => watches.lastFollowerJob(watch.id) as number
	return { jobs, pending, runAgain, standStill, listOf }
}

test('a list that stood still under an hour is continued from its last stored page', async () => {
	const { jobs, pending, runAgain, standStill, listOf } = await interruptedWatch()
	standStill(CONTINUE_LIST_SECONDS - 120)
	const { snapshot, pageCursors } = await runAgain()
	expect(pageCursors[0]).not.toBeNull()
	expect(pageCursors).toHaveLength(25)
	expect(listOf()).toBe(pending)
	expect(snapshot.follower_list_size).toBe(5400)
	expect(jobs.get(pending)?.collected).toBe(5400)
})

test('a list that stood still for more than an hour is collected again from the start', async () => {
	const { jobs, pending, runAgain, standStill, listOf } = await interruptedWatch()
	standStill(CONTINUE_LIST_SECONDS + 120)
	const { snapshot, pageCursors } = await runAgain()
	expect(pageCursors[0]).toBeNull()
	expect(pageCursors).toHaveLength(27)
	expect(snapshot.follower_list_size).toBe(5400)
	expect(jobs.get(listOf())?.collected).toBe(5400)
	expect(new Set([...jobs.records(listOf())].map((user) => (user as { pk: string }).pk)).size).toBe(5400)
	expect(listOf()).toBe(pending)
})
