/** Errors the CLI reports to the person at the terminal, and how they map to exit codes. */

/** A mistake in how the command was called: exit code 2 (docs/architecture.md, "Product"). */
export class UsageError extends Error {
	override name = 'UsageError'
	readonly exitCode = 2
}

/** A command or feature that this build does not provide yet: exit code 1. */
export class NotBuiltError extends Error {
	override name = 'NotBuiltError'
	readonly exitCode = 1
	constructor(command: string) {
		super(`'smkit ${command}' is not available in this build yet.`)
	}
}

/** The exit code an error should end the process with (1 unless the error says otherwise). */
export function exitCodeOf(error: unknown): number {
	if (error && typeof error === 'object' && 'exitCode' in error && typeof error.exitCode === 'number') {
		return error.exitCode
	}
	return 1
}

/** One line for the terminal: the message only, never a stack trace or a secret-bearing object. */
export function formatCliError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error)
	return `smkit: ${message}`
}
