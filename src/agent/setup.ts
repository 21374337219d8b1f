/**
 * Building an agent from configuration: the one place the CLI, the agent web server and the
 * playground turn "env file, provider, key, permission" into an Agent (the inputs the agent web
 * server is created from: docs/architecture.md, "Product").
 */
import type { InstagramClient } from '../client/client'
import { loadEnvFile, mergeEnv } from '../client/env'
import { Agent, type AgentOptions } from './agent'
import type { Approver } from './permissions'
import {
	AgentConfigError,
	missingKeyMessage,
	type ProviderConfig,
	type ProviderRequest,
	resolveProvider
} from './providers'
import { type AgentSettings, agentSettingsOf } from './settings'

/**
 * The variables AI keys are read from: the env file's values under the process environment
 * (variables already set in the process win). A missing file is not an error.
 */
export function loadAgentEnv(envPath = '.env'): Record<string, string | undefined> {
	return mergeEnv(loadEnvFile(envPath))
}

/** Everything needed to build an agent: provider fields as in `ProviderRequest`, and its settings. */
export interface AgentSetupOptions extends ProviderRequest, AgentSettings {
	client: InstagramClient
	/** Used when `env` is not given: variables are loaded from this file (default `.env`). */
	envPath?: string
	approver?: Approver
}

/** Whether an agent can be built, and with what (for `/api/status`: `ai_available`, `ai_provider`, `ai_model`). */
export interface AgentAvailability {
	available: boolean
	provider: string
	label: string
	/** The model, or `auto` for a local runner not asked yet. */
	model: string
	/** Why it is unavailable (names the key variable); never the key. */
	reason?: string
}

/** Resolves the provider without building anything; never throws for a missing key. */
export function agentAvailability(request: ProviderRequest & { envPath?: string }): AgentAvailability {
	try {
		const config = resolveProvider({ ...request, env: request.env ?? loadAgentEnv(request.envPath) })
		return {
			available: config.apiKey !== null,
			provider: config.name,
			label: config.label,
			model: config.model,
			reason: config.apiKey === null ? missingKeyMessage(config) : undefined
		}
	} catch (error) {
		return {
			available: false,
			provider: String(request.provider ?? ''),
			label: '',
			model: '',
			reason: (error as Error).message
		}
	}
}

/** Resolves the provider config and fails with a clear message when no key is configured. */
export function requireProvider(request: ProviderRequest & { envPath?: string }): ProviderConfig {
	const config = resolveProvider({ ...request, env: request.env ?? loadAgentEnv(request.envPath) })
	if (config.apiKey === null) throw new AgentConfigError(missingKeyMessage(config))
	return config
}

/**
 * Builds an agent. Throws AgentConfigError for an unknown provider (exit 2) or a missing key
 * (exit 1; servers answer 503 `ai_unavailable`). An ollama `auto` model resolves on the first ask.
 */
export function createAgentFromOptions(options: AgentSetupOptions): Agent {
	const provider = requireProvider(options)
	return new Agent(agentOptions(options, provider))
}

/**
 * A factory of agents sharing one configuration, each with its own conversation (parallel tasks).
 * The provider is resolved once. Each agent may get its own approver (default `options.approver`),
 * so that a task's prompts can name it and its denials be counted apart.
 */
export function createAgentFactory(options: AgentSetupOptions): (approver?: Approver) => Agent {
	const provider = requireProvider(options)
	return (approver = options.approver) => new Agent(agentOptions({ ...options, approver }, provider))
}

function agentOptions(options: AgentSetupOptions, provider: ProviderConfig): AgentOptions {
	return { ...agentSettingsOf(options), client: options.client, provider, approver: options.approver }
}
