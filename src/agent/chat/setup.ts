/**
 * Turns the agent web server's inputs (env file path, provider, API key, permission level)
 * into a chat session, or into the reason there is none. Shared with the playground's AI chat,
 * which chooses its provider from the environment file's AI keys the same way (docs/architecture.md, "The
 * agent").
 */

import type { InstagramClient } from '../../client/client'
import type { ChatModelOptions } from '../model'
import type { PermissionLevel } from '../permissions'
import { missingKeyMessage, resolveProvider } from '../providers'
import { loadAgentEnv } from '../setup'
import { ChatSession } from './chat-session'

/** Provider and agent settings of a chat (every field optional except the client). */
export interface ChatSetupOptions {
	client: InstagramClient
	/** Variables to read AI keys from; default: the env file at `envPath` under the process environment. */
	env?: Record<string, string | undefined>
	/** Default `.env`; a missing file is not an error. */
	envPath?: string
	/** Provider name (default: the first whose key is set, else gemini). */
	provider?: string
	/** `auto` (default) = the provider's default model. */
	model?: string
	/** Wins over the environment. Never shown anywhere. */
	apiKey?: string
	/** OpenAI-compatible endpoint replacing the provider's. */
	baseURL?: string
	/** Default `ask_once`. */
	permission?: PermissionLevel
	/** Browser approvals wait this long before denying (default 120000 ms). */
	approvalTimeoutMs?: number
	/** Model calls per ask (default 15). */
	maxSteps?: number
	/** Code run time-out in seconds (default 30). */
	timeoutSeconds?: number
	/** Where `saveFile` writes (default `output`). */
	filesDir?: string
	/** Parallel tasks in flight at once (default 3). */
	concurrency?: number
	historyTokenBudget?: number
	modelOptions?: ChatModelOptions
}

/** What the chat side of a server is: a session, or why there is none. */
export interface ChatSetup {
	/** Null when no provider key is configured. */
	session: ChatSession | null
	available: boolean
	/** Provider name, e.g. `gemini`. */
	provider: string
	/** Display name, e.g. `Gemini`. */
	label: string
	/** Model name (`auto` for a local runner not asked yet). */
	model: string
	/** Why AI is unavailable, naming the key variable to set; never the key. */
	reason?: string
}

/**
 * Resolves the provider and builds the session. Throws AgentConfigError for an unknown provider
 * name (bad usage); a missing key is not thrown: `session` is null and `reason` says what to set.
 */
export function setupChat(options: ChatSetupOptions, noBrowserHint: string): ChatSetup {
	const env = options.env ?? loadAgentEnv(options.envPath ?? '.env')
	const provider = resolveProvider({
		provider: options.provider,
		model: options.model,
		apiKey: options.apiKey,
		baseURL: options.baseURL,
		env
	})
	const described = { provider: provider.name, label: provider.label, model: provider.model }
	if (provider.apiKey === null) {
		return { session: null, available: false, ...described, reason: missingKeyMessage(provider) }
	}
	const session = new ChatSession({
		client: options.client,
		provider,
		permission: options.permission,
		approvalTimeoutMs: options.approvalTimeoutMs,
		maxSteps: options.maxSteps,
		timeoutSeconds: options.timeoutSeconds,
		filesDir: options.filesDir,
		concurrency: options.concurrency,
		historyTokenBudget: options.historyTokenBudget,
		modelOptions: options.modelOptions,
		noBrowserHint
	})
	return { session, available: true, ...described }
}

/** A chat with no provider: every ask answers 503 with `reason`. */
export function unavailableChat(reason: string): ChatSetup {
	return { session: null, available: false, provider: '', label: '', model: '', reason }
}
