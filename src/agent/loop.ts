/**
 * The agent loop (docs/architecture.md, "The agent"; shaped after pi-mono and vercel/ai): one step is one
 * model call; tool
 * calls in a reply run in order within the step (a bounded number of them: see tool-calls.ts) and
 * their results go back to the model; a reply without tool calls is the answer, and an empty one
 * falls back on the last run's output (a failed ask when that run failed). Stop conditions are predicates checked after every step that
 * ran tools. A fenced ```javascript block in a reply without tool calls is run the same way (for
 * models without tool calling), its output fed back as a user message (no orphan tool messages).
 */
import { type AgentEventListener, emitSafely, eventOutputLimit, type SavedFile, truncateText } from './events'
import { type ChatModel, type ConversationMessage, type ModelReply, toolCallMessage } from './model'
import { markUntrusted } from './prompt'
import { AgentAbortError, AgentProviderError } from './provider-error'
import { keepToolCalls, type LastRun, RunBudget, runToolCalls } from './tool-calls'
import type { AgentTool } from './tools'

/** What stop conditions look at. */
export interface LoopState {
	/** Model calls made so far in this run. */
	step: number
	lastReply?: ModelReply
}

/** Stops the loop when it returns true (checked after each step that ran tools). */
export type StopCondition = (state: LoopState) => boolean

/** Stops after `count` model calls. */
export const stepCountIs =
	(count: number): StopCondition =>
	(state) =>
		state.step >= count

/** Runs a fenced code block (the same runner as run_code). */
export type CodeBlockRunner = (
	code: string,
	context: {
		step: number
		callId: string
		signal?: AbortSignal
		onEvent?: AgentEventListener
		files: SavedFile[]
	}
) => Promise<{ success: boolean; output: string; ran: boolean; denied?: string[] }>

/** Inputs of one run. */
export interface RunAgentOptions {
	model: ChatModel
	tools: readonly AgentTool[]
	system: string
	/** The conversation without the system prompt, ending with the new question; appended to in place. */
	messages: ConversationMessage[]
	maxSteps?: number
	/** Extra stop conditions; `stepCountIs(maxSteps)` is always included. */
	stopWhen?: readonly StopCondition[]
	signal?: AbortSignal
	onEvent?: AgentEventListener
	runCodeBlock?: CodeBlockRunner
	/** Chooses what is sent each step (e.g. history fitted to a budget). Default: everything. */
	prepareMessages?: (messages: readonly ConversationMessage[]) => ConversationMessage[]
	/** Tool results are cut to this many characters in the history (default 3000). */
	toolResultLimit?: number
	/** Files written during this run are appended here. */
	files: SavedFile[]
}

/**
 * How a run ended. `no_answer`: the model's last reply was empty and the last code run had failed,
 * so the answer is that run's output (an error, not an answer: the ask fails).
 */
export interface RunAgentResult {
	finishReason: 'answer' | 'no_answer' | 'max_steps' | 'stopped' | 'error' | 'aborted'
	/** The answer, or the best partial answer when the run did not finish. */
	answer: string
	/** Last code that ran ('' when none did). */
	code: string
	steps: number
	tokens: number
	/** The answer is the output of the last code run, which failed (the model wrote none of its own). */
	failedRunAnswer?: boolean
	error?: Error
}

const fencedBlock = /```(?:javascript|js)[ \t]*\r?\n([\s\S]*?)```/i

/** Finds a fenced javascript block worth running: the reply is mostly that code, or tools are off. */
export function extractCodeBlock(content: string, toolsOffered: boolean): string | undefined {
	const match = fencedBlock.exec(content)
	const code = match?.[1]?.trim()
	if (!match || !code) return undefined
	const prose = content.replace(match[0], '').trim()
	return !toolsOffered || prose.length < 400 ? code : undefined
}

const now = () => Date.now() / 1000

/** What the conversation keeps for an empty final reply (the person was shown the last output). */
export const EMPTY_REPLY_NOTE = '(No reply from the model: the code output was shown as the answer.)'

/** Runs the loop until an answer, a stop condition, a provider failure or cancellation. */
export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
	const maxSteps = options.maxSteps ?? 15
	const stopWhen = [stepCountIs(maxSteps), ...(options.stopWhen ?? [])]
	const limit = options.toolResultLimit ?? 3000
	const messages = options.messages
	const state: LoopState = { step: 0 }
	let tokens = 0
	let partial = ''
	// The last code that ran (a tool call or a fenced block): what an answer falls back on.
	let last: LastRun = { code: '', output: '', failed: false }
	// Code runs of this ask, the step cap in all (see tool-calls.ts).
	const budget = new RunBudget(maxSteps)
	let toolsOffered = options.tools.length > 0
	const blocksRun = new Set<string>()
	const result = (
		finishReason: RunAgentResult['finishReason'],
		answer: string,
		error?: Error
	): RunAgentResult => ({
		finishReason,
		answer,
		code: last.code,
		steps: state.step,
		tokens,
		error
	})

	// After a step that ran code: cancelled, or a stop condition (the step cap) says enough.
	const stopAfterStep = (): RunAgentResult | undefined => {
		if (options.signal?.aborted) return result('aborted', partial, new AgentAbortError())
		if (!stopWhen.some((condition) => condition(state))) return undefined
		const reason = state.step >= maxSteps ? 'max_steps' : 'stopped'
		if (partial || !last.output) return result(reason, partial)
		// Falling back on the last run's output: a failed run's error must not pass for an answer.
		return { ...result(reason, last.output), ...(last.failed ? { failedRunAnswer: true } : {}) }
	}

	for (;;) {
		if (options.signal?.aborted) return result('aborted', partial, new AgentAbortError())
		state.step++
		emitSafely(options.onEvent, {
			type: 'step',
			step: state.step,
			maxSteps,
			message: `Step ${state.step}: ${state.step === 1 ? 'thinking' : 'analysing the results'}...`
		})
		const toSend = options.prepareMessages ? options.prepareMessages(messages) : [...messages]
		let reply: ModelReply
		try {
			reply = await options.model.complete({
				messages: [{ role: 'system', content: options.system }, ...toSend],
				tools: toolsOffered
					? options.tools.map((tool) => ({
							name: tool.name,
							description: tool.description,
							parameters: tool.parameters as unknown as Record<string, unknown>
						}))
					: undefined,
				signal: options.signal
			})
		} catch (error) {
			// Endpoints without tool support reject the request; retry this step without tools once.
			if (
				toolsOffered &&
				error instanceof AgentProviderError &&
				error.kind === 'bad_request' &&
				/tool|function/i.test(error.message)
			) {
				toolsOffered = false
				state.step--
				continue
			}
			if (error instanceof AgentAbortError) return result('aborted', partial, error)
			return result('error', partial, error instanceof Error ? error : new Error(String(error)))
		}
		state.lastReply = reply
		tokens += reply.usage.totalTokens
		const timestamp = now()

		if (reply.toolCalls.length) {
			if (reply.content.trim()) partial = reply.content.trim()
			// Only a bounded number of the calls, and only their own fields, join the conversation.
			const { kept, dropped } = keepToolCalls(reply.toolCalls)
			const message = toolCallMessage(reply.content, kept, timestamp)
			messages.push(message)
			const ended = await runToolCalls({
				calls: message.toolCalls,
				dropped,
				step: state.step,
				tools: options.tools,
				messages,
				budget,
				limit,
				signal: options.signal,
				onEvent: options.onEvent,
				files: options.files,
				onRun: (run) => {
					last = run
				}
			})
			if (ended === 'aborted') return result('aborted', partial, new AgentAbortError())
			const stop = stopAfterStep()
			if (stop) return stop
			continue
		}

		const block = options.runCodeBlock ? extractCodeBlock(reply.content, toolsOffered) : undefined
		if (block && options.runCodeBlock && !blocksRun.has(block)) {
			blocksRun.add(block)
			messages.push({ role: 'assistant', content: reply.content, timestamp })
			const callId = `block-${state.step}`
			emitSafely(options.onEvent, {
				type: 'tool_call',
				step: state.step,
				id: callId,
				source: 'model',
				name: 'run_code',
				arguments: { code: block }
			})
			const outcome = budget.take()
				? await options.runCodeBlock(block, {
						step: state.step,
						callId,
						signal: options.signal,
						onEvent: options.onEvent,
						files: options.files
					})
				: { success: false, output: budget.refusal(), ran: false }
			if (outcome.ran) last = { code: block, output: outcome.output, failed: !outcome.success }
			if (options.signal?.aborted) return result('aborted', partial, new AgentAbortError())
			emitSafely(options.onEvent, {
				type: 'tool_result',
				step: state.step,
				id: callId,
				source: 'model',
				name: 'run_code',
				success: outcome.success,
				output: truncateText(outcome.output, eventOutputLimit),
				...(outcome.denied?.length ? { denied: outcome.denied } : {})
			})
			messages.push({
				role: 'user',
				codeResult: true,
				content: `Result of your code block:\n${markUntrusted(truncateText(outcome.output, limit))}\nAnswer the question now, or send one more code block if you need more data.`,
				timestamp: now(),
				failed: !outcome.success
			})
			const stop = stopAfterStep()
			if (stop) return stop
			continue
		}

		const answer = reply.content.trim() || last.output || (last.code ? `Executed code:\n${last.code}` : '')
		if (!answer) {
			// Nothing to show (a content filter, a reasoning model out of tokens): a failed ask, not a blank answer.
			const label = options.model.provider.label
			return result('error', '', new AgentProviderError(label, 'malformed', 'the model sent an empty reply'))
		}
		// Not the output shown in its place: data from Instagram, as the model's own words, goes unmarked.
		messages.push({ role: 'assistant', content: reply.content.trim() ? answer : EMPTY_REPLY_NOTE, timestamp })
		// An empty reply after a failed run leaves that run's error as the answer: the ask failed.
		if (!reply.content.trim() && last.failed && answer === last.output)
			return { ...result('no_answer', answer), failedRunAnswer: true }
		return result('answer', answer)
	}
}
