/**
 * AI providers the agent can use. Every one speaks the OpenAI chat-completions protocol, so one
 * `openai` SDK client covers them all (docs/architecture.md, "The agent"); only the base URL, key variable
 * and
 * default model differ. This module resolves which provider, key, URL and model an ask uses.
 */

/** Provider names accepted by `--provider` (aliases: google, anthropic, grok). */
export type ProviderName =
	| 'gemini'
	| 'openai'
	| 'ollama'
	| 'claude'
	| 'deepseek'
	| 'groq'
	| 'openrouter'
	| 'mistral'
	| 'xai'

/** One row of the provider table. */
export interface ProviderInfo {
	name: ProviderName
	/** Display name, e.g. `Gemini`; shown as `Gemini (gemini-2.5-flash)`. */
	label: string
	/** OpenAI-compatible base URL (overridable with `--base-url`). */
	baseURL: string
	/** Model used for `--model auto` at `baseURL`; for ollama only a fallback name in messages. */
	defaultModel: string
	/** Environment variable holding the key; absent for local runners that need none. */
	keyVariable?: string
	/** A local runner (no key; `auto` asks the server which models it has). */
	local?: boolean
	/** Some endpoints require `max_tokens` (Anthropic's does). */
	maxTokens?: number
}

/**
 * The provider table, in the order used to pick one when `--provider` is absent (first with a key
 * set wins; gemini when none is). Default models are current generally available names, not
 * previews or dated snapshots, which providers retire.
 */
export const providerTable: readonly ProviderInfo[] = [
	{
		name: 'gemini',
		label: 'Gemini',
		baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
		defaultModel: 'gemini-2.5-flash',
		keyVariable: 'GEMINI_API_KEY'
	},
	{
		name: 'openai',
		label: 'OpenAI',
		baseURL: 'https://api.openai.com/v1',
		defaultModel: 'gpt-4.1-mini',
		keyVariable: 'OPENAI_API_KEY'
	},
	{
		name: 'claude',
		label: 'Claude',
		baseURL: 'https://api.anthropic.com/v1/',
		defaultModel: 'claude-sonnet-4-5',
		keyVariable: 'ANTHROPIC_API_KEY',
		maxTokens: 8192
	},
	{
		name: 'deepseek',
		label: 'DeepSeek',
		baseURL: 'https://api.deepseek.com/v1',
		defaultModel: 'deepseek-chat',
		keyVariable: 'DEEPSEEK_API_KEY'
	},
	{
		name: 'groq',
		label: 'Groq',
		baseURL: 'https://api.groq.com/openai/v1',
		defaultModel: 'llama-3.3-70b-versatile',
		keyVariable: 'GROQ_API_KEY'
	},
	{
		name: 'openrouter',
		label: 'OpenRouter',
		baseURL: 'https://openrouter.ai/api/v1',
		defaultModel: 'anthropic/claude-sonnet-4.5',
		keyVariable: 'OPENROUTER_API_KEY'
	},
	{
		name: 'mistral',
		label: 'Mistral',
		baseURL: 'https://api.mistral.ai/v1',
		defaultModel: 'mistral-large-latest',
		keyVariable: 'MISTRAL_API_KEY'
	},
	{
		name: 'xai',
		label: 'xAI',
		baseURL: 'https://api.x.ai/v1',
		defaultModel: 'grok-4',
		keyVariable: 'XAI_API_KEY'
	},
	{
		name: 'ollama',
		label: 'Ollama',
		baseURL: 'http://127.0.0.1:11434/v1',
		defaultModel: 'llama3.2',
		local: true
	}
]

const aliases: Record<string, ProviderName> = { google: 'gemini', anthropic: 'claude', grok: 'xai' }

/** Dummy key for local runners: the SDK wants one, Ollama ignores it. */
const localKey = 'ollama'

/** What the caller (CLI flags, web server options) asks for; every field optional. */
export interface ProviderRequest {
	provider?: string
	/** `auto` (or absent) = the provider's default model. */
	model?: string
	apiKey?: string
	baseURL?: string
	/** Variables to read keys from: the env file merged under the process environment. */
	env?: Record<string, string | undefined>
}

/** A resolved provider: everything needed to build the SDK client. */
export interface ProviderConfig {
	name: ProviderName
	label: string
	baseURL: string
	/**
	 * Concrete model name, or `auto` for a server still to be asked (a local runner, or any provider
	 * given another base URL; see `resolveModel`).
	 */
	model: string
	/** The key, or null when none is configured (the agent is then unavailable). */
	apiKey: string | null
	/** Where the key came from, for status displays (never the key itself). */
	keySource: 'option' | 'environment' | 'none' | 'local'
	keyVariable?: string
	maxTokens?: number
	local: boolean
	/**
	 * The host of a base URL other than the provider's own (`--base-url`, `OPENAI_BASE_URL`,
	 * `OLLAMA_HOST`), shown at start-up so the person sees where the key is sent; else undefined.
	 */
	endpoint?: string
}

/** A configuration problem the person must fix (unknown provider, missing key): not a provider failure. */
export class AgentConfigError extends Error {
	override name = 'AgentConfigError'
	/** Exit code when it reaches the CLI: bad usage for unknown names, 1 for a missing key. */
	readonly exitCode: number
	constructor(message: string, exitCode = 1) {
		super(message)
		this.exitCode = exitCode
	}
}

/** The table row for a name or alias, or undefined. */
export function findProvider(name: string): ProviderInfo | undefined {
	const normalised = name.trim().toLowerCase()
	const canonical = aliases[normalised] ?? normalised
	return providerTable.find((provider) => provider.name === canonical)
}

/** Names accepted by `--provider`, for messages. */
export function providerNames(): string[] {
	return providerTable.map((provider) => provider.name)
}

function nonEmpty(value: string | undefined): string | undefined {
	const trimmed = value?.trim()
	return trimmed ? trimmed : undefined
}

/** `OLLAMA_HOST` may be `host:port` or `0.0.0.0` (Ollama's own conventions); turn it into a /v1 URL. */
function ollamaBaseURL(host: string | undefined): string | undefined {
	const value = nonEmpty(host)
	if (!value) return undefined
	const hasScheme = /^[a-z]+:\/\//i.test(value)
	let url: URL
	try {
		url = new URL(hasScheme ? value : `http://${value}`)
	} catch {
		throw new AgentConfigError(`OLLAMA_HOST '${value}' is not a valid address (e.g. 127.0.0.1:11434).`)
	}
	// 0.0.0.0 is a listen address, not one to connect to.
	if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
	// Like Ollama itself: a bare host means port 11434; an explicit scheme keeps its own default.
	if (!hasScheme && !url.port) url.port = '11434'
	return `${url.origin}/v1`
}

/**
 * `OPENAI_BASE_URL` checked like `--base-url`: anything but an http(s) URL would fail every ask with
 * a misleading provider error. The value is not quoted: a URL may carry credentials.
 */
function openAiBaseURL(value: string | undefined): string | undefined {
	const url = nonEmpty(value)
	if (url === undefined) return undefined
	if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
		throw new AgentConfigError('OPENAI_BASE_URL is not an http(s) URL, e.g. http://127.0.0.1:8000/v1')
	}
	return url
}

/** The base URL the environment gives a provider (only openai and ollama take one), checked only when used. */
function environmentBaseURL(info: ProviderInfo, env: Record<string, string | undefined>): string | undefined {
	if (info.name === 'openai') return openAiBaseURL(env.OPENAI_BASE_URL)
	if (info.name === 'ollama') return ollamaBaseURL(env.OLLAMA_HOST)
	return undefined
}

/**
 * Resolves provider, key, base URL and model. Key order: `apiKey` option, then `env` (which already
 * merges the env file under the process environment). Without `provider`: the first provider in
 * the table whose key is set, else gemini. Throws AgentConfigError for an unknown provider name
 * (exit code 2) and for the chosen provider's malformed OPENAI_BASE_URL or OLLAMA_HOST (exit code 1).
 * A missing key is not thrown here: `apiKey` is null and the caller decides (CLI exits, servers
 * report `ai_available: false`).
 */
export function resolveProvider(request: ProviderRequest = {}): ProviderConfig {
	const env = request.env ?? {}
	const explicitKey = nonEmpty(request.apiKey)
	let info: ProviderInfo | undefined
	const requested = nonEmpty(request.provider)
	if (requested) {
		info = findProvider(requested)
		if (!info) {
			throw new AgentConfigError(
				`Unknown AI provider '${requested}'. Choose one of: ${providerNames().join(', ')}.`,
				2
			)
		}
	} else {
		info =
			providerTable.find((provider) => provider.keyVariable && nonEmpty(env[provider.keyVariable])) ??
			providerTable[0]
	}
	const environmentKey = info.keyVariable ? nonEmpty(env[info.keyVariable]) : undefined
	let apiKey: string | null = explicitKey ?? environmentKey ?? null
	let keySource: ProviderConfig['keySource'] = explicitKey
		? 'option'
		: environmentKey
			? 'environment'
			: 'none'
	if (info.local && !apiKey) {
		apiKey = localKey
		keySource = 'local'
	}
	const chosenURL = nonEmpty(request.baseURL) ?? environmentBaseURL(info, env)
	const baseURL = chosenURL ?? info.baseURL
	const requestedModel = nonEmpty(request.model)
	const wantsDefault = !requestedModel || requestedModel.toLowerCase() === 'auto'
	// Another server than the provider's own may not know its default model: ask it which it has.
	const asksServer = info.local || (chosenURL !== undefined && chosenURL.replace(/\/+$/, '') !== info.baseURL)
	const model = wantsDefault ? (asksServer ? 'auto' : info.defaultModel) : requestedModel
	const endpoint =
		chosenURL !== undefined && chosenURL.replace(/\/+$/, '') !== info.baseURL
			? new URL(chosenURL).host
			: undefined
	return {
		name: info.name,
		label: info.label,
		baseURL,
		endpoint,
		model,
		apiKey,
		keySource,
		keyVariable: info.keyVariable,
		maxTokens: info.maxTokens,
		local: info.local === true
	}
}

/** The message shown when no key is configured, naming the variable, `--api-key` and alternatives. */
export function missingKeyMessage(config: ProviderConfig): string {
	const variable = config.keyVariable ?? 'an API key variable'
	return (
		`No API key for ${config.label}: set ${variable} in the environment or the .env file, or pass ` +
		`--api-key (or choose another provider with --provider, e.g. ollama for a local model).`
	)
}

/** Display name, e.g. `Gemini (gemini-2.5-flash)`, or `OpenAI (auto: the server's first chat model)`. */
export function describeProvider(config: Pick<ProviderConfig, 'label' | 'model' | 'endpoint'>): string {
	const model = config.model === 'auto' ? "auto: the server's first chat model" : config.model
	return `${config.label} (${model})${config.endpoint ? ` at ${config.endpoint}` : ''}`
}
