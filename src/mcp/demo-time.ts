/**
 * Demo time for `smkit mcp --demo` on a store: its in-process simulator starts where a playground
 * on the store left demo time, and follows the playground's later moves while it serves (it never
 * moves demo time itself). The store may not exist yet: it is looked for on every tick.
 */
import { existsSync } from 'node:fs'
import type { DemoSession } from '../demo'
import { openStore, type Store } from '../store/db'
import { FOLLOW_DEMO_CLOCK_MS, formatHours, type StoreDemoClock, storeDemoClock } from '../store/demo-clock'

/** Follows the demo time kept at `dbPath`; `stop()` before exiting. Failures are left to the next tick. */
export async function followDemoTime(
	dbPath: string,
	demo: DemoSession,
	log: (line: string) => void
): Promise<{ stop(): void }> {
	// A simulator of its own keeps its own clock.
	if (demo.external) return { stop: () => {} }
	let store: Store | undefined
	let kept: StoreDemoClock<{ hours: number }> | undefined
	const tick = async () => {
		if (kept) return kept.sync()
		if (!existsSync(dbPath)) return
		store ??= openStore(dbPath)
		kept = await storeDemoClock(store, demo)
		if (kept?.moved) log(`Demo time: ${formatHours(kept.moved)} on, as this store's demo world was left`)
	}
	await tick().catch(() => undefined)
	const timer = setInterval(() => void tick().catch(() => undefined), FOLLOW_DEMO_CLOCK_MS)
	timer.unref?.()
	return {
		stop() {
			clearInterval(timer)
			kept?.stop()
			store?.close()
		}
	}
}
