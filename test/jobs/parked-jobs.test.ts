/**
 * A job one playground has queued while another live playground holds it (each paused and resumed
 * the other's queued jobs) is parked: it waits without a run slot, so two playgrounds never each
 * spend their slots waiting for a job the other will run only once it has a free one. Parked, it
 * runs here once its holder lets it go, and is dropped once its status leaves `queued` (its holder
 * runs it, or it was paused, cancelled or deleted), its subscribers told. The other playground is a
 * second JobManager in this process, whose store speaks for a spawned live process.
 */
import { expect, test } from 'bun:test'
import { HANDOVER_POLL_MS } from '../../src/jobs/handover'
import type { JobEvent } from '../../src/jobs/types'
import { followerSpec, usePlaygrounds, within } from './playgrounds'

const {
	manager: playground,
	openJobs,
	otherProcess,
	gate,
	walkFollowers
} = usePlaygrounds('smkit-parked-jobs-')

/** The pid of a live process standing for the other playground's. */
const otherPid = () => otherProcess().pid

/**
 * A `beforePage` whose calls numbered in `held` (from 1, in the order the manager's runs ask for
 * pages) wait at their gate; `calls` counts them all. luna.explorer's followers come in two pages,
 * so each run asks twice: its first page, then the second, read ahead.
 */
function pageGates(held: number[]) {
	const at = new Map(held.map((call) => [call, gate()]))
	const pages = {
		calls: 0,
		at: (call: number) => at.get(call) as ReturnType<typeof gate>,
		beforePage: async () => {
			const call = ++pages.calls
			const held = at.get(call)
			if (!held) return
			held.reached()
			await held.opened
		}
	}
	return pages
}

const statuses = (events: JobEvent[], id: number) =>
	events.filter((event) => event.type === 'status' && event.job.id === id).map((event) => event.job.status)

test('two playgrounds each queueing first a job the other holds: neither spends a run slot waiting for it', async () => {
	// Each fills its two slots with a job held before its first page (calls 1 and 2); call 4 is the
	// first page of the job that runs in the slot the first of those frees (call 3 is its second page).
	const aPid = otherPid()
	const pagesA = pageGates([1, 2, 4])
	const pagesB = pageGates([1, 2, 4])
	const a = playground({ pid: aPid, beforePage: pagesA.beforePage, maxRunning: 2 })
	const b = playground({ beforePage: pagesB.beforePage, maxRunning: 2 })
	for (const manager of [a, b]) for (let n = 0; n < 2; n++) manager.start(followerSpec)
	await within(
		Promise.all([1, 2].flatMap((call) => [pagesA.at(call).wasReached, pagesB.at(call).wasReached])),
		'every slot taken'
	)

	// The audit's queues, by pausing and resuming each other's queued jobs: A [7 (held by B), 3, 4],
	// B [3 (held by A), 7].
	const three = a.start(followerSpec).id
	await b.pause(three)
	b.resume(three)
	const seven = b.start(followerSpec).id
	await a.pause(seven)
	a.resume(seven)
	await a.pause(three)
	a.resume(three)
	const four = a.start(followerSpec).id
	expect(b.jobs.liveRunner(three)).toBe(aPid)
	expect(a.jobs.liveRunner(seven)).toBe(process.pid)
	for (const id of [three, four, seven]) {
		expect(a.runsHere(id)).toBe(true)
		expect(a.jobs.get(id)?.status).toBe('queued')
	}
	expect(b.runsHere(three) && b.runsHere(seven)).toBe(true)
	const seenByA: JobEvent[] = []
	const seenByB: JobEvent[] = []
	a.subscribe('all', (event) => seenByA.push(event))
	b.subscribe('all', (event) => seenByB.push(event))
	// Each learns where the job it does not run ends (they follow it through the store).
	const sevenInA = a.settled(seven)
	const threeInB = b.settled(three)

	// A slot frees in each: A takes 7 first, B takes 3 first, each held by the other. Parked, they
	// free the slot at once: A runs 3 and B runs 7, each reaching its first page.
	pagesA.at(1).open()
	pagesB.at(1).open()
	await within(
		Promise.all([pagesA.at(4).wasReached, pagesB.at(4).wasReached]),
		'a run of 3 in A and of 7 in B'
	)
	expect(a.jobs.get(three)?.status).toBe('running')
	expect(b.jobs.liveRunner(three)).toBe(aPid)
	expect(a.jobs.get(seven)?.status).toBe('running')
	expect(a.jobs.liveRunner(seven)).toBe(process.pid)
	expect(a.jobs.get(four)?.status).toBe('queued')

	pagesA.at(4).open()
	pagesB.at(4).open()
	for (const [manager, id] of [
		[a, three],
		[b, seven],
		[a, four]
	] as const)
		expect(await within(manager.settled(id), `job ${id} settling`)).toMatchObject({
			status: 'done',
			pages: 2
		})
	expect(await within(sevenInA, 'A seeing 7 done')).toMatchObject({ status: 'done' })
	expect(await within(threeInB, 'B seeing 3 done')).toMatchObject({ status: 'done' })
	// Each job was run by one playground only: A asked for the pages of its first job, 3 and 4 (two
	// each, its second job still held at its first), B for those of its first job and 7.
	expect(pagesA.calls).toBe(7)
	expect(pagesB.calls).toBe(5)
	const walked = await walkFollowers()
	for (const id of [three, four, seven])
		expect([...a.jobs.records(id)].map((record) => (record as { pk: string }).pk)).toEqual(walked)
	// What each told its subscribers ends where the job did; neither holds or shows it any longer.
	expect(statuses(seenByA, seven).at(-1)).toBe('done')
	expect(statuses(seenByB, three).at(-1)).toBe('done')
	expect(statuses(seenByB, four)).toEqual([])
	for (const id of [three, four, seven]) {
		expect(a.runsHere(id) || b.runsHere(id)).toBe(false)
		expect(a.jobs.get(id)?.status).toBe('done')
	}
})

test('a parked job takes no run slot; paused here, it is no longer waited for', async () => {
	const b = playground({ maxRunning: 1 })
	// The other playground ran it and was paused, and has not let go of it yet.
	const other = openJobs(otherPid())
	const held = other.create(followerSpec)
	expect(other.claim(held.id)).toBe(true)
	other.setStatus(held.id, 'paused', 'Paused: resume it to continue from where it stopped')

	expect(['queued']).toContain(b.resume(held.id).status)
	// Its one slot runs another job meanwhile.
	const next = b.start(followerSpec)
	expect(await within(b.settled(next.id), 'the next job settling')).toMatchObject({ status: 'done' })
	expect(b.jobs.get(held.id)?.status).toBe('queued')
	expect(b.runsHere(held.id)).toBe(true)

	expect((await b.pause(held.id)).status).toBe('paused')
	expect(b.runsHere(held.id)).toBe(false)
	other.release(held.id)
	// Nothing waits for it here any more: let go there, it stays paused.
	await Bun.sleep(HANDOVER_POLL_MS * 3)
	expect(b.jobs.get(held.id)).toMatchObject({ status: 'paused', pages: 0 })
	expect(b.jobs.liveRunner(held.id)).toBeNull()
})

for (const action of ['cancelled', 'deleted'] as const)
	test(`a parked job ${action} by the playground holding it: subscribers here are told, and it settles`, async () => {
		const b = playground()
		const other = openJobs(otherPid())
		const held = other.create(followerSpec)
		expect(other.claim(held.id)).toBe(true)
		other.setStatus(held.id, 'paused', 'Paused: resume it to continue from where it stopped')
		b.resume(held.id)
		const seen: JobEvent[] = []
		b.subscribe(held.id, (event) => seen.push(event))
		const settled = b.settled(held.id)

		if (action === 'deleted') other.delete(held.id)
		else other.setStatus(held.id, 'cancelled')
		other.release(held.id)
		const ended = await within(settled, 'the job settling')
		expect(ended?.status).toBe(action === 'deleted' ? undefined : 'cancelled')
		expect(b.runsHere(held.id)).toBe(false)
		expect(statuses(seen, held.id)).toEqual(action === 'deleted' ? [] : ['cancelled'])
	})

test('stopped while a job is parked: it no longer waits, and the next start of this owner resumes it', async () => {
	const b = playground()
	const other = openJobs(otherPid())
	const held = other.create(followerSpec)
	expect(other.claim(held.id)).toBe(true)
	other.setStatus(held.id, 'paused', 'Paused: resume it to continue from where it stopped')
	b.resume(held.id)
	await b.stop()
	expect(b.runsHere(held.id)).toBe(false)

	other.release(held.id)
	const next = playground()
	expect(next.resumeInterrupted().map((job) => job.id)).toEqual([held.id])
	expect(await within(next.settled(held.id), 'the job settling')).toMatchObject({ status: 'done' })
})
