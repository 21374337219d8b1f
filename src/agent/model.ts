/**
 * The chat model behind the agent: one `openai` SDK client per provider, one non-streaming
 * chat-completions call per step. Conversation messages are kept in our own shape (with
 * timestamps) and converted to the wire format on each call.
 */
import type OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { AgentAbortError, AgentProviderError, modelTimeoutError, toProviderError } from './provider-error'
import type { ProviderConfig } from './providers'
import { limitReplySize } from './reply-limit'

/**
 * A tool call the model asked for: only the fields the chat API defines, plus Gemini's thought
 * signature (its `extra_content.google.thought_signature`, which Gemini wants replayed). Nothing
 * else a reply carries is kept: whatever is kept is sent back on every later request, and a
 * hostile extra (one nested 200,000 levels deep) would make each of them fail.
 */
export interface ToolCallRequest {
	id: string
	name: string
	/** JSON text as the model produced it (may be invalid: validated by the tool). */
	arguments: string
	thoughtSignature?: string
}

/** The assistant message a reply with tool calls leaves in the conversation: role, content and the calls' own fields. */
export function toolCallMessage(content: string, calls: readonly ToolCallRequest[], timestamp: number) {
	const toolCalls = calls.map(
		({ id, name, arguments: text, thoughtSignature }): ToolCallRequest => ({
			id,
			name,
			arguments: text,
			...(typeof thoughtSignature === 'string' ? { thoughtSignature } : {})
		})
	)
	return { role: 'assistant' as const, content, toolCalls, timestamp }
}

/**
 * One message of a conversation. `timestamp` is epoch seconds. System messages are never shown.
 * A user message with `codeResult` carries the output of a fenced code block the model wrote
 * (models without tool calls); it is not something the person typed.
 */
export type ConversationMessage =
	| { role: 'system'; content: string }
	| { role: 'user'; content: string; timestamp: number; codeResult?: boolean; failed?: boolean }
	| { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[]; timestamp: number }
	// `failed`: the call failed, was denied or was stopped (shown so again after a reload).
	| { role: 'tool'; toolCallId: string; name: string; content: string; timestamp: number; failed?: boolean }

/** Token usage of one model call. */
export interface ModelUsage {
	promptTokens: number
	completionTokens: number
	totalTokens: number
}

/** What one model call returned. */
export interface ModelReply {
	content: string
	toolCalls: ToolCallRequest[]
	usage: ModelUsage
}

/** A tool offered to the model, in the wire format's terms. */
export interface ModelTool {
	name: string
	description: string
	/** JSON schema of the arguments (a TypeBox schema is one). */
	parameters: Record<string, unknown>
}

/** One chat-completions call. */
export interface ModelRequest {
	messages: readonly ConversationMessage[]
	/** Omitted or empty: no tools are sent (models without tool support). */
	tools?: readonly ModelTool[]
	signal?: AbortSignal
}

/** The model the loop talks to; tests and other transports can provide their own. */
export interface ChatModel {
	readonly provider: ProviderConfig
	complete(request: ModelRequest): Promise<ModelReply>
}

/** How long one model call may take by default, its retries included (the CLI's `--model-timeout`). */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000

/** SDK client settings. */
export interface ChatModelOptions {
	/**
	 * How long one model call may take in ms, retries included (default 120000). Past it the call
	 * fails naming the endpoint's host: a model that never answers is not waited for twice.
	 */
	timeoutMs?: number
	/** SDK retries of 429/5xx/connection failures (default 1; the SDK's own default is 2). */
	maxRetries?: number
	fetch?: typeof fetch
}

/** Converts our messages to the chat-completions wire format. */
export function toWireMessages(messages: readonly ConversationMessage[]): ChatCompletionMessageParam[] {
	return messages.map((message): ChatCompletionMessageParam => {
		switch (message.role) {
			case 'system':
				return { role: 'system', content: message.content }
			case 'user':
				return { role: 'user', content: message.content }
			case 'tool':
				return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
			default: {
				if (!message.toolCalls?.length) return { role: 'assistant', content: message.content }
				return {
					role: 'assistant',
					content: message.content || null,
					tool_calls: message.toolCalls.map((call) => ({
						id: call.id,
						type: 'function' as const,
						function: { name: call.name, arguments: call.arguments },
						...(call.thoughtSignature
							? { extra_content: { google: { thought_signature: call.thoughtSignature } } }
							: {})
					}))
				}
			}
		}
	})
}

/**
 * The SDK is loaded on the first model call: it is the largest module of the program, and a server
 * whose AI chat is never used should not carry it in its heap.
 */
async function createSdkClient(
	config: ProviderConfig,
	options: ChatModelOptions,
	attemptTimeoutMs: number
): Promise<OpenAI> {
	const { default: OpenAI } = await import('openai')
	return new OpenAI({
		apiKey: config.apiKey ?? 'missing',
		baseURL: config.baseURL,
		// Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID for another provider's endpoint.
		organization: null,
		project: null,
		timeout: attemptTimeoutMs,
		maxRetries: options.maxRetries ?? 1,
		// Every reply is read within a size cap (chat completions, the model list, error bodies).
		fetch: limitReplySize(() => options.fetch ?? fetch),
		logLevel: 'off'
	})
}

function parseReply(body: unknown): ModelReply {
	const choices = (body as { choices?: unknown } | null)?.choices
	if (!Array.isArray(choices) || choices.length === 0) throw new SyntaxError('no choices')
	const message = (choices[0] as { message?: unknown }).message as
		| { content?: unknown; tool_calls?: unknown }
		| undefined
	if (!message || typeof message !== 'object') throw new SyntaxError('no message')
	const content = typeof message.content === 'string' ? message.content : ''
	const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : []
	const toolCalls: ToolCallRequest[] = []
	for (const [index, raw] of rawCalls.entries()) {
		const call = raw as {
			id?: unknown
			function?: { name?: unknown; arguments?: unknown }
			extra_content?: { google?: { thought_signature?: unknown } }
		}
		if (typeof call?.function?.name !== 'string') throw new SyntaxError('tool call without a name')
		const signature = call.extra_content?.google?.thought_signature
		toolCalls.push({
			// Some compatible endpoints omit ids; the follow-up tool message still needs one.
			id: typeof call.id === 'string' && call.id ? call.id : `call_${Date.now()}_${index}`,
			name: call.function.name,
			arguments: argumentsText(call.function.arguments),
			...(typeof signature === 'string' && signature ? { thoughtSignature: signature } : {})
		})
	}
	const usage = (body as { usage?: Record<string, unknown> }).usage ?? {}
	const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0)
	const promptTokens = number(usage.prompt_tokens)
	const completionTokens = number(usage.completion_tokens)
	const totalTokens = number(usage.total_tokens) || promptTokens + completionTokens
	return { content, toolCalls, usage: { promptTokens, completionTokens, totalTokens } }
}

/** Builds the SDK-backed model for a resolved provider (the model must not be `auto` any more). */
export function createChatModel(config: ProviderConfig, options: ChatModelOptions = {}): ChatModel {
	let client: Promise<OpenAI> | undefined
	const timeoutMs = options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS
	const secrets = [config.apiKey]
	return {
		provider: config,
		async complete(request: ModelRequest): Promise<ModelReply> {
			if (request.signal?.aborted) throw new AgentAbortError()
			const tools: ChatCompletionTool[] | undefined = request.tools?.length
				? request.tools.map((tool) => ({
						type: 'function',
						function: { name: tool.name, description: tool.description, parameters: tool.parameters }
					}))
				: undefined
			const deadline = AbortSignal.timeout(timeoutMs)
			const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline
			try {
				// No temperature: reasoning models reject anything but their default. Each attempt
				// may use the whole time: the call's own deadline ends it first.
				client ??= createSdkClient(config, options, timeoutMs + 1000)
				const body = await (await client).chat.completions.create(
					{
						model: config.model,
						messages: toWireMessages(request.messages),
						...(tools ? { tools } : {}),
						...(config.maxTokens ? { max_tokens: config.maxTokens } : {})
					},
					{ signal }
				)
				return parseReply(body)
			} catch (error) {
				if (deadline.aborted && !request.signal?.aborted) throw modelTimeoutError(config, timeoutMs)
				throw toProviderError(error, config, secrets, request.signal)
			}
		}
	}
}

/** Model ids that are not chat models (embeddings, speech, images, moderation, rerankers). */
const notChat = /embed|whisper|tts|dall-e|moderation|transcri|speech|audio|image|rerank|babbage|davinci/i

/**
 * Resolves `model: 'auto'` (a local runner, or a provider given another base URL) by asking the
 * server (`GET /v1/models`) and taking the first chat model it lists, within one model call's time
 * (`timeoutMs`, retries included). Other configs are returned unchanged.
 */
export async function resolveModel(
	config: ProviderConfig,
	options: ChatModelOptions & { signal?: AbortSignal } = {}
): Promise<ProviderConfig> {
	if (config.model !== 'auto') return config
	// One deadline for the whole listing, retries included, as for a chat call (`--model-timeout`).
	const timeoutMs = options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS
	const deadline = AbortSignal.timeout(timeoutMs)
	const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
	let first: string | undefined
	try {
		const client = await createSdkClient(config, options, timeoutMs + 1000)
		const page = await client.models.list({ signal })
		const ids = page.data
			.map((model) => model?.id)
			.filter((id): id is string => typeof id === 'string' && id !== '')
		first = ids.find((id) => !notChat.test(id))
	} catch (error) {
		if (deadline.aborted && !options.signal?.aborted) throw modelTimeoutError(config, timeoutMs)
		throw toProviderError(error, config, [config.apiKey], options.signal)
	}
	if (!first) {
		const hint = config.local ? 'try: ollama pull llama3.2' : 'name one with --model'
		throw new AgentProviderError(config.label, 'not_found', `the server lists no chat models (${hint})`)
	}
	return { ...config, model: first }
}

/**
 * A tool call's arguments as JSON text. The API sends a string; some compatible servers send the
 * object itself, which is kept (as its JSON) rather than replaced by empty arguments.
 */
function argumentsText(value: unknown): string {
	if (typeof value === 'string') return value
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : '{}'
}
