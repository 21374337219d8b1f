/**
 * Whether a process still runs, by its pid: a job's runner (`runner_pid`), or the writer of a
 * temporary export file, whose leftovers are removed once it is gone.
 */
import { readFileSync } from 'node:fs'

/**
 * True when a process with this pid runs (it may belong to another user: EPERM). A runner killed a
 * moment ago that its parent has not reaped yet (a zombie) still has its pid but runs no job.
 */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
	} catch (error) {
		return (error as { code?: string }).code === 'EPERM'
	}
	return !isZombie(pid)
}

/** Linux: the process has exited and waits to be reaped (state Z in /proc/PID/stat). */
function isZombie(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
		return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
	} catch {
		return false
	}
}
