/**
 * Demo time kept with the store. Demo mode's simulated Instagram starts at the same moment in every
 * process, and its world is a function of its clock (the same reading gives the same followers and
 * posts). A playground that moved demo time records the reading here; every demo process opening
 * the store moves its own simulator to it first, and a long-running one (a second playground, `smkit
 * mcp`) follows later moves, so all of them read one world (posts never go backwards between
 * snapshots).
 *
 *   const kept = await storeDemoClock(store, demo, { followMs: FOLLOW_DEMO_CLOCK_MS })
 *   await kept?.clock(24)     // moves demo time, recorded for the other processes
 *   kept?.stop()              // before the store is closed
 *
 * A simulator of its own (`SMKIT_UPSTREAM_URL`) keeps its clock itself: neither applies to it.
 */
import type { Store } from './db'

/** A simulator's clock as demo mode exposes it: read it, or move it `advanceHours` forward. */
export type DemoClock<Reading extends { hours: number }> = (advanceHours?: number) => Promise<Reading>

/** The longest move the simulator takes at once (a week). */
const LONGEST_MOVE_HOURS = 168

/** Hours demo time has moved on this store (0 when it never moved). */
export function storedDemoHours(store: Store): number {
	const row = store.db.query<{ hours: number }, []>('SELECT hours FROM demo_clock WHERE id = 1').get()
	return row?.hours ?? 0
}

/** Records a clock reading (never moving the stored one back: a later reading of another process wins). */
export function recordDemoHours(store: Store, hours: number): void {
	store.db
		.query(
			`INSERT INTO demo_clock (id, hours, updated_at) VALUES (1, ?1, ?2)
			 ON CONFLICT (id) DO UPDATE SET hours = max(hours, ?1), updated_at = ?2`
		)
		.run(hours, new Date().toISOString())
}

/** Moves the simulator's clock to the store's reading; resolves to the hours it moved (0: none). */
export async function restoreDemoClock<Reading extends { hours: number }>(
	store: Store,
	clock: DemoClock<Reading>,
	/** A reading the clock is known to have reached: a store not beyond it needs no question. */
	known = 0
): Promise<number> {
	const stored = storedDemoHours(store)
	// Demo time never moved on this store (the usual case), or not past what this clock reached:
	// the simulator is not even asked.
	if (stored <= known) return 0
	const behind = stored - (await clock()).hours
	let left = behind
	// Whole moves of at most a week; the events of each hour apply as the clock passes it.
	while (left > 1e-9) {
		const step = Math.min(left, LONGEST_MOVE_HOURS)
		await clock(step)
		left -= step
	}
	return Math.max(0, behind)
}

/** Demo mode's clock as kept with a store (see `storeDemoClock`). */
export interface StoreDemoClock<Reading extends { hours: number }> {
	/** Reads or moves the clock; a move is recorded in the store. */
	clock: DemoClock<Reading>
	/** Hours the clock moved at start to reach the store's reading. */
	moved: number
	/** Catches up with a move another process recorded since (resolves when done; never rejects). */
	sync(): Promise<void>
	/** Stops following the store (before it is closed). */
	stop(): void
}

/** How often a running demo process looks whether another one moved demo time. */
export const FOLLOW_DEMO_CLOCK_MS = 2000

/**
 * Demo mode's clock on this store: an in-process simulator is first moved to the store's reading,
 * then follows it (every `followMs`, and before each move of its own, so a move adds to the latest
 * reading), and its moves are recorded, `onMoved` told after each. A simulator of its own
 * (`SMKIT_UPSTREAM_URL`) is left as it is. Undefined outside demo mode.
 */
export async function storeDemoClock<Reading extends { hours: number }>(
	store: Store,
	demo: { external: boolean; clock: DemoClock<Reading> } | undefined,
	options: { followMs?: number; onMoved?: () => void } = {}
): Promise<StoreDemoClock<Reading> | undefined> {
	if (!demo) return undefined
	if (demo.external) return { clock: demo.clock, moved: 0, sync: async () => {}, stop: () => {} }
	// The store's reading this clock has reached: a follow asks the simulator only when it moved on.
	let reached = storedDemoHours(store)
	const moved = await restoreDemoClock(store, demo.clock)
	const catchUp = async () => {
		const stored = storedDemoHours(store)
		await restoreDemoClock(store, demo.clock, reached)
		reached = Math.max(reached, stored)
	}
	// One change of the clock at a time: a follow and a move never interleave.
	let chain: Promise<unknown> = Promise.resolve()
	const serial = <Result>(work: () => Promise<Result>): Promise<Result> => {
		const next = chain.then(work)
		chain = next.catch(() => undefined)
		return next
	}
	const sync = () =>
		serial(catchUp).then(
			() => undefined,
			() => undefined
		)
	const timer = options.followMs ? setInterval(() => void sync(), options.followMs) : undefined
	timer?.unref?.()
	const clock: DemoClock<Reading> = (advanceHours) =>
		serial(async () => {
			await catchUp()
			const reading = await demo.clock(advanceHours)
			if (advanceHours !== undefined) {
				recordDemoHours(store, reading.hours)
				reached = Math.max(reached, reading.hours)
				options.onMoved?.()
			}
			return reading
		})
	return { clock, moved, sync, stop: () => clearInterval(timer) }
}

/** `72 h` or `1.5 h`: a move of demo time in words. */
export const formatHours = (hours: number) => `${Math.round(hours * 100) / 100} h`
