/**
 * Demo time kept with the store. Demo mode's simulated Instagram starts at the same moment in every
 * process, and its world is a function of its clock (the same reading gives the same followers and
 * posts). A playground that moved demo time records the reading here; every demo process opening
 * the store moves its own simulator to it first, so a playground and `smkit watch run --demo` on one
 * store read one world (posts never go backwards between their snapshots).
 *
 *   await restoreDemoClock(store, demo.clock)           // at start, an in-process simulator only
 *   const clock = recordingDemoClock(store, demo.clock) // what the playground's demo time route moves
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
	clock: DemoClock<Reading>
): Promise<number> {
	const stored = storedDemoHours(store)
	// Demo time never moved on this store (the usual case): the simulator is not even asked.
	if (stored <= 0) return 0
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

/** The clock, with every move recorded in the store. */
export function recordingDemoClock<Reading extends { hours: number }>(
	store: Store,
	clock: DemoClock<Reading>
): DemoClock<Reading> {
	return async (advanceHours) => {
		const reading = await clock(advanceHours)
		if (advanceHours !== undefined) recordDemoHours(store, reading.hours)
		return reading
	}
}

/**
 * Demo mode's clock on this store: an in-process simulator is first moved to the store's reading
 * (`moved`: the hours it moved) and its later moves are recorded; a simulator of its own is left as
 * it is. Undefined outside demo mode.
 */
export async function storeDemoClock<Reading extends { hours: number }>(
	store: Store,
	demo: { external: boolean; clock: DemoClock<Reading> } | undefined
): Promise<{ clock: DemoClock<Reading>; moved: number } | undefined> {
	if (!demo) return undefined
	if (demo.external) return { clock: demo.clock, moved: 0 }
	const moved = await restoreDemoClock(store, demo.clock)
	return { clock: recordingDemoClock(store, demo.clock), moved }
}

/** `72 h` or `1.5 h`: a move of demo time in words. */
export const formatHours = (hours: number) => `${Math.round(hours * 100) / 100} h`
