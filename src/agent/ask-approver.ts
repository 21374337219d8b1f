/**
 * Permission prompts for `smkit ask`. On a terminal the person sees the code or the write call about
 * to happen and answers y, n or always ("always" covers what an `ask_once` approval covers: running
 * code, writing files, or that one write method; comments and messages are asked every time). An
 * answer counts only when typed after its prompt is shown. Prompts are asked one at a time
 * (parallel tasks wait their turn instead of blocking the others); a task's prompt names it, and
 * progress lines said meanwhile wait for the answer (`say`). A write on the account is shown whole
 * (ask-approval-detail.ts); one too long to show whole is denied without asking. Without a
 * terminal every action that needs asking is denied, with a message naming --full-access, and the
 * ask exits 1 (see `deniedKinds`).
 */

import { dlopen, FFIType } from 'bun:ffi'
import { createInterface } from 'node:readline/promises'
import { revealInvisible, terminalText } from '../cli-error'
import { approvalDetail } from './ask-approval-detail'
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

/** One task's view of a shared terminal approver (parallel tasks). */
export interface TaskApprover {
	/** Asks like the shared approver, naming the task ("Task 2 wants to run code: ..."). */
	approver: Approver
	/** Kinds of action denied to this task for want of a terminal to ask (as `deniedKinds`). */
	deniedKinds(): string[]
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
	/** An approver for task `number` of several: its prompts name it, its denials are counted apart. */
	forTask(number: number): TaskApprover
	/**
	 * Writes `text` and a line end to standard error now, or, while a prompt waits for its answer,
	 * once it is answered: nothing is printed into a question the person is typing an answer to.
	 */
	say(text: string): void
}

/** Who asks: nobody in particular (one ask), or one task of several, whose denials are kept apart. */
interface Asker {
	task?: number
	denied?: Set<ActionKind>
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
	// Lines held back while a prompt waits for its answer (see `say`).
	let held: string[] | undefined

	/** Shows the request and reads answers until one decides it. */
	const ask = async (
		request: ApprovalRequest,
		prompt: LinePrompt,
		scope: string | undefined,
		asker: Asker,
		signal?: AbortSignal
	): Promise<boolean> => {
		const label = kindLabels[request.kind]
		const title = terminalText(revealInvisible(request.title))
		const heading =
			asker.task === undefined
				? `${label}: ${title}`
				: `Task ${asker.task} wants to ${label.toLowerCase()}: ${title}`
		process.stderr.write(`\n${paint(['bold', 'yellow'], `⚠ ${heading}`)}\n`)
		const shown = approvalDetail(request, process.stderr.columns)
		process.stderr.write(`${shown.detail}\n`)
		if (shown.refusal) {
			process.stderr.write(`${paint('yellow', shown.refusal)}\n`)
			return false
		}
		// No [a]lways where it would not hold: comments and messages (they carry text out of the
		// account) and everything under ask_every are asked every time.
		const allow = asker.task === undefined ? 'Allow?' : `Allow task ${asker.task}?`
		const question = `${allow} [y]es / [n]o${scope === undefined ? '' : ' / [a]lways'}: `
		for (;;) {
			const answer = await prompt(paint('bold', question), signal)
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
	const decide = async (request: ApprovalRequest, asker: Asker, signal?: AbortSignal): Promise<boolean> => {
		const scope = options.offerAlways === false ? undefined : approvalScope(request)
		if (scope !== undefined && always.has(scope)) return true
		options.beforePrompt?.()
		if (!options.prompt) {
			denied.add(request.kind)
			asker.denied?.add(request.kind)
			const who = asker.task === undefined ? '' : `Task ${asker.task}: `
			notify(
				paint(
					'yellow',
					`smkit: ${who}permission denied (no terminal to ask): ${terminalText(request.title)}. ` +
						'Re-run with --full-access (or --permission full_access) to allow it.'
				)
			)
			return false
		}
		held = []
		try {
			return await ask(request, options.prompt, scope, asker, signal)
		} finally {
			const lines = held
			held = undefined
			for (const line of lines) process.stderr.write(`${line}\n`)
		}
	}

	const approverFor =
		(asker: Asker): Approver =>
		(request, context) => {
			// One prompt at a time: concurrent tasks queue behind the current question.
			const next = turn.then(() => decide(request, asker, context?.signal))
			turn = next.catch(() => undefined)
			return next
		}
	const labels = (kinds: Set<ActionKind>) => [...kinds].map((kind) => kindLabels[kind])

	return {
		approver: approverFor({}),
		reset: () => always.clear(),
		deniedKinds: () => labels(denied),
		forTask: (number) => {
			const asker = { task: number, denied: new Set<ActionKind>() }
			return { approver: approverFor(asker), deniedKinds: () => labels(asker.denied) }
		},
		say: (text) => {
			if (held) held.push(text)
			else process.stderr.write(`${text}\n`)
		}
	}
}
