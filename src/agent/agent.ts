/**
 * The agent: one conversation with a model that answers questions by running code against the
 * Instagram client (docs/architecture.md, "The agent"). `ask` returns the AI ask response; asks on one
 * agent run
 * one at a time (a second waits). Used by `smkit ask`, the agent web server and the playground.
 */
import type { InstagramClient } from '../client/client'
import { type MethodSpec, methodRegistry } from '../client/registry'
import { type CodeRunnerOptions, createCodeRunner } from './code-runner'
import { type AgentEventListener, type AskResponse, emitSafely, type SavedFile } from './events'
import { ConversationFileQuota } from './file-quota'
import { OutputFiles } from './files'
import { estimateTokens, fitHistory } from './history'
import { keyRedactor, redactingListener, redactResponse } from './key-redaction'
import { runAgent } from './loop'
import { type ChatModel, type ConversationMessage, createChatModel, resolveModel } from './model'
import {
	type Approver,
	PermissionGate,
	type PermissionGateOptions,
	type PermissionLevel
} from './permissions'
import { buildSystemPrompt } from './prompt'
import { AgentAbortError } from './provider-error'
import type { ProviderConfig } from './providers'
import { AGENT_DEFAULTS, type AgentSettings } from './settings'
import { createRunCodeTool } from './tools'

/** How an agent is built: its settings (`AgentSettings`) and what it works with. */
export interface AgentOptions extends AgentSettings {
	/** The Instagram client generated code talks to (`ig`). */
	client: InstagramClient
	/** The resolved provider (see `resolveProvider`); `auto` models of local runners resolve on first ask. */
	provider: ProviderConfig
	/** Use this model instead of building one from `provider` (tests, other transports). */
	chatModel?: ChatModel
	/** Decides actions that need asking; without one they are denied. */
	approver?: Approver
	/** Whether `ask_once` approvals remembered earlier apply to a write of the ask with this signal (default yes). */
	remembersFor?: PermissionGateOptions['remembersFor']
	/** Methods offered to generated code (default: the client's whole registry). */
	methods?: readonly MethodSpec[]
}

/** Options of one ask. */
export interface AskOptions {
	signal?: AbortSignal
	onEvent?: AgentEventListener
	/** Told of each file an allowed `saveFile` could not write (`smkit ask` fails the ask for it). */
	onFileError?: CodeRunnerOptions['onFileError']
}

/** A conversation entry as shown to people (no system prompt). */
export interface HistoryEntry {
	role: 'user' | 'assistant' | 'tool'
	content: string
	timestamp: number
	/** A tool output only: false when the call failed, was denied or was stopped. */
	success?: boolean
}

const historyEntryLimit = 4000

/** Why an ask whose answer fell back on a failed run's output failed. */
const noAnswer = 'The model gave no answer and its last code run failed'

function stripMarkers(text: string): string {
	return text.replace(/<tool_output[^>]*>\n?/g, '').replace(/\n?<\/tool_output>/g, '')
}

/** The agent. */
export class Agent {
	/** Permission level of every action in this conversation. */
	readonly permission: PermissionLevel
	readonly maxSteps: number
	private provider: ProviderConfig
	private chatModel?: ChatModel
	private readonly options: AgentOptions
	private readonly gate: PermissionGate
	private readonly methods: readonly MethodSpec[]
	private readonly files: OutputFiles
	private readonly fileQuota = new ConversationFileQuota()
	private history: ConversationMessage[] = []
	private queue: Promise<unknown> = Promise.resolve()

	constructor(options: AgentOptions) {
		this.options = options
		this.provider = options.chatModel?.provider ?? options.provider
		this.chatModel = options.chatModel
		this.permission = options.permission ?? AGENT_DEFAULTS.permission
		this.maxSteps = Math.max(1, Math.floor(options.maxSteps ?? AGENT_DEFAULTS.maxSteps))
		this.gate = new PermissionGate({
			level: this.permission,
			approver: options.approver,
			remembersFor: options.remembersFor
		})
		this.methods = options.methods ?? methodRegistry
		this.files = new OutputFiles(options.filesDir ?? AGENT_DEFAULTS.filesDir)
	}

	/** Provider and model in use (the model is `auto` until the server has been asked). */
	describe(): { provider: string; label: string; model: string } {
		return { provider: this.provider.name, label: this.provider.label, model: this.provider.model }
	}

	/** Asks a question in this conversation. Never throws: failures are `success: false` responses. */
	ask(message: string, options: AskOptions = {}): Promise<AskResponse> {
		const run = this.queue.then(() => this.askNow(message, options))
		this.queue = run.catch(() => undefined)
		return run
	}

	/** Clears the conversation and remembered approvals. */
	reset(): void {
		this.history = []
		this.gate.reset()
		this.fileQuota.reset()
	}

	/** `text` with the configured API key redacted, as in everything the agent shows. */
	redact(text: string): string {
		return keyRedactor(this.provider)(text)
	}

	/** The conversation without system messages, for display (the API key redacted). */
	getHistory(): HistoryEntry[] {
		const redact = keyRedactor(this.provider)
		return this.history.flatMap((message): HistoryEntry[] => {
			if (message.role === 'system') return []
			let role: HistoryEntry['role'] = message.role
			let content = redact(message.content)
			if (message.role === 'assistant' && message.toolCalls?.length && !content.trim()) {
				content = `(called ${message.toolCalls.map((call) => call.name).join(', ')})`
			}
			if (message.role === 'tool' || (message.role === 'user' && message.codeResult)) {
				role = 'tool'
				content = stripMarkers(content)
			}
			if (content.length > historyEntryLimit) content = `${content.slice(0, historyEntryLimit)}...`
			const failed = 'failed' in message && message.failed === true
			return [
				{ role, content, timestamp: message.timestamp, ...(role === 'tool' ? { success: !failed } : {}) }
			]
		})
	}

	/** Built for each ask: the login state (an account connected meanwhile) and today's date are current. */
	private buildPrompt(): string {
		return buildSystemPrompt(this.methods, {
			compact: this.provider.local,
			loggedIn: this.options.client.loggedIn
		})
	}

	private async model(signal?: AbortSignal): Promise<ChatModel> {
		if (this.chatModel) return this.chatModel
		this.provider = await resolveModel(this.provider, { ...this.options.modelOptions, signal })
		this.chatModel = createChatModel(this.provider, this.options.modelOptions)
		return this.chatModel
	}

	private async askNow(message: string, askOptions: AskOptions): Promise<AskResponse> {
		const started = performance.now()
		const files: SavedFile[] = []
		// What the ask shows never holds the configured key (the person's question may).
		const redact = keyRedactor(this.provider)
		const options = { ...askOptions, onEvent: redactingListener(askOptions.onEvent, redact) }
		const respond = (fields: Partial<AskResponse> & { success: boolean }): AskResponse => {
			const unredacted: AskResponse = {
				answer: '',
				code: '',
				files,
				steps: 0,
				tokens: 0,
				error: null,
				...fields,
				// Seconds with two decimals.
				duration: Math.round((performance.now() - started) / 10) / 100
			}
			const response = redactResponse(unredacted, redact)
			if (response.error) emitSafely(options.onEvent, { type: 'error', message: response.error })
			emitSafely(options.onEvent, { type: 'done', ...response })
			return response
		}
		const question = typeof message === 'string' ? message.trim() : ''
		if (!question) return respond({ success: false, error: 'Message is empty' })
		emitSafely(options.onEvent, { type: 'status', message: 'Processing your request...' })

		let model: ChatModel
		try {
			const asking = this.provider.model === 'auto'
			model = await this.model(options.signal)
			if (asking) {
				// `--model auto` against a server: say which model it gave.
				const chosen = this.provider.model
				emitSafely(options.onEvent, {
					type: 'status',
					message: `Using ${chosen}, the first chat model the server lists (choose another with --model).`,
					model: chosen
				})
			}
		} catch (error) {
			const reason = error instanceof AgentAbortError ? 'Cancelled' : (error as Error).message
			return respond({ success: false, error: reason })
		}
		this.history.push({ role: 'user', content: question, timestamp: Date.now() / 1000 })
		const system = this.buildPrompt()
		const budget = Math.max(
			1000,
			(this.options.historyTokenBudget ?? AGENT_DEFAULTS.historyTokenBudget) -
				estimateTokens([{ role: 'system', content: system }])
		)
		const runner = createCodeRunner({
			client: this.options.client,
			methods: this.methods,
			gate: this.gate,
			files: this.files,
			quota: this.fileQuota,
			timeoutMs: Math.round((this.options.timeoutSeconds ?? AGENT_DEFAULTS.timeoutSeconds) * 1000),
			onFileError: options.onFileError,
			redactSecrets: redact
		})
		const result = await runAgent({
			model,
			tools: [createRunCodeTool(runner)],
			system,
			messages: this.history,
			maxSteps: this.maxSteps,
			signal: options.signal,
			onEvent: options.onEvent,
			runCodeBlock: runner,
			prepareMessages: (messages) => fitHistory(messages, budget),
			files
		})
		this.history = fitHistory(this.history, budget)
		const common = { code: result.code, steps: result.steps, tokens: result.tokens }
		switch (result.finishReason) {
			case 'answer':
				return respond({ success: true, answer: result.answer, ...common })
			case 'no_answer':
				// The answer is the failed run's output, which the person sees beside this error.
				return respond({ success: false, answer: result.answer, ...common, error: `${noAnswer}.` })
			case 'max_steps':
			case 'stopped':
				return respond({
					success: false,
					answer: result.answer,
					...common,
					error: `Step limit reached (${this.maxSteps} steps) before a final answer; ${result.failedRunAnswer ? `${noAnswer.toLowerCase()}.` : 'the answer may be incomplete.'}`
				})
			case 'aborted':
				return respond({ success: false, answer: result.answer, ...common, error: 'Cancelled' })
			default:
				// A provider failure is never an answer (docs/architecture.md, "The agent").
				return respond({ success: false, ...common, error: result.error?.message ?? 'The model call failed' })
		}
	}
}
