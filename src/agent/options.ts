/**
 * The agent's command-line options as schemas (see src/server/options.ts), shared by `smkit ask`,
 * `smkit agent-web` and `smkit playground`: the permission level and the AI provider settings.
 */
import { Type } from '@sinclair/typebox'
import { type ChatModelOptions, DEFAULT_MODEL_TIMEOUT_MS } from './model'
import { findProvider, providerNames } from './providers'

/** `--permission`: ask_once unless given. */
export const permissionOption = Type.Union(
	[Type.Literal('ask_every'), Type.Literal('ask_once'), Type.Literal('full_access')],
	{
		default: 'ask_once',
		flag: '--permission <level>',
		description: 'Agent permission: ask_every, ask_once or full_access',
		error: "--permission must be ask_every, ask_once or full_access, got '{value}'"
	}
)

/** `--provider`, `--model`, `--api-key`, `--base-url`: which model answers; `--model-timeout`: how long it may take. */
export const providerOptions = {
	provider: Type.Optional(
		Type.Transform(
			Type.String({
				flag: '--provider <name>',
				description: 'AI provider (default: first with a key set, else gemini)',
				error: `Unknown AI provider '{value}'. Choose one of: ${providerNames().join(', ')}.`
			})
		)
			.Decode((name) => {
				if (!findProvider(name)) throw new Error('unknown provider')
				return name
			})
			.Encode((name) => name)
	),
	model: Type.String({
		minLength: 1,
		default: 'auto',
		flag: '--model <model>',
		description: 'Model override'
	}),
	apiKey: Type.Optional(
		Type.String({ flag: '--api-key <key>', description: 'AI provider key (default: from the environment)' })
	),
	baseURL: Type.Optional(
		Type.String({
			pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
			flag: '--base-url <url>',
			description: 'OpenAI-compatible endpoint for the provider',
			error: '--base-url must be an http(s) URL, e.g. http://127.0.0.1:11434/v1'
		})
	),
	modelTimeout: Type.Number({
		minimum: 1,
		maximum: 3600,
		default: DEFAULT_MODEL_TIMEOUT_MS / 1000,
		flag: '--model-timeout <seconds>',
		description: 'Seconds one model call may take, retries included',
		error: "--model-timeout must be a number of seconds from 1 to 3600 (got '{value}')."
	})
}

/** The model call settings `--model-timeout` makes. */
export function modelOptionsOf(options: { modelTimeout: number }): ChatModelOptions {
	return { timeoutMs: Math.round(options.modelTimeout * 1000) }
}
