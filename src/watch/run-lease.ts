/**
 * Which process runs a watch now. Two processes on one store (a playground left open and
 * `smkit watch run` from cron) must not run a watch at once: two snapshots a second apart make the
 * default diff empty, and the second follower collection is refused by the first's claim. The
 * watch's `runner` column names the holder as `PID:TOKEN:START`, one token per lease set (per
 * WatchStore), START when its process started (`processStart`; left out where it cannot be read).
 *
 * A holder is gone when its process is: a run killed with its process is taken over, and so is one
 * whose pid another process was given since (a live pid with another START: a crash, then the
 * system reusing the pid, or a reboot with the store kept). A holder written without START (an
 * older smkit, or no /proc) is judged by its pid alone. A pid this process has now (reused after a
 * restart, as in a container) counts only while one of this process's own lease sets holds the watch.
 */
import { processStart, runnerAlive } from '../jobs/process-alive'
import type { Store } from '../store/db'

/** The runs this process holds now, as `watchId/runner` (one process may hold several lease sets). */
const heldHere = new Set<string>()

/** The watch runs of one store connection. */
export class RunLeases {
	readonly #self = [process.pid, crypto.randomUUID(), processStart(process.pid)].filter(Boolean).join(':')

	constructor(private readonly store: Store) {}

	/** Takes the run of watch `id`; false while another live holder has it (or the watch is gone). */
	claim(id: number): boolean {
		return this.store.transaction(() => {
			const row = this.#row(id)
			if (!row || this.#heldByOther(id, row.runner)) return false
			this.store.db.query('UPDATE watches SET runner = ? WHERE id = ?').run(this.#self, id)
			heldHere.add(`${id}/${this.#self}`)
			return true
		})
	}

	/** Gives the run of watch `id` back (when this lease set holds it). */
	release(id: number): void {
		heldHere.delete(`${id}/${this.#self}`)
		this.store.db.query('UPDATE watches SET runner = NULL WHERE id = ? AND runner = ?').run(id, this.#self)
	}

	/** Whether another live holder runs watch `id` now (another process on the store, typically). */
	heldElsewhere(id: number): boolean {
		const row = this.#row(id)
		return row ? this.#heldByOther(id, row.runner) : false
	}

	#row(id: number): { runner: string | null } | null {
		return this.store.db
			.query<{ runner: string | null }, [number]>('SELECT runner FROM watches WHERE id = ?')
			.get(id)
	}

	#heldByOther(id: number, runner: string | null): boolean {
		if (runner === null || runner === this.#self) return false
		return runLive(id, runner)
	}
}

/**
 * Whether the run of watch `id` that its `runner` column names (`PID:TOKEN:START`, or `PID:TOKEN`)
 * is in progress: its process runs (this process: only while one of its lease sets holds the
 * watch), and is the one that took it (a live pid with another START was given it since).
 */
export function runLive(id: number, runner: string | null): boolean {
	if (runner === null) return false
	const [holder, , started] = runner.split(':')
	const pid = Number(holder)
	if (pid === process.pid) return heldHere.has(`${id}/${runner}`)
	return Number.isInteger(pid) && pid > 0 && runnerAlive(pid, started)
}
