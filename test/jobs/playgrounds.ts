/**
 * Two or more job managers on one store in one test process, as playgrounds of separate processes
 * would be: each stands for a process by its store's `pid` (a spawned `sleep` is a live one), runs
 * wait at gates rather than sleeps, and everything opened is closed after each test.
 */
import { afterEach, beforeEach } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JobManager, type JobManagerOptions } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { useSimulator } from '../client/simulator-setup'

/** The list every test collects: luna.explorer's followers (two pages). */
export const followerSpec = { kind: 'followers' as const, target: DEMO_PRESETS.luna.username }

/** Sets up the test file: its simulator, and a fresh store folder per test. */
export function usePlaygrounds(prefix: string) {
	const simulator = useSimulator()
	let folder = ''
	let stores: Store[] = []
	let managers: JobManager[] = []
	let processes: Bun.Subprocess[] = []
	/** Gates a run may still wait at: opened at the end, so that its manager stops. */
	let gates: (() => void)[] = []

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), prefix))
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

	/** The test's store as the process `pid` sees it (default this one). */
	const openJobs = (pid?: number): JobStore => {
		const store = openStore(join(folder, 'smkit.db'))
		stores.push(store)
		return new JobStore(store, { pid })
	}

	return {
		simulator,
		openJobs,
		/** A manager (a playground unless `owner` says) on the test's store, for the process `pid`. */
		manager(
			options: { pid?: number } & Pick<Partial<JobManagerOptions>, 'beforePage' | 'maxRunning' | 'owner'> = {}
		): JobManager {
			const manager = new JobManager({
				jobs: openJobs(options.pid),
				ig: simulator.client(),
				beforePage: options.beforePage,
				maxRunning: options.maxRunning,
				owner: options.owner
			})
			managers.push(manager)
			return manager
		},
		/** A live process standing for another playground's. */
		otherProcess(): Bun.Subprocess {
			const child = Bun.spawn(['sleep', '60'])
			processes.push(child)
			return child
		},
		/** A gate a run waits at before a page, and a promise that resolves when a run reaches it. */
		gate() {
			let open!: () => void
			let reached!: () => void
			const opened = new Promise<void>((resolve) => (open = resolve))
			const wasReached = new Promise<void>((resolve) => (reached = resolve))
			gates.push(open)
			return { open, opened, reached, wasReached }
		},
		/** The followers walked directly, for the records a job must hold. */
		walkFollowers: async () =>
			(await simulator.client().friendships.getFollowers(DEMO_PRESETS.luna.pk, { count: 1000 })).items.map(
				(user) => user.pk
			)
	}
}

/** `promise`, or a failure naming `what` after 10 s: a job left with nobody to run it. */
export async function within<T>(promise: Promise<T>, what: string): Promise<T> {
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
