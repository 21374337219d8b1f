/**
 * `smkit agent-web`: validates the options, builds the client (from the environment file, or
 * against the simulator with `--demo`) and the chat, serves the app and stops cleanly
 * on SIGINT/SIGTERM. The only module of the agent web server that listens or prints. The provider
 * key is never printed.
 */

import { setupChat } from '../agent/chat/setup'
import { modelOptionsOf, permissionOption, providerOptions } from '../agent/options'
import type { PermissionLevel } from '../agent/permissions'
import { describeProvider } from '../agent/providers'
import type { AgentSettings } from '../agent/settings'
import { loadAgentEnv } from '../agent/setup'
import { demoDescription, openInstagram } from '../demo'
import {
	type ParsedOptions,
	parseOptions,
	type RunningServer,
	serverOptions,
	serveUntilStopped,
	startServer
} from '../server/bootstrap'
import { demoOption } from '../server/options'
import { resolveUpstream, upstreamOptions } from '../server/upstream-options'
import { describeSession } from '../session/start-line'
import { AGENT_WEB_APPROVAL_HINT, createAgentWebApp } from './app'

/** The options of `smkit agent-web`, registered with cac and validated from these schemas. */
export const agentWebOptions = {
	...serverOptions(8899),
	...providerOptions,
	permission: permissionOption,
	demo: demoOption,
	...upstreamOptions
}

/** Validated options of `smkit agent-web`. */
export type AgentWebServeOptions = ParsedOptions<typeof agentWebOptions>

/** Turns cac's untyped options into `AgentWebServeOptions`, or throws a `UsageError` (exit 2). */
export function parseAgentWebOptions(raw: Record<string, unknown>): AgentWebServeOptions {
	return parseOptions(agentWebOptions, raw)
}

/** A listening agent web server. */
export type RunningAgentWeb = RunningServer

/** Settings tests and embedders may change beyond the command-line options. */
export type AgentWebServeExtras = Pick<AgentSettings, 'approvalTimeoutMs' | 'filesDir'>

const permissionLines: Record<PermissionLevel, string> = {
	ask_every: 'ask_every (every action is approved in the browser)',
	ask_once: 'ask_once (each kind of action is approved once in the browser)',
	full_access: 'full_access (actions run without asking)'
}

/** Builds everything, listens, and prints the start-up summary through `print`. */
export async function startAgentWebServer(
	options: AgentWebServeOptions,
	print: (line: string) => void = console.log,
	extras: AgentWebServeExtras = {}
): Promise<RunningAgentWeb> {
	// Variables already set in the process environment win over the file (docs/architecture.md,
	// "Configuration and credentials").
	const env = loadAgentEnv(options.envPath)
	const upstream = resolveUpstream(options, env, options.demo)
	for (const warning of upstream.warnings) print(warning)
	const instagram = await openInstagram(options, env, upstream.clientOptions)
	let chat: ReturnType<typeof setupChat>
	try {
		chat = setupChat(
			{
				client: instagram.client,
				env,
				provider: options.provider,
				model: options.model,
				apiKey: options.apiKey,
				baseURL: options.baseURL,
				permission: options.permission,
				modelOptions: modelOptionsOf(options),
				...extras
			},
			AGENT_WEB_APPROVAL_HINT
		)
	} catch (error) {
		await instagram.stop()
		throw error
	}
	const running = await startServer({
		name: 'agent-web',
		options,
		env,
		print,
		onStop: () => instagram.stop(),
		build: (security) => createAgentWebApp({ chat, demo: options.demo, security })
	})
	print(chat.available ? `AI: ${describeProvider(chat)}` : `AI: not configured. ${chat.reason ?? ''}`)
	// Without a provider there is no agent, so no permission applies (/api/status says null).
	if (chat.available) print(`Permission: ${permissionLines[options.permission]}`)
	for (const line of upstream.lines) print(line)
	print(
		instagram.demo
			? `Demo data: ${demoDescription(instagram.demo)}`
			: await describeSession(
					instagram.client,
					'not logged in (public data only): run smkit login --cookies cookies.txt or use --demo'
				)
	)
	return running
}

/** `smkit agent-web`: runs the server until SIGINT/SIGTERM, then stops cleanly (exit 0). */
export async function runAgentWeb(rawOptions: Record<string, unknown> = {}): Promise<void> {
	await serveUntilStopped(await startAgentWebServer(parseAgentWebOptions(rawOptions)), 'the agent web server')
}
