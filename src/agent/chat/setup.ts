/**
 * Turns the agent web server's inputs (env file path, provider, API key, permission level)
 * into a chat session, or into the reason there is none. Shared with the playground's AI chat,
 * which chooses its provider from the environment file's AI keys the same way
 * (docs/architecture.md, "The agent").
 */

import type { InstagramClient } from '../../client/client'
import { missingKeyMessage, resolveProvider } from '../providers'
import { type AgentSettings, agentSettingsOf } from '../settings'
import { loadAgentEnv } from '../setup'
import { ChatSession } from './chat-session'

/** Provider and agent settings of a chat (every field optional except the client). */
export interface ChatSetupOptions extends AgentSettings {
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
	/** The host of a base URL other than the provider's own (see `ProviderConfig.endpoint`). */
	endpoint?: string
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
	const described = {
		provider: provider.name,
		label: provider.label,
		model: provider.model,
		endpoint: provider.endpoint
	}
	if (provider.apiKey === null) {
		return { session: null, available: false, ...described, reason: missingKeyMessage(provider) }
	}
	const session = new ChatSession({
		...agentSettingsOf(options),
		client: options.client,
		provider,
		noBrowserHint
	})
	return { session, available: true, ...described }
}

/** A chat with no provider: every ask answers 503 with `reason`. */
export function unavailableChat(reason: string): ChatSetup {
	return { session: null, available: false, provider: '', label: '', model: '', reason }
}
