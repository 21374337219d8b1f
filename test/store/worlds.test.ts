/**
 * Demo and real data never mix in one store: a job or a watch carries the Instagram it reads (demo
 * mode's simulator or Instagram), and a process continues, resumes or runs only those of its own.
 * Rows from before the column are stamped from what they hold, or by their first run.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobManager, JobStateError } from '../../src/jobs/manager'
import { outsideView } from '../../src/jobs/outside'
import { JobWorldError, runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { MIGRATIONS } from '../../src/store/migrations'
import { WatchScheduler } from '../../src/watch/scheduler'
import { WatchStore } from '../../src/watch/store'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-worlds-'))
	store = openStore(join(folder, 'smkit.db'))
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

const spec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username, limit: 20 }

describe('jobs', () => {
	test('a rerun continues only a job of its own Instagram; the other one is left as it was', () => {
		const demo = new JobStore(store, { demo: true })
		const real = new JobStore(store, { demo: false })
		const demoJob = demo.create(spec, 'cli')
		demo.setStatus(demoJob.id, 'paused')
		expect(demoJob.demo).toBe(true)
		expect(real.findUnfinished(spec, 'cli')).toBeUndefined()
		const claimed = real.claimUnfinishedOrCreate(spec, 'cli')
		expect(claimed.continued).toBe(false)
		expect(claimed.job.id).not.toBe(demoJob.id)
		expect(claimed.job.demo).toBe(false)
		real.release(claimed.job.id)
		real.setStatus(claimed.job.id, 'paused')
		// Each side finds its own; a reader without a world sees the newest.
		expect(demo.findUnfinished(spec, 'cli')?.id).toBe(demoJob.id)
		expect(real.findUnfinished(spec, 'cli')?.id).toBe(claimed.job.id)
		expect(new JobStore(store).findUnfinished(spec, 'cli')?.id).toBe(claimed.job.id)
		expect(demo.get(demoJob.id)?.status).toBe('paused')
	})

	test('jobs left running are resumed at start only by a process of their Instagram', () => {
		const demo = new JobStore(store, { demo: true })
		const job = demo.create(spec)
		demo.setStatus(job.id, 'running')
		expect(new JobStore(store, { demo: false }).interrupted('playground')).toEqual([])
		expect(demo.interrupted('playground').map((found) => found.id)).toEqual([job.id])
	})

	test('a job of the other Instagram is neither resumed nor run, with what to do', async () => {
		const job = new JobStore(store, { demo: true }).create(spec)
		const real = new JobStore(store, { demo: false })
		real.setStatus(job.id, 'paused')
		const manager = new JobManager({ jobs: real, ig: simulator.client() })
		try {
			expect(() => manager.resume(job.id)).toThrow(JobStateError)
			expect(() => manager.resume(job.id)).toThrow(
				`Job ${job.id} collects from demo mode's simulated Instagram: continue it with --demo`
			)
			await expect(runJob(real, job.id, { ig: simulator.client() })).rejects.toThrow(JobWorldError)
			expect(real.get(job.id)).toMatchObject({ status: 'paused', collected: 0 })
			expect(real.otherWorld({ id: 7, demo: false })).toBeUndefined()
			expect(new JobStore(store, { demo: true }).otherWorld({ id: 7, demo: false })).toBe(
				'Job 7 collects from Instagram: continue it without --demo (a job never mixes demo and real records)'
			)
		} finally {
			await manager.stop()
		}
	})

	test("a job from an older store with nothing stored forgets the other Instagram's id of its target", async () => {
		const job = new JobStore(store).create(spec)
		// Resolved in the demo before the store knew worlds: the simulator's pk of another account.
		new JobStore(store).setTarget(job.id, DEMO_PRESETS.mega.pk, 5400)
		const real = new JobStore(store, { demo: false })
		expect(real.claim(job.id)).toBe(true)
		expect(real.position(job.id)).toEqual({ targetId: null, cursor: null })
		expect(real.get(job.id)).toMatchObject({ demo: false, total: null })
		real.release(job.id)
		const done = await runJob(real, job.id, { ig: simulator.client() })
		expect(done).toMatchObject({ status: 'done', collected: 20 })
		expect(real.position(job.id).targetId).toBe(DEMO_PRESETS.luna.pk)
	})

	test('where a job of a server continues says which Instagram', () => {
		const job = new JobStore(store, { demo: true }).create(spec, 'playground')
		store.db.query(`UPDATE jobs SET status = 'running', runner_pid = NULL WHERE id = ?`).run(job.id)
		const shown = outsideView(new JobStore(store), new JobStore(store).get(job.id) as never)
		expect(shown.error).toBe(
			'Stopped when the playground ended: it continues when the playground (with --demo) starts again on this store'
		)
	})

	test('a job not known to be demo or real becomes what its first runner reads', async () => {
		const job = new JobStore(store).create(spec)
		expect(job.demo).toBeNull()
		const demo = new JobStore(store, { demo: true })
		const done = await runJob(demo, job.id, { ig: simulator.client() })
		expect(done).toMatchObject({ status: 'done', collected: 20, demo: true })
		expect(new JobStore(store, { demo: false }).otherWorld(done)).toContain('with --demo')
	})
})

describe('watches', () => {
	test("only watches of the process's Instagram are due, and only those run", async () => {
		const demo = new WatchStore(store, { demo: true })
		const real = new WatchStore(store, { demo: false })
		const watch = demo.create({
			kind: 'account',
			target: DEMO_PRESETS.luna.username,
			every_seconds: 3600,
			followers: false
		})
		expect(watch.demo).toBe(true)
		expect(real.due().map((due) => due.id)).toEqual([])
		expect(demo.due().map((due) => due.id)).toEqual([watch.id])
		const jobs = new JobStore(store, { demo: false })
		const scheduler = new WatchScheduler({ watches: real, jobs, ig: simulator.client() })
		try {
			await expect(scheduler.run(watch.id)).rejects.toThrow(
				`Watch ${watch.id} watches demo mode's simulated Instagram: run it with --demo`
			)
			expect(real.snapshots(watch.id)).toEqual([])
		} finally {
			await scheduler.stop()
		}
	})

	test('a follower list begun from the other Instagram is not continued: the run starts its own', async () => {
		const demoJobs = new JobStore(store, { demo: true })
		const pending = demoJobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username }, 'watch')
		demoJobs.setStatus(pending.id, 'paused')
		const watches = new WatchStore(store, { demo: false })
		const watch = watches.create({
			kind: 'account',
			target: DEMO_PRESETS.luna.username,
			every_seconds: 3600,
			followers: true
		})
		watches.setPendingJob(watch.id, pending.id)
		const scheduler = new WatchScheduler({
			watches,
			jobs: new JobStore(store, { demo: false }),
			ig: simulator.client()
		})
		try {
			const snapshot = await scheduler.run(watch.id)
			expect(snapshot.follower_list_size).toBeGreaterThan(0)
		} finally {
			await scheduler.stop()
		}
		// Replaced, it belongs to nothing: deleted, not left behind.
		expect(demoJobs.get(pending.id)).toBeUndefined()
	})

	test('a watch not known to be demo or real becomes what its first run reads', async () => {
		const watch = new WatchStore(store).create({
			kind: 'hashtag',
			target: 'sunset',
			every_seconds: 3600,
			followers: false
		})
		expect(watch.demo).toBeNull()
		const demo = new WatchStore(store, { demo: true })
		const scheduler = new WatchScheduler({
			watches: demo,
			jobs: new JobStore(store, { demo: true }),
			ig: simulator.client()
		})
		try {
			await scheduler.run(watch.id)
		} finally {
			await scheduler.stop()
		}
		expect(demo.get(watch.id)?.demo).toBe(true)
		expect(new WatchStore(store, { demo: false }).due()).toEqual([])
	})
})

test('an older store is stamped from what it holds: demo pictures, real ones, or nothing yet', () => {
	const path = join(folder, 'old.db')
	const before = MIGRATIONS.filter((migration) => migration.id !== 'worlds-1')
	const old = openStore(path, before)
	const time = new Date().toISOString()
	const job = (target: string) =>
		(
			old.db
				.query<{ id: number }, [string, string, string]>(
					`INSERT INTO jobs (kind, target, created_at, updated_at, status) VALUES ('followers', ?, ?, ?, 'paused') RETURNING id`
				)
				.get(target, time, time) as { id: number }
		).id
	const record = (jobId: number, seq: number, picture: string) =>
		old.db
			.query('INSERT INTO job_records (job_id, record_key, seq, data) VALUES (?, ?, ?, ?)')
			.run(jobId, String(seq), seq, JSON.stringify({ pk: String(seq), profile_pic_url: picture }))
	const demoJob = job('luna.explorer')
	record(demoJob, 1, 'http://127.0.0.1:40001/__sim/img/u1.jpg')
	const realJob = job('natgeo')
	record(realJob, 1, 'https://scontent.cdninstagram.com/v/t51/1.jpg')
	const emptyJob = job('empty')
	const watch = (kind: string, target: string) =>
		(
			old.db
				.query<{ id: number }, [string, string, string, string]>(
					`INSERT INTO watches (kind, target, every_seconds, next_run_at, created_at) VALUES (?, ?, 3600, ?, ?) RETURNING id`
				)
				.get(kind, target, time, time) as { id: number }
		).id
	const followersWatch = watch('account', 'luna.explorer')
	old.db
		.query(`INSERT INTO watch_snapshots (watch_id, taken_at, follower_job_id) VALUES (?, ?, ?)`)
		.run(followersWatch, time, demoJob)
	const hashtagWatch = watch('hashtag', 'sunset')
	old.db
		.query(`INSERT INTO watch_snapshots (watch_id, taken_at, media_count, top_posts) VALUES (?, ?, 3, ?)`)
		.run(hashtagWatch, time, JSON.stringify([{ thumbnail_url: 'http://127.0.0.1:4/__sim/img/p.jpg' }]))
	const countsWatch = watch('account', 'natgeo')
	// A watch whose first follower list was interrupted: told by its pending list.
	const pendingWatch = watch('account', 'mega.travel')
	old.db.query('UPDATE watches SET pending_job_id = ? WHERE id = ?').run(demoJob, pendingWatch)
	// People's words that mention the path do not make a real record a demo one.
	const wordsJob = job('comments-of-a-real-post')
	old.db.query('INSERT INTO job_records (job_id, record_key, seq, data) VALUES (?, ?, ?, ?)').run(
		wordsJob,
		'1',
		1,
		JSON.stringify({
			text: 'my notes: GET http://localhost/__sim/health',
			user: { profile_pic_url: 'https://scontent.cdninstagram.com/v/1.jpg' }
		})
	)
	old.close()

	const upgraded = openStore(path)
	try {
		const jobs = new JobStore(upgraded)
		expect([demoJob, realJob, emptyJob, wordsJob].map((id) => jobs.get(id)?.demo)).toEqual([
			true,
			false,
			null,
			false
		])
		const watches = new WatchStore(upgraded)
		expect(
			[followersWatch, hashtagWatch, countsWatch, pendingWatch].map((id) => watches.get(id)?.demo)
		).toEqual([true, true, null, true])
	} finally {
		upgraded.close()
	}
})
