/**
 * A job one playground has queued while another live playground holds it (each paused and resumed
 * the other's queued jobs) is parked: it waits without a run slot, so two playgrounds never each
 * spend their slots waiting for a job the other will run only once it has a free one. Parked, it
 * runs here once its holder lets it go, and is dropped once its status leaves `queued` (its holder
 * runs it, or it was paused, cancelled or deleted), its subscribers told. The other playground is a
 * second JobManager in this process, whose store speaks for a spawned live process.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HANDOVER_POLL_MS } from '../../src/jobs/handover'
import { JobManager } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
const followerSpec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username }
let folder: string
let stores: Store[]
let managers: JobManager[]
let processes: Bun.Subprocess[]
/** Gates a run may still wait at: opened at the end, so that its manager stops. */
let gates: (() => void)[]

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-parked-jobs-'))
	stores = []
	managers = []
	processes = []
	gates = []
})
afterEach(async () => {
	for (const open of gates) open()
	for (const manager of managers) await manager.stop()
	for (const store of stores) store.close()
	for (const child of processes) child.kill()
	rmSync(folder, { recursive: true, force: true })
})

function openJobs(pid?: number): JobStore {
	const store = openStore(join(folder, 'smkit.db'))
	stores.push(store)
	return new JobStore(store, { pid })
}

/** A playground on the test's store; `pid` is the process it stands for (default this one). */
function playground(options: { pid?: number; beforePage?: () => Promise<void>; maxRunning?: number } = {}) {
	const manager = new JobManager({
		jobs: openJobs(options.pid),
		ig: simulator.client(),
		beforePage: options.beforePage,
		maxRunning: options.maxRunning
	})
	managers.push(manager)
	return manager
}

/** The pid of a live process standing for the other playground's. */
function otherPid(): number {
	const child = Bun.spawn(['sleep', '60'])
	processes.push(child)
	return child.pid
}

/** A gate a run waits at, and a promise that resolves when a run reaches it. */
function gate() {
	let open!: () => void
	let reached!: () => void
	const opened = new Promise<void>((resolve) => (open = resolve))
	const wasReached = new Promise<void>((resolve) => (reached = resolve))
	gates.push(open)
	return { open, opened, reached, wasReached }
}

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

/** `promise`, or a failure naming `what` after 10 s: a job left with nobody to run it. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
	let timer!: ReturnType<typeof setTimeout>
	const stuck = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not happen within 10 s`)), 10_000)
	})
	try {
		return await Promise.race([promise, stuck])
	} finally {
		clearTimeout(timer)
	}
}

const statuses = (events: JobEvent[], id: number) =>
	events.filter((event) => event.type === 'status' && event.job.id === id).map((event) => event.job.status)

const walkFollowers = async () =>
	(await simulator.client().friendships.getFollowers(DEMO_PRESETS.luna.pk, { count: 1000 })).items.map(
		(user) => user.pk
	)

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
