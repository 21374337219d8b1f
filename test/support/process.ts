/**
 * Running a command to its end in a test: its exit code and everything it wrote, read whole (both
 * streams at once, so a child that fills one pipe while the test waits on the other cannot stall).
 */

/** What a finished process left. */
export interface ProcessResult {
	code: number
	stdout: string
	stderr: string
}

/** How to run it: the folder, the environment (default: this process's), text for standard input. */
export interface ProcessOptions {
	cwd: string
	env?: Record<string, string | undefined>
	/** Sent as standard input, which is then closed; without it the child's input is empty. */
	stdin?: string
	/** Milliseconds after which the child is stopped (SIGTERM), for a command that should have ended. */
	timeoutMs?: number
}

/** Runs `command` to its end; resolves to its exit code and output. */
export async function runProcess(command: string[], options: ProcessOptions): Promise<ProcessResult> {
	const child = Bun.spawn(command, {
		cwd: options.cwd,
		env: options.env,
		stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
		timeout: options.timeoutMs,
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [code, stdout, stderr] = await Promise.all([
		child.exited,
		new Response(child.stdout).text(),
		new Response(child.stderr).text()
	])
	return { code, stdout, stderr }
}
