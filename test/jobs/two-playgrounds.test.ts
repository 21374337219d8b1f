/**
 * Two playgrounds (owner `playground`) on one store: the status each shows tells the truth. Paused
 * then resumed in one while the other runs it, the job is let go by the runner at its next page and
 * run by the one that resumed it, no page stored under a status it did not write. A job left queued
 * by a playground that was killed is shown as paused and resumed in the other; one queued by a live
 * playground is left to it. The other playground is a second JobManager in this process, whose store
 * speaks for a spawned process (alive, or killed as `kill -9` would).
 */
import { expect, test } from 'bun:test'
import type { JobManager } from '../../src/jobs/manager'
import type { JobEvent } from '../../src/jobs/types'
import { followerSpec, usePlaygrounds, within } from './playgrounds'

const {
	manager: playground,
	openJobs,
	otherProcess,
	gate,
	walkFollowers
} = usePlaygrounds('smkit-two-playgrounds-')

/** The job once `manager` sees it settle: a job left with nobody to run it fails the test in 10 s. */
const settledIn = (manager: JobManager, id: number) => within(manager.settled(id), `job ${id} settling`)

test('paused then resumed in another playground before this one stopped: it goes on running, and says so', async () => {
	const second = gate()
	let asked = 0
	const a = playground({
		pid: otherProcess().pid,
		// The second page (read ahead after the first) waits until the other playground has acted.
		beforePage: async () => {
			if (++asked !== 2) return
			second.reached()
			await second.opened
		}
	})
	const b = playground()
	const job = a.start(followerSpec)
	const seenByA: JobEvent[] = []
	const seenByB: JobEvent[] = []
	a.subscribe(job.id, (event) => seenByA.push(event))
	const toldB = new Promise<void>((resolve) =>
		b.subscribe(job.id, (event) => {
			seenByB.push(event)
			if (event.type === 'status' && event.job.status === 'done') resolve()
		})
	)
	const firstPage = new Promise<void>((resolve) =>
		a.subscribe(job.id, (event) => event.type === 'page' && resolve())
	)
	await Promise.all([second.wasReached, firstPage])
	expect(b.get(job.id)?.status).toBe('running')

	expect((await b.pause(job.id)).status).toBe('paused')
	expect(b.resume(job.id).status).toBe('queued')
	// The first playground holds it still: the second waits for it instead of dropping the resume.
	expect(b.runsHere(job.id)).toBe(true)
	second.open()

	// The first one takes it back at its next page (the second leaves it to it) and runs it to the end.
	expect(await settledIn(a, job.id)).toMatchObject({ status: 'done' })
	// It said running again when it took the job back, and stored no page under a status it did not
	// write (`queued` while pages came in).
	expect(seenByA.map((event) => `${event.type} ${event.job.status}`)).toEqual([
		'page running',
		'status running',
		'page running',
		'status done'
	])
	// The second playground's subscribers saw its pause and resume, then the job's end in the store.
	await toldB
	expect(b.runsHere(job.id)).toBe(false)
	const saidToB = seenByB.filter((event) => event.type === 'status').map((event) => event.job.status)
	expect(saidToB.slice(0, 2)).toEqual(['paused', 'queued'])
	expect(saidToB.at(-1)).toBe('done')
	expect([...b.jobs.records(job.id)].map((record) => (record as { pk: string }).pk)).toEqual(
		await walkFollowers()
	)
	expect(b.jobs.liveRunner(job.id)).toBeNull()
})

test('resumed while another playground still holds it, stopping: it runs here once that one lets go', async () => {
	const b = playground()
	// The other playground ran it and was paused, and has not let go of it yet.
	const other = openJobs(otherProcess().pid)
	const job = other.create(followerSpec)
	expect(other.claim(job.id)).toBe(true)
	other.setStatus(job.id, 'paused', 'Paused: resume it to continue from where it stopped')
	expect(b.get(job.id)?.status).toBe('paused')

	expect(b.resume(job.id).status).toBe('queued')
	expect(b.runsHere(job.id)).toBe(true)
	expect(b.jobs.get(job.id)?.status).toBe('queued')
	other.release(job.id)
	expect(await settledIn(b, job.id)).toMatchObject({ status: 'done' })
	expect([...b.jobs.records(job.id)].map((record) => (record as { pk: string }).pk)).toEqual(
		await walkFollowers()
	)
	expect(b.jobs.liveRunner(job.id)).toBeNull()
})

test('a job left queued by a playground that was killed shows as paused and resumes in another; a live one keeps it', async () => {
	const held = gate()
	const other = otherProcess()
	// Its only slot is taken by a first job, held before its first page: the second job waits queued.
	const a = playground({
		pid: other.pid,
		maxRunning: 1,
		beforePage: async () => {
			held.reached()
			await held.opened
		}
	})
	const b = playground()
	const first = a.start(followerSpec)
	const queued = a.start(followerSpec)
	await held.wasReached

	// The first playground runs: the job is its own to run, not the second's.
	expect(b.get(queued.id)).toMatchObject({ status: 'queued', error: null })
	expect(() => b.resume(queued.id)).toThrow(
		`Job ${queued.id} is queued; only a paused, failed or cancelled job can be resumed`
	)
	expect(b.runsHere(queued.id)).toBe(false)

	other.kill(9)
	await other.exited
	const left = b.get(queued.id)
	expect(left).toMatchObject({ status: 'paused' })
	expect(left?.error).toBe(
		`Stopped when the playground ended: resume it (Resume in the Jobs panel, or POST /api/jobs/${queued.id}/resume) to continue from its last stored page`
	)
	expect(b.list().find((job) => job.id === first.id)?.status).toBe('paused')

	expect(['queued', 'running']).toContain(b.resume(queued.id).status)
	expect(await settledIn(b, queued.id)).toMatchObject({ status: 'done' })
	expect([...b.jobs.records(queued.id)].map((record) => (record as { pk: string }).pk)).toEqual(
		await walkFollowers()
	)
	held.open()
})

test('started again with the same list, an MCP server continues the job a killed one left queued', async () => {
	const killed = otherProcess()
	killed.kill(9)
	await killed.exited
	const jobs = openJobs()
	const left = jobs.create(followerSpec, 'mcp')
	jobs.store.db.query('UPDATE jobs SET runner_pid = ? WHERE id = ?').run(killed.pid, left.id)
	const mcp = playground({ owner: 'mcp' })
	expect(mcp.get(left.id)?.status).toBe('paused')
	expect(mcp.startOrContinue(followerSpec).id).toBe(left.id)
	expect(await settledIn(mcp, left.id)).toMatchObject({ status: 'done' })
})
