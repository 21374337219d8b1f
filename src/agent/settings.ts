/**
 * How the agent works, in one object whichever way it runs: `smkit ask` (one-shot, interactive,
 * `--parallel`), the agent web server and the playground's AI chat. Their option types extend
 * `AgentSettings` and pass it on with `agentSettingsOf`, so a setting added here reaches every one
 * of them (docs/architecture.md, "The agent"). Every field is optional; `AGENT_DEFAULTS` holds the
 * values used when one is absent.
 */
import type { ChatModelOptions } from './model'
import type { PermissionLevel } from './permissions'

/** The agent's settings. */
export interface AgentSettings {
	/**
	 * Which actions need a person's approval: `ask_every` (each one), `ask_once` (each kind once per
	 * conversation; the default) or `full_access` (none).
	 */
	permission?: PermissionLevel
	/**
	 * Model calls per ask (default 15), and code runs per ask as well (see tool-calls.ts). At the cap
	 * the ask fails, keeping its best partial answer.
	 */
	maxSteps?: number
	/** Wall-clock limit of one code run in seconds, awaited client calls included (default 30). */
	timeoutSeconds?: number
	/** Where `saveFile` writes, relative to the working directory (default `output`). */
	filesDir?: string
	/**
	 * How many tokens of conversation are sent to the model at each step, system prompt included
	 * (default 32000; tokens are estimated as characters / 4). When the conversation grows past it,
	 * the oldest turns are replaced by a short summary of their questions and answers, and then older
	 * tool outputs of the current turn are blanked; a tool call always stays with its result, and the
	 * current question is always kept. Lower it for models with a small context window, raise it to
	 * let the model see more of a long conversation (each step costs more tokens).
	 */
	historyTokenBudget?: number
	/** Servers only: how long a browser approval waits before the action is denied (default 120000 ms). */
	approvalTimeoutMs?: number
	/** Parallel tasks run at once (default 3). */
	concurrency?: number
	/** Settings of the provider SDK for model calls (request time-out, retries). */
	modelOptions?: ChatModelOptions
}

/** The value of each setting when it is not given. */
export const AGENT_DEFAULTS = {
	permission: 'ask_once',
	maxSteps: 15,
	timeoutSeconds: 30,
	filesDir: 'output',
	historyTokenBudget: 32_000,
	approvalTimeoutMs: 120_000,
	concurrency: 3
} as const satisfies Required<Omit<AgentSettings, 'modelOptions'>>

const settingNames = [
	'permission',
	'maxSteps',
	'timeoutSeconds',
	'filesDir',
	'historyTokenBudget',
	'approvalTimeoutMs',
	'concurrency',
	'modelOptions'
] as const satisfies readonly (keyof AgentSettings)[]

// Every setting must be listed above, or agentSettingsOf would drop it on the way.
const listsEverySetting: Exclude<keyof AgentSettings, (typeof settingNames)[number]> extends never
	? true
	: false = true
void listsEverySetting

/** The agent settings among wider options (the given ones only), to pass on to the next layer. */
export function agentSettingsOf(options: AgentSettings): AgentSettings {
	const settings: Record<string, unknown> = {}
	for (const name of settingNames) if (options[name] !== undefined) settings[name] = options[name]
	return settings as AgentSettings
}
