/**
 * Parallel asks (docs/architecture.md, "The agent"): each task runs in its own conversation (its own
 * agent, same
 * permission level and limits), at most `concurrency` (3) at once, at most 10 tasks. Results come
 * back in input order.
 */

import type { Agent } from './agent'
import type { FailedFileWrite } from './code-runner'
import { type AgentEvent, type AskResponse, failedAsk, type SavedFile } from './events'
import { AGENT_DEFAULTS } from './settings'

/** Most tasks one parallel request may carry. */
export const maxParallelTasks = 10

/** One task's outcome: its ask response's fields (docs/api-contract.md, "Chat") and the task. */
export interface ParallelTaskResult {
	task: string
	success: boolean
	answer: string
	code: string
	/** Files the task's `saveFile` actually wrote (paths relative to the working directory). */
	files: SavedFile[]
	steps: number
	tokens: number
	duration: number
	error: string | null
}

/** The parallel response. `success` is true only when every task succeeded. */
export interface ParallelResult {
	success: boolean
	results: ParallelTaskResult[]
	total_duration: number
	total_tokens: number
}

/** A request that cannot run (no tasks, too many, empty task). */
export class ParallelTaskError extends Error {
	override name = 'ParallelTaskError'
	readonly exitCode = 2
}

/** How tasks are run. */
export interface ParallelOptions {
	/** Builds a fresh agent (its own conversation) for one task. */
	createAgent: (index: number) => Agent
	/** Tasks in flight at once (default 3). */
	concurrency?: number
	signal?: AbortSignal
	/** Events of each task, tagged with its index. */
	onEvent?: (index: number, event: AgentEvent) => void
	/** Files a task's allowed `saveFile` could not write, tagged with its index. */
	onFileError?: (index: number, failure: FailedFileWrite) => void
	/** Called as each task finishes (in completion order), with its whole ask response (`files`...). */
	onTaskDone?: (index: number, result: ParallelTaskResult, response: AskResponse) => void
}

/** Checks the task list: 1-10 non-empty questions. Throws ParallelTaskError otherwise. */
export function validateTasks(tasks: readonly unknown[]): string[] {
	if (!Array.isArray(tasks) || tasks.length === 0) throw new ParallelTaskError('Give at least one task.')
	if (tasks.length > maxParallelTasks) {
		throw new ParallelTaskError(`At most ${maxParallelTasks} tasks per request (got ${tasks.length}).`)
	}
	return tasks.map((task, index) => {
		if (typeof task !== 'string' || !task.trim()) throw new ParallelTaskError(`Task ${index + 1} is empty.`)
		return task.trim()
	})
}

function toTaskResult(task: string, response: AskResponse): ParallelTaskResult {
	const { success, answer, code, files, steps, tokens, duration, error } = response
	return { task, success, answer, code, files, steps, tokens, duration, error }
}

/** Runs the tasks, each in its own conversation, with bounded concurrency. */
export async function runParallel(
	tasks: readonly string[],
	options: ParallelOptions
): Promise<ParallelResult> {
	const questions = validateTasks(tasks)
	const concurrency = Math.max(1, Math.floor(options.concurrency ?? AGENT_DEFAULTS.concurrency))
	const started = performance.now()
	const results: ParallelTaskResult[] = new Array(questions.length)
	let next = 0

	const worker = async () => {
		while (next < questions.length) {
			const index = next++
			const task = questions[index]
			let response: AskResponse
			try {
				const agent = options.createAgent(index)
				response = await agent.ask(task, {
					signal: options.signal,
					onEvent: options.onEvent ? (event) => options.onEvent?.(index, event) : undefined,
					onFileError: options.onFileError ? (failure) => options.onFileError?.(index, failure) : undefined
				})
			} catch (error) {
				response = failedAsk(error instanceof Error ? error.message : String(error))
			}
			results[index] = toTaskResult(task, response)
			try {
				options.onTaskDone?.(index, results[index], response)
			} catch {
				// A failing progress display must not stop the other tasks.
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, questions.length) }, worker))
	return {
		success: results.every((result) => result.success),
		results,
		total_duration: Math.round((performance.now() - started) / 10) / 100,
		total_tokens: results.reduce((total, result) => total + result.tokens, 0)
	}
}
