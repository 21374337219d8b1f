/**
 * Whether a process still runs, by its pid: a job's runner (`runner_pid`), a watch run's lease
 * holder, or the writer of a temporary export file, whose leftovers are removed once it is gone.
 *
 * A pid alone does not name a process for long: once the runner is gone (a crash, the OOM killer,
 * a reboot with the store kept) the system gives its pid to another process sooner or later, and a
 * job held by that pid would stay held by an unrelated process for as long as it runs. So a runner is
 * named by its pid and its start (`processStart`: when it started, on which boot), and a live
 * process with that pid but another start is not it. Where the start cannot be read (no /proc: not
 * Linux) the pid alone decides, as it does for a runner written without its start (older stores).
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

/**
 * True when the process that `pid` and `started` (its `processStart` when it took the work) name
 * still runs: a live process with this pid that started at another moment or on another boot has
 * only been given the pid since. Without `started`, or where the start cannot be read now, the pid
 * alone decides.
 */
export function runnerAlive(pid: number, started: string | null | undefined): boolean {
	if (!processAlive(pid)) return false
	if (!started) return true
	const now = processStart(pid)
	return now === null || now === started
}

/**
 * When process `pid` started, as `STARTTIME@BOOT_ID` (Linux: field 22 of /proc/PID/stat, clock ticks
 * since boot, and the boot's id from /proc/sys/kernel/random/boot_id, so that after a reboot no
 * process of before matches), or `STARTTIME` when the boot id cannot be read; null where /proc/PID/stat
 * cannot be read (not Linux, no such process). Holds neither `:` nor spaces.
 */
export function processStart(pid: number): string | null {
	const stat = procStat(pid)
	if (stat === null) return null
	// Fields 3 on, after the command name, which may hold spaces and parentheses itself.
	const starttime = stat
		.slice(stat.lastIndexOf(')') + 2)
		.split(' ')
		.at(22 - 3)
	if (!starttime || !/^\d+$/.test(starttime)) return null
	const boot = bootId()
	return boot ? `${starttime}@${boot}` : starttime
}

let boot: string | null | undefined

/** This boot's id (a UUID), read once; null where there is none. */
function bootId(): string | null {
	if (boot === undefined) {
		try {
			const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
			boot = /^[\w-]+$/.test(id) ? id : null
		} catch {
			boot = null
		}
	}
	return boot
}

/** The text of /proc/PID/stat, or null where it cannot be read. */
function procStat(pid: number): string | null {
	try {
		return readFileSync(`/proc/${pid}/stat`, 'utf8')
	} catch {
		return null
	}
}

/** Linux: the process has exited and waits to be reaped (state Z in /proc/PID/stat). */
function isZombie(pid: number): boolean {
	const stat = procStat(pid) ?? ''
	return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
}
