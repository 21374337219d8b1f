/**
 * The rechecks of a watch run (src/watch/recheck.ts) never leave a follower who stayed called lost:
 * a look-up refused for a while (429 with Retry-After) is asked again after the wait; look-ups that
 * keep failing fail the run, no snapshot stored, its walked list kept so the next run only redoes
 * them; followers beyond the run's look-up cap are kept in the list marked `unchecked` (and looked up
 * first by the next run) rather than called lost.
 */
import { afterEach, expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'
import { runWatch, WatchRunError } from '../../src/watch/run'
import { WatchStore } from '../../src/watch/store'
import type { Watch } from '../../src/watch/types'
import { useSimulator } from '../client/simulator-setup'
import { followerPks, advanceClock as moveClock } from './support'

const simulator = useSimulator()
afterEach(() => simulator.sim.faults.clear())

const advanceClock = (hours: number) => moveClock(simulator.sim.url, hours)

const jobOf = (store: Store, snapshotId: number) =>
	(
		store.db
			.query<{ job: number }, [number]>('SELECT follower_job_id AS job FROM watch_snapshots WHERE id = ?')
			.get(snapshotId) as { job: number }
	).job

/** mega.travel watched with followers, its first snapshot taken; look-ups timed as they are sent. */
async function watchedOnce() {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const lookUps: number[] = []
	const ig = simulator.client({
		retryBaseDelayMs: 1,
		fetch: (url, init) => {
			if (url.searchParams.has('query')) lookUps.push(Date.now())
			simulator.sent.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers) })
			return fetch(url, init)
		}
	})
	const watch = watches.create({
		kind: 'account',
		target: 'mega.travel',
		every_seconds: 86_400,
		followers: true
	})
	const pk = (await ig.users.getByUsername('mega.travel')).pk
	const first = await runWatch(watch, { watches, jobs, ig })
	const options = { watches, jobs, ig, backoffMs: 1 }
	return { store, watches, jobs, ig, watch, pk, first, lookUps, options }
}

/** Runs the watch again with 48 demo hours passing after 24 of the list's 27 pages. */
function runWhileTheListMoves(context: Awaited<ReturnType<typeof watchedOnce>>) {
	let pages = 0
	return runWatch(context.watches.get(context.watch.id) as Watch, {
		...context.options,
		beforePage: async () => {
			if (++pages === 25) await advanceClock(48)
		}
	})
}

/** The followers of snapshot `from` who still follow now but the diff to `to` calls lost. */
async function falselyLost(context: Awaited<ReturnType<typeof watchedOnce>>, from: number, to: number) {
	const now = await followerPks(context.ig, context.pk)
	const diff = context.watches.diff(context.watch.id, from, to)
	return (diff?.lost ?? []).map((user) => (user as { pk: string }).pk).filter((pk) => now.has(pk))
}

test('a look-up answered 429 a few times is asked again after its Retry-After: no follower who stayed is called lost', async () => {
	const context = await watchedOnce()
	// More 429s than the client's own retries (3) take: before, the first look-up failed and ended them.
	simulator.sim.faults.set({ kind: 'rate_limit', retryAfter: 1, times: 4, pathPattern: 'query=' })
	const second = await runWhileTheListMoves(context)
	expect(await falselyLost(context, context.first.id, second.id)).toEqual([])
	// Four refusals, then the answer, each after the second the refusal asked for.
	const [first, ...retries] = context.lookUps
	expect(retries.length).toBeGreaterThanOrEqual(4)
	let previous = first as number
	for (const at of retries.slice(0, 4)) {
		expect(at - previous).toBeGreaterThanOrEqual(950)
		previous = at
	}
	context.store.close()
})

test('look-ups that keep failing fail the run: no snapshot; the next run redoes only the look-ups', async () => {
	const context = await watchedOnce()
	simulator.sim.faults.set({ kind: 'rate_limit', retryAfter: 1, pathPattern: 'query=' })
	const error = await runWhileTheListMoves(context).then(
		() => undefined,
		(failure: unknown) => failure
	)
	expect(error).toBeInstanceOf(WatchRunError)
	expect((error as WatchRunError).code).toBe('rate_limited')
	expect((error as Error).message).toContain('no snapshot stored')
	const watch = context.watches.get(context.watch.id) as Watch
	expect(watch.snapshots).toBe(1)
	expect(watch.last_status).toBe('failed')
	// The walked list is kept for the next run.
	const pending = context.watches.pendingJob(watch.id)
	expect(pending).not.toBeNull()
	expect(context.jobs.get(pending as number)?.status).toBe('done')
	simulator.sim.faults.clear()
	simulator.sent.length = 0
	const third = await runWatch(watch, context.options)
	expect(jobOf(context.store, third.id)).toBe(pending as number)
	const pages = simulator.sent.filter(
		(sent) => sent.url.pathname.endsWith('/followers/') && !sent.url.searchParams.has('query')
	)
	expect(pages).toEqual([])
	expect(simulator.sent.some((sent) => sent.url.searchParams.has('query'))).toBe(true)
	expect(await falselyLost(context, context.first.id, third.id)).toEqual([])
	context.store.close()
})

test('followers beyond the look-up cap are kept marked unchecked, not called lost, and looked up first next run', async () => {
	const context = await watchedOnce()
	const { store, watches, jobs, watch, first } = context
	// A walk that missed 5 followers who all still follow (the list as stored, less 5 of them).
	const firstList = [...jobs.records(jobOf(store, first.id))] as { pk: string; username: string }[]
	const skipped = firstList.slice(100, 105)
	const walked = () => {
		const job = jobs.create({ kind: 'followers', target: watch.target }, 'watch')
		jobs.setTarget(job.id, context.pk, null)
		jobs.addRecords(
			job.id,
			firstList.filter((user) => !skipped.includes(user)).map((user) => ({ key: user.pk, data: user }))
		)
		jobs.setStatus(job.id, 'done')
		watches.setPendingJob(watch.id, job.id)
		return job.id
	}
	const secondJob = walked()
	const second = await runWatch(watches.get(watch.id) as Watch, { ...context.options, maxRechecks: 2 })
	expect(jobOf(store, second.id)).toBe(secondJob)
	expect(context.lookUps).toHaveLength(2)
	expect(watches.diff(watch.id, first.id, second.id)?.lost).toEqual([])
	const listed = [...jobs.records(secondJob)] as { pk: string; unchecked?: boolean }[]
	const unchecked = listed.filter((user) => user.unchecked === true).map((user) => user.pk)
	expect(unchecked.sort()).toEqual(
		skipped
			.slice(2)
			.map((user) => user.pk)
			.sort()
	)
	// The list's size counts the followers seen (walked or found), not those kept unchecked.
	expect(listed).toHaveLength(firstList.length)
	expect(second.follower_list_size).toBe(firstList.length - 3)
	// The next walk misses them again: the unchecked ones are looked up first, and still follow.
	context.lookUps.length = 0
	walked()
	const third = await runWatch(watches.get(watch.id) as Watch, { ...context.options, maxRechecks: 3 })
	expect(context.lookUps).toHaveLength(3)
	expect(watches.diff(watch.id, second.id, third.id)?.lost).toEqual([])
	const thirdList = [...jobs.records(jobOf(store, third.id))] as { pk: string; unchecked?: boolean }[]
	expect(thirdList.filter((user) => unchecked.includes(user.pk) && !user.unchecked)).toHaveLength(3)
	store.close()
})
