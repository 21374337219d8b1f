/**
 * A move of demo time drops the follower lists of watch runs not yet stored (they describe the
 * world before the move): the next run collects its list again. A snapshot's list, and a list a live
 * process is walking, are left alone.
 */
import { expect, test } from 'bun:test'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { dropUnstoredLists, WATCH_JOB_OWNER } from '../../src/watch/follower-lists'
import { WatchStore } from '../../src/watch/store'

test('unstored lists are dropped, a snapshot’s list and one being walked are kept', () => {
	const store = openStore(':memory:')
	const watches = new WatchStore(store)
	const jobs = new JobStore(store)
	const spec = (target: string) => ({
		kind: 'account' as const,
		target,
		every_seconds: 86_400,
		followers: true
	})
	const [left, walked, stored] = ['luna.explorer', 'mega.travel', 'xss.payload'].map((target) => {
		const watch = watches.create(spec(target))
		const job = jobs.create({ kind: 'followers', target }, WATCH_JOB_OWNER)
		watches.setPendingJob(watch.id, job.id)
		return { watch, job }
	})
	jobs.setStatus(left.job.id, 'done')
	// This process walks mega.travel's list now.
	store.db.query('UPDATE jobs SET runner_pid = ? WHERE id = ?').run(process.pid, walked.job.id)
	// xss.payload's list is already its snapshot's (and, as a run left it, still named pending).
	watches.addSnapshot(
		stored.watch.id,
		{ takenAt: new Date().toISOString(), followerJobId: stored.job.id },
		new Date()
	)
	watches.setPendingJob(stored.watch.id, stored.job.id)

	expect(dropUnstoredLists(store)).toBe(1)
	expect(jobs.get(left.job.id)).toBeUndefined()
	expect(watches.pendingJob(left.watch.id)).toBeNull()
	expect(watches.pendingJob(walked.watch.id)).toBe(walked.job.id)
	expect(jobs.get(walked.job.id)).toBeDefined()
	expect(jobs.get(stored.job.id)).toBeDefined()
	store.close()
})
