/**
 * How an ask of `smkit ask` ends: its exit code once denials for want of a terminal are counted
 * (docs/architecture.md, "The agent"), the single-ask rule applied to each parallel task, what
 * `--json` prints on failure, and Ctrl-C (the first cancels, the second leaves with 130).
 */
import type { TerminalApprover } from './ask-approver'
import { type LiveView, paint } from './ask-terminal'
import type { ParallelTaskResult } from './parallel'

/** Where Ctrl-C goes: `bind` a handler for what runs now; `trigger` is readline's own Ctrl-C. */
export type InterruptRouter = ReturnType<typeof interruptRouter>

/** Routes Ctrl-C to whatever is running now (readline on a terminal, the process signal otherwise). */
export function interruptRouter() {
	let handler: () => void = () => process.exit(130)
	const onSignal = () => handler()
	process.on('SIGINT', onSignal)
	return {
		trigger: () => handler(),
		bind: (next: () => void) => {
			handler = next
		},
		dispose: () => process.off('SIGINT', onSignal)
	}
}

/** What a denial for want of a terminal to ask says, naming the kinds denied (none: undefined). */
export function denialMessage(kinds: readonly string[]): string | undefined {
	if (kinds.length === 0) return undefined
	return `denied for want of a terminal to ask: ${kinds.join(', ').toLowerCase()} (allow with --full-access)`
}

/**
 * The exit code once denials are counted: 1 instead of 0 when an action was denied because no
 * terminal could ask, since the answer was made without it and a script must not take it for a
 * complete one. `denial` then says which kinds were denied.
 */
export function withDenials(
	code: number,
	terminal: Pick<TerminalApprover, 'deniedKinds'>
): { code: number; denial?: string } {
	const denial = denialMessage(terminal.deniedKinds())
	if (code !== 0 || !denial) return { code }
	return { code: 1, denial }
}

/**
 * What files an allowed `saveFile` could not write say (none: undefined): the first one's reason,
 * `cannot write x.txt: the folder output is not writable (permission denied)`, and how many more.
 */
export function unsavedMessage(errors: readonly string[]): string | undefined {
	if (errors.length === 0) return undefined
	const more = errors.length - 1
	return more > 0 ? `${errors[0]} (and ${more} more file${more === 1 ? '' : 's'} not written)` : errors[0]
}

/**
 * The exit code once files that could not be written are counted: 1 instead of 0, since the answer
 * may say a file was saved that is not there (the model was told, but may not say so). `denial`
 * then says which file and why, as a denial would.
 */
export function withUnsaved(
	outcome: { code: number; denial?: string },
	errors: readonly string[]
): { code: number; denial?: string } {
	const unsaved = unsavedMessage(errors)
	if (outcome.code !== 0 || !unsaved) return outcome
	return { code: 1, denial: unsaved }
}

/** Says a denial that failed the ask on standard error (with `--json` too). */
export function sayDenial(denial: string | undefined): void {
	if (denial) process.stderr.write(`${paint('red', `smkit: exit 1: ${denial}`)}\n`)
}

/**
 * What `--json` prints: the response as it is on success; on failure `success: false`, the
 * `error` (the denial when that is what failed) and the `exit_code`, so the JSON agrees with it.
 */
export function jsonOutcome<T extends { success: boolean }>(value: T, code: number, error: string | null) {
	return code === 0 ? value : { ...value, success: false, error, exit_code: code }
}

/** Counts Ctrl-C presses: the first cancels, the second leaves at once with 130. */
export function cancelOnInterrupt(controller: AbortController, view?: LiveView): () => void {
	let presses = 0
	return () => {
		presses++
		if (presses >= 2) process.exit(130)
		controller.abort()
		view?.pause()
		process.stderr.write(`\n${paint('yellow', 'Cancelling... (Ctrl-C again to quit)')}\n`)
	}
}

/**
 * One parallel task judged by the rules of a single ask: a task that succeeded although an action
 * of it was denied for want of a terminal to ask failed, with the denial as its error; so did one
 * with a file it could not write (`unsaved`: the write errors, as for `withUnsaved`).
 * `deniedKinds` is set only when that denial is what failed it, `unsaved` when a write is.
 */
export function judgeTask(
	task: ParallelTaskResult,
	approver: Pick<TerminalApprover, 'deniedKinds'>,
	unsaved: readonly string[] = []
): { task: ParallelTaskResult; deniedKinds: string[]; unsaved?: string } {
	if (!task.success) return { task, deniedKinds: [] }
	const kinds = approver.deniedKinds()
	const denial = denialMessage(kinds)
	if (denial) return { task: { ...task, success: false, error: denial }, deniedKinds: kinds }
	const notWritten = unsavedMessage(unsaved)
	if (!notWritten) return { task, deniedKinds: [] }
	return { task: { ...task, success: false, error: notWritten }, deniedKinds: [], unsaved: notWritten }
}
