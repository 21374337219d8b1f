/**
 * Permission prompts for `smkit ask`. On a terminal the person sees the code or the write call about
 * to happen and answers y, n or always ("always" covers what an `ask_once` approval covers: running
 * code, writing files, or that one write method; comments and messages are asked every time). An
 * answer counts only when typed after its prompt is shown. Prompts are asked one at a time
 * (parallel tasks wait their turn instead of blocking the others). Without a terminal every action
 * that needs asking is denied, with a message naming --full-access, and the ask exits 1 (see
 * `deniedKinds`).
 */

import { dlopen, FFIType } from 'bun:ffi'
import { createInterface } from 'node:readline/promises'
import { revealInvisible, terminalText } from '../cli-error'
import { paint } from './ask-terminal'
import { type ActionKind, type ApprovalRequest, type Approver, approvalScope } from './permissions'

/** Reads one line from the person; resolves null at end of input or when cancelled. */
export type LinePrompt = (question: string, signal?: AbortSignal) => Promise<string | null>

let tcflush: ((fd: number) => void) | null | undefined

/**
 * Discards what was typed on the terminal `fd` and not read yet (tcflush TCIFLUSH, as getpass does),
 * where libc can be reached (Linux with glibc, macOS); elsewhere nothing is discarded.
 */
function discardTypedAhead(fd: number): void {
	if (tcflush === undefined) {
		tcflush = null
		const libc = { linux: ['libc.so.6', 0], darwin: ['libSystem.B.dylib', 1] } as const
		const target =
			process.platform === 'linux' || process.platform === 'darwin' ? libc[process.platform] : null
		try {
			if (target) {
				const [name, queue] = target
				const { symbols } = dlopen(name, {
					tcflush: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 }
				})
				tcflush = (descriptor) => void symbols.tcflush(descriptor, queue)
			}
		} catch {
			// No libc by that name (musl, say): typed-ahead input is not discarded.
		}
	}
	tcflush?.(fd)
}

/**
 * A prompt on stdin/stderr for one question at a time (one-shot and parallel modes). Lines typed
 * before the question is shown (an Enter pressed while the agent thought, a "y" typed ahead) are
 * discarded, never taken as its answer. On a terminal readline swallows Ctrl-C, so it is handed to
 * `onInterrupt` (which cancels the ask).
 */
export function createStdinPrompt(onInterrupt: () => void): LinePrompt {
	return async (question, signal) => {
		discardTypedAhead(0)
		const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true })
		lines.on('SIGINT', onInterrupt)
		try {
			return await lines.question(question, { signal })
		} catch {
			return null
		} finally {
			lines.close()
		}
	}
}

const kindLabels: Record<ActionKind, string> = {
	code_run: 'RUN CODE',
	write_call: 'WRITE ON THE ACCOUNT',
	file_write: 'WRITE A FILE'
}

function showDetail(detail: string): string {
	// What is approved is shown as it is: no character may make it read otherwise (see revealInvisible).
	const lines = terminalText(revealInvisible(detail)).split('\n')
	const shown = lines
		.slice(0, 40)
		.map((line) => `  │ ${line.length > 400 ? `${line.slice(0, 400)}… (${line.length} characters)` : line}`)
	if (lines.length > 40) shown.push(`  │ … ${lines.length - 40} more lines`)
	return shown.join('\n')
}

/** The terminal approver plus a reset for the "always" answers it remembers. */
export interface TerminalApprover {
	approver: Approver
	/** Forgets "always" answers (the interactive /reset). */
	reset(): void
	/**
	 * The kinds of action denied because there was no terminal to ask (`RUN CODE`, ...), each once,
	 * in the order first denied. A person's own "no" is not counted: they know what they refused.
	 */
	deniedKinds(): string[]
}

/**
 * Builds the approver. `prompt` null means there is no terminal to ask: actions are denied and
 * `notify` explains how to allow them. `beforePrompt` pauses spinners.
 */
export function createTerminalApprover(options: {
	prompt: LinePrompt | null
	beforePrompt?: () => void
	notify?: (message: string) => void
	/** False under `ask_every`: every action is asked, so no [a]lways is offered. Default true. */
	offerAlways?: boolean
}): TerminalApprover {
	// Scopes answered "always" (see approvalScope): a like does not approve a follow.
	const always = new Set<string>()
	const denied = new Set<ActionKind>()
	const notify = options.notify ?? ((message: string) => process.stderr.write(`${message}\n`))
	let turn: Promise<unknown> = Promise.resolve()

	const decide = async (request: ApprovalRequest, signal?: AbortSignal): Promise<boolean> => {
		const scope = options.offerAlways === false ? undefined : approvalScope(request)
		if (scope !== undefined && always.has(scope)) return true
		options.beforePrompt?.()
		if (!options.prompt) {
			denied.add(request.kind)
			notify(
				paint(
					'yellow',
					`smkit: permission denied (no terminal to ask): ${terminalText(request.title)}. ` +
						'Re-run with --full-access (or --permission full_access) to allow it.'
				)
			)
			return false
		}
		process.stderr.write(
			`\n${paint(['bold', 'yellow'], `⚠ ${kindLabels[request.kind]}: ${terminalText(revealInvisible(request.title))}`)}\n`
		)
		process.stderr.write(`${showDetail(request.detail)}\n`)
		// No [a]lways where it would not hold: comments and messages (they carry text out of the
		// account) and everything under ask_every are asked every time.
		const question = scope === undefined ? 'Allow? [y]es / [n]o: ' : 'Allow? [y]es / [n]o / [a]lways: '
		for (;;) {
			const answer = await options.prompt(paint('bold', question), signal)
			if (answer === null) return false
			const choice = answer.trim().toLowerCase()
			if (choice === 'y' || choice === 'yes') return true
			if (choice === 'n' || choice === 'no' || choice === '') return false
			if (choice === 'a' || choice === 'always') {
				if (scope !== undefined) {
					always.add(scope)
					return true
				}
				const why =
					options.offerAlways === false
						? 'With --permission ask_every every action is asked: answer y or n.'
						: 'Comments and messages are asked every time: answer y or n.'
				process.stderr.write(`${paint('yellow', why)}\n`)
			}
		}
	}

	return {
		approver: (request, context) => {
			// One prompt at a time: concurrent tasks queue behind the current question.
			const next = turn.then(() => decide(request, context?.signal))
			turn = next.catch(() => undefined)
			return next
		},
		reset: () => always.clear(),
		deniedKinds: () => [...denied].map((kind) => kindLabels[kind])
	}
}
