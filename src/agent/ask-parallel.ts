/**
 * `smkit ask --parallel`: the tasks run side by side (parallel.ts), each judged as one ask: an
 * action denied to a task for want of a terminal to ask fails that task, and so does a file it
 * could not write. On a terminal each approval prompt names its task, and a task that finishes
 * while a prompt waits is reported once the prompt is answered. As for one ask, the files saved and
 * the totals go under the answers on a terminal, and on standard error when the output is piped.
 */
import { clip, jsonText, terminalLine, terminalText } from '../cli-error'
import { createStdinPrompt, createTerminalApprover } from './ask-approver'
import type { AskCliOptions } from './ask-options'
import {
	cancelOnInterrupt,
	denialMessage,
	type InterruptRouter,
	jsonOutcome,
	judgeTask,
	sayDenial
} from './ask-outcome'
import { savedLine } from './ask-terminal'
import { type ParallelResult, type ParallelTaskResult, runParallel } from './parallel'
import { type AgentSetupOptions, createAgentFactory } from './setup'

/** Runs the tasks and prints their outcome as asked (summary, answers only, or JSON); returns the exit code. */
export async function runParallelAsk(
	options: AskCliOptions,
	setup: AgentSetupOptions,
	interrupts: InterruptRouter
): Promise<number> {
	const controller = new AbortController()
	interrupts.bind(cancelOnInterrupt(controller))
	const chatty = !options.quiet && !options.json
	const terminal = createTerminalApprover({
		prompt: process.stdin.isTTY ? createStdinPrompt(interrupts.trigger) : null,
		offerAlways: setup.permission !== 'ask_every'
	})
	// Each task asks in its own name and has its denials counted apart: a task is judged as one ask.
	const approvers = options.tasks.map((_task, index) => terminal.forTask(index + 1))
	const createAgent = createAgentFactory(setup)
	// Per task, why files it was allowed to write were not written: that fails the task.
	const unsaved: string[][] = options.tasks.map(() => [])
	const judged = (index: number, task: ParallelTaskResult) =>
		judgeTask(task, approvers[index], unsaved[index])
	if (chatty) process.stderr.write(`Parallel execution: ${options.tasks.length} tasks\n${'═'.repeat(40)}\n`)
	const result = await runParallel(options.tasks, {
		createAgent: (index) => createAgent(approvers[index].approver),
		signal: controller.signal,
		onFileError: (index, failure) => unsaved[index].push(failure.error),
		onTaskDone: (index, done) => {
			if (!chatty) return
			const { task } = judged(index, done)
			const state = task.success ? 'done' : `failed: ${task.error ?? 'no answer'}`
			// Held back while another task's approval prompt waits for its answer.
			terminal.say(
				`  ${task.success ? '✅' : '❌'} Task ${index + 1}: ${terminalLine(state)} (${task.duration.toFixed(1)}s)`
			)
		}
	})
	const verdicts = result.results.map((task, index) => judged(index, task))
	const results = verdicts.map((verdict) => verdict.task)
	const success = results.every((task) => task.success)
	const code = controller.signal.aborted ? 130 : success ? 0 : 1
	// The kinds whose denial failed a task that would otherwise have succeeded, as for one ask.
	const denial =
		code === 1 ? denialMessage([...new Set(verdicts.flatMap((verdict) => verdict.deniedKinds))]) : undefined
	if (options.json) {
		const failed = results.filter((task) => !task.success).length
		const onlyDenied = verdicts.every((verdict) => verdict.task.success || verdict.deniedKinds.length > 0)
		const error =
			code === 130
				? 'Cancelled'
				: denial && onlyDenied
					? denial
					: `${failed} of ${results.length} tasks failed`
		process.stdout.write(`${jsonText(jsonOutcome({ ...result, success, results }, code, error))}\n`)
	} else if (options.quiet) {
		// No control character, on a terminal or in a pipe (a file cat later runs it), as a single ask.
		const answers = results.map((task) => task.answer).join('\n\n')
		process.stdout.write(`${terminalText(answers)}\n`)
	} else {
		printSummary(results, result)
	}
	sayDenial(denial)
	// As for one ask, a file not written is said whatever the output mode.
	if (code === 1)
		for (const [index, verdict] of verdicts.entries())
			if (verdict.unsaved) sayDenial(`task ${index + 1}: ${verdict.unsaved}`)
	return code
}

/**
 * The summary for people: one line per task, with no control character from its answer. On a
 * terminal each task's saved files are listed under its line and the totals follow; for a pipe
 * only the task lines go to standard output, the files and totals to standard error, as the
 * files and footer of a single ask do.
 */
function printSummary(results: readonly ParallelTaskResult[], result: ParallelResult): void {
	const terminal = Boolean(process.stdout.isTTY)
	const steps = results.reduce((total, task) => total + task.steps, 0)
	const totals = `Total: ${result.total_duration.toFixed(1)}s | ${steps} steps | ${result.total_tokens} tokens\n`
	let lines = ''
	let aside = ''
	for (const [index, task] of results.entries()) {
		const answer = terminalLine((task.answer || task.error || '').replace(/\s+/g, ' '))
		lines += `${task.success ? '✅' : '❌'} Task ${index + 1}: ${clip(answer, 100)}\n`
		for (const file of task.files) {
			if (terminal) lines += `   ${savedLine(file)}\n`
			else aside += `Task ${index + 1}: ${savedLine(file)}\n`
		}
	}
	if (terminal) process.stdout.write(`\n${lines}${totals}`)
	else {
		process.stdout.write(`\n${lines}`)
		process.stderr.write(`${aside}${totals}`)
	}
}
