/**
 * The tool calls of one model reply (docs/architecture.md, "The agent"), run in order within the
 * step. How many run is bounded, since each may take the whole `--timeout` (or an approval's wait)
 * and one reply may hold any number of them: at most `toolCallsPerReply` run per reply, and an ask
 * runs at most its step cap (`--max-steps`) of code runs in all, fenced blocks included (`RunBudget`).
 * A call beyond either is answered to the model as not run, saying why: every tool call gets a
 * result, since providers reject a conversation with one unanswered. How many are kept is bounded
 * too (`keepToolCalls`): calls past `toolCallsKeptPerReply` are dropped from the reply before it
 * joins the conversation, so they get neither an event nor a tool message.
 */
import { type AgentEventListener, emitSafely, eventOutputLimit, type SavedFile, truncateText } from './events'
import type { ConversationMessage, ToolCallRequest } from './model'
import { markUntrusted } from './prompt'
import { type AgentTool, parseToolArguments } from './tools'

/** Tool calls of one reply that run; the model is told the rest were not run. */
export const toolCallsPerReply = 5

/**
 * Tool calls of one reply kept in the conversation, each answered (run or not). A reply may hold any
 * number of calls, and each kept one costs an event, a tool message and its share of every later
 * request: the ones past this bound are dropped, the model told how many.
 */
export const toolCallsKeptPerReply = 20

/** A reply's tool calls cut to `toolCallsKeptPerReply`, and how many were dropped. */
export function keepToolCalls(calls: readonly ToolCallRequest[]): {
	kept: ToolCallRequest[]
	dropped: number
} {
	const kept = calls.slice(0, toolCallsKeptPerReply)
	return { kept, dropped: calls.length - kept.length }
}

/** What the model is told, after the last kept call's result, about the calls dropped from its reply. */
export function droppedCallsNote(kept: number, dropped: number): string {
	return `Dropped: your reply had ${kept + dropped} tool calls; only the first ${kept} were kept and answered, the other ${dropped} were neither run nor kept. Send at most ${toolCallsPerReply} calls per reply.`
}

/** The result kept for a tool call the person cancelled. */
const cancelledCall = 'Cancelled: the user stopped this request before the call finished.'

/** The code runs an ask may still make (tool calls that run and fenced blocks), `--max-steps` in all. */
export class RunBudget {
	readonly total: number
	private used = 0

	constructor(total: number) {
		this.total = total
	}

	/** Takes one run; false (and nothing taken) when none is left. */
	take(): boolean {
		if (this.used >= this.total) return false
		this.used++
		return true
	}

	/** What the model is told about a run the budget did not allow. */
	refusal(): string {
		return `Not run: this request may run code at most ${this.total} times (the step limit), and has. Answer now with what you have.`
	}
}

/** What the model is told about a call beyond `toolCallsPerReply`. */
const overReplyLimit = `Not run: at most ${toolCallsPerReply} tool calls of one reply are run. Send the calls still needed in your next reply, or answer with what you have.`

/** What the last code run left, for an answer the model did not write itself. */
export interface LastRun {
	code: string
	output: string
	/** The run ended in an error (it threw, timed out, or a write it needed was denied). */
	failed: boolean
}

/** Inputs of `runToolCalls`. */
export interface ToolCallsOptions {
	/** The reply's kept calls (`keepToolCalls`), as stored in the conversation. */
	calls: readonly ToolCallRequest[]
	/** Calls dropped from the reply; the last kept call's result says how many. */
	dropped: number
	step: number
	tools: readonly AgentTool[]
	/** The conversation; one tool message per call is appended. */
	messages: ConversationMessage[]
	budget: RunBudget
	/** Tool results are cut to this many characters in the history. */
	limit: number
	signal?: AbortSignal
	onEvent?: AgentEventListener
	files: SavedFile[]
	/** Told of each call that ran code. */
	onRun(run: LastRun): void
}

/** Runs the reply's kept tool calls; 'aborted' when the ask was cancelled meanwhile (every call still answered). */
export async function runToolCalls(options: ToolCallsOptions): Promise<'done' | 'aborted'> {
	const { calls, step, messages } = options
	let ran = 0
	for (const [index, call] of calls.entries()) {
		const tool = options.tools.find((candidate) => candidate.name === call.name)
		const event = { step, id: call.id, source: 'model' as const, name: call.name }
		let parsedArguments: unknown = call.arguments
		try {
			parsedArguments = JSON.parse(call.arguments)
		} catch {
			// Shown as text; validation below reports it to the model.
		}
		emitSafely(options.onEvent, { type: 'tool_call', ...event, arguments: parsedArguments })
		let success = false
		let output: string
		let denied: string[] | undefined
		const parsed = tool ? parseToolArguments(tool, call.arguments) : undefined
		if (!tool || !parsed) {
			output = `Unknown tool: ${call.name}. The only tool is run_code.`
		} else if (!parsed.ok) {
			output = parsed.error
		} else if (ran >= toolCallsPerReply) {
			output = overReplyLimit
		} else if (!options.budget.take()) {
			output = options.budget.refusal()
		} else {
			ran++
			const outcome = await tool.execute(parsed.value, {
				step,
				callId: call.id,
				signal: options.signal,
				onEvent: options.onEvent,
				files: options.files
			})
			success = outcome.success
			output = outcome.output
			denied = outcome.denied
			if (outcome.code !== undefined) options.onRun({ code: outcome.code, output, failed: !success })
		}
		// Cancelled while the call ran (Ctrl-C at an approval prompt): this call and the ones after
		// it still get results, since providers reject a tool call without one (the next ask fails).
		if (options.signal?.aborted) {
			for (const unanswered of calls.slice(index)) {
				messages.push({
					role: 'tool',
					toolCallId: unanswered.id,
					name: unanswered.name,
					content: markUntrusted(cancelledCall),
					timestamp: Date.now() / 1000,
					failed: true
				})
			}
			return 'aborted'
		}
		// Our own words, outside the untrusted output's markers.
		const note =
			options.dropped && index === calls.length - 1
				? `\n${droppedCallsNote(calls.length, options.dropped)}`
				: ''
		emitSafely(options.onEvent, {
			type: 'tool_result',
			...event,
			success,
			output: truncateText(output, eventOutputLimit) + note,
			...(denied?.length ? { denied } : {})
		})
		messages.push({
			role: 'tool',
			toolCallId: call.id,
			name: call.name,
			content: markUntrusted(truncateText(output, options.limit)) + note,
			timestamp: Date.now() / 1000,
			failed: !success
		})
	}
	return 'done'
}
