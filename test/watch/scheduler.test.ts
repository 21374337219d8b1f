/**
 * The watch scheduler: due watches run once each (a watch overdue by several intervals too), runs of
 * one watch join, and background runs leave half of every client budget to interactive requests.
 */
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/client/rate-limit'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { hasHeadroom, WatchScheduler, waitForHeadroom } from '../../src/watch/scheduler'
import { WatchStore } from '../../src/watch/store'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()

function scheduler() {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	return {
		store,
		watches,
		scheduler: new WatchScheduler({
			watches,
			jobs: new JobStore(store),
			ig: simulator.client(),
			log: () => {}
		})
	}
}

const DAY = 86_400

describe('WatchScheduler', () => {
	test('runs each due watch once, the longest overdue first; a watch five intervals late runs once', async () => {
		const { store, watches, scheduler: runner } = scheduler()
		const late = watches.create({
			kind: 'account',
			target: 'luna.explorer',
			every_seconds: DAY,
			followers: false
		})
		const due = watches.create({ kind: 'hashtag', target: 'sunset', every_seconds: 3600, followers: false })
		const later = watches.create({
			kind: 'account',
			target: 'mega.travel',
			every_seconds: DAY,
			followers: false
		})
		const set = store.db.query('UPDATE watches SET next_run_at = ? WHERE id = ?')
		set.run(new Date(Date.now() - 5 * DAY * 1000).toISOString(), late.id)
		set.run(new Date(Date.now() + DAY * 1000).toISOString(), later.id)
		const started = Date.now()
		const outcomes = await runner.runDue()
		expect(outcomes.map((outcome) => [outcome.watch.id, outcome.error])).toEqual([
			[late.id, undefined],
			[due.id, undefined]
		])
		expect(watches.snapshots(late.id)).toHaveLength(1)
		expect(watches.snapshots(later.id)).toHaveLength(0)
		// The next run is one interval after this run, not the five missed ones replayed.
		expect(Date.parse(watches.get(late.id)?.next_run_at as string)).toBeGreaterThanOrEqual(
			started + DAY * 1000
		)
		expect(await runner.runDue()).toEqual([])
		await runner.stop()
	})

	test('a second run of a watch while it runs joins the first', async () => {
		const { watches, scheduler: runner } = scheduler()
		const watch = watches.create({
			kind: 'account',
			target: 'luna.explorer',
			every_seconds: DAY,
			followers: true
		})
		const [first, second] = await Promise.all([runner.run(watch.id), runner.run(watch.id)])
		expect(second.id).toBe(first.id)
		expect(watches.snapshots(watch.id)).toHaveLength(1)
		await runner.stop()
	})
})

describe('budget headroom', () => {
	test('background work waits while a budget is more than half used, and goes on once it is not', async () => {
		const limiter = new RateLimiter({ get_followers: { limit: 4, windowMs: 300 } })
		expect(hasHeadroom(limiter, ['get_followers'])).toBe(true)
		await limiter.acquire('get_followers', 'test')
		await limiter.acquire('get_followers', 'test')
		expect(hasHeadroom(limiter, ['get_followers'])).toBe(true)
		await limiter.acquire('get_followers', 'test')
		expect(hasHeadroom(limiter, ['get_followers'])).toBe(false)
		await waitForHeadroom(limiter, new AbortController().signal, 20)
		expect(hasHeadroom(limiter, ['get_followers'])).toBe(true)
		// Without budgets (demo mode) there is nothing to wait for.
		expect(hasHeadroom(new RateLimiter(false), ['get_followers'])).toBe(true)
	})
})
