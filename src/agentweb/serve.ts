/**
 * `smkit agent-web`: validates the options, builds the client (from the environment file, or
 * against the simulator with `--demo`) and the chat, serves the app and stops cleanly
 * on SIGINT/SIGTERM. The only module of the agent web server that listens or prints. The provider
 * key is never printed.
 */

import { setupChat } from '../agent/chat/setup'
import { type PermissionLevel, parsePermissionLevel } from '../agent/permissions'
import { findProvider, providerNames } from '../agent/providers'
import { loadAgentEnv } from '../agent/setup'
import { UsageError } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { createClientFromEnv } from '../client/env'
import { demoDescription, openDemoSession } from '../demo'
import { MiB } from '../server/body'
import { isLoopbackHost, resolveAccessToken } from '../server/security'
import { waitForStopSignal } from '../server/signals'
import { AGENT_WEB_APPROVAL_HINT, createAgentWebApp } from './app'

/** Validated options of `smkit agent-web`. */
export interface AgentWebServeOptions {
	port: number
	host: string
	envPath: string
	provider?: string
	model: string
	apiKey?: string
	baseURL?: string
	permission: PermissionLevel
	demo: boolean
	token?: string
	corsOrigin?: string
}

const optionalText = (value: unknown): string | undefined =>
	value === undefined || value === null || value === '' ? undefined : String(value)

/** Turns cac's untyped options into `AgentWebServeOptions`, or throws a `UsageError` (exit 2). */
export function parseAgentWebOptions(raw: Record<string, unknown>): AgentWebServeOptions {
	const port = Number(raw.port ?? 8899)
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new UsageError(`--port must be an integer from 0 to 65535, got '${raw.port}'`)
	}
	const host = String(raw.host ?? '127.0.0.1').trim()
	if (host === '' || /[\s/?#@]/.test(host))
		throw new UsageError(`--host is not a host name or address: '${host}'`)
	const permission = parsePermissionLevel(raw.permission ?? 'ask_once')
	if (!permission) {
		throw new UsageError(`--permission must be ask_every, ask_once or full_access, got '${raw.permission}'`)
	}
	const provider = optionalText(raw.provider)
	if (provider && !findProvider(provider)) {
		throw new UsageError(`Unknown AI provider '${provider}'. Choose one of: ${providerNames().join(', ')}.`)
	}
	const baseURL = optionalText(raw.baseUrl)
	if (baseURL && !/^https?:\/\//i.test(baseURL)) {
		throw new UsageError('--base-url must be an http(s) URL, e.g. http://127.0.0.1:11434/v1')
	}
	let corsOrigin: string | undefined
	if (raw.corsOrigin !== undefined) {
		const origin = URL.canParse(String(raw.corsOrigin)) ? new URL(String(raw.corsOrigin)).origin : 'null'
		if (origin === 'null') throw new UsageError('--cors-origin must be an origin like http://localhost:5173')
		corsOrigin = origin
	}
	const token = optionalText(raw.token)
	if (token !== undefined && token.length < 8) throw new UsageError('--token must be at least 8 characters')
	return {
		port,
		host,
		envPath: String(raw.env ?? '.env'),
		provider,
		model: String(raw.model ?? 'auto'),
		apiKey: optionalText(raw.apiKey),
		baseURL,
		permission,
		demo: Boolean(raw.demo),
		token,
		corsOrigin
	}
}

/** A listening agent web server. */
export interface RunningAgentWeb {
	/** Where it listens, e.g. `http://127.0.0.1:8899/`. */
	url: string
	/** The access token requests must carry, when one is required. */
	token?: string
	/** Stops the server and, in demo mode, the simulator. */
	stop(): Promise<void>
}

/** Settings tests and embedders may change beyond the command-line options. */
export interface AgentWebServeExtras {
	/** Browser approvals wait this long before denying (default 120000 ms). */
	approvalTimeoutMs?: number
	/** Where `saveFile` writes (default `output`). */
	filesDir?: string
}

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
	// Variables already set in the process environment win over the file (DESIGN 3).
	const env = loadAgentEnv(options.envPath)
	const access = resolveAccessToken(options.host, options.token ?? env.SMKIT_TOKEN)
	const demo = options.demo ? await openDemoSession(env) : undefined
	const ig: InstagramClient = demo?.client ?? createClientFromEnv(options.envPath)

	let boundPort = options.port
	let server: ReturnType<typeof Bun.serve>
	let chat: ReturnType<typeof setupChat>
	try {
		chat = setupChat(
			{
				client: ig,
				env,
				provider: options.provider,
				model: options.model,
				apiKey: options.apiKey,
				baseURL: options.baseURL,
				permission: options.permission,
				...extras
			},
			AGENT_WEB_APPROVAL_HINT
		)
		const app = createAgentWebApp({
			chat,
			demo: options.demo,
			security: {
				host: options.host,
				port: () => boundPort,
				token: access.token,
				corsOrigin: options.corsOrigin
			}
		})
		// No idle time-out: a JSON ask may wait minutes for the model; event streams send keep-alives.
		server = Bun.serve({
			port: options.port,
			hostname: options.host,
			fetch: app.fetch,
			idleTimeout: 0,
			maxRequestBodySize: 2 * MiB
		})
	} catch (error) {
		await demo?.stop()
		const inUse =
			error instanceof Error &&
			/in use|EADDRINUSE/i.test(`${error.message} ${(error as { code?: string }).code}`)
		if (!inUse) throw error
		throw new Error(`cannot listen on ${options.host}:${options.port}: the port is in use`)
	}
	boundPort = server.port ?? options.port

	const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host
	const url = `http://${shownHost}:${boundPort}/`
	print(`smkit agent-web: ${url}`)
	if (access.generated) print(`Access token (generated): open ${url}?token=${access.token}`)
	else if (access.token) print('Access token required: the one given by --token or SMKIT_TOKEN')
	if (!isLoopbackHost(options.host))
		print(`Listening beyond loopback (${options.host}): requests need the token`)
	print(chat.available ? `AI: ${chat.label} (${chat.model})` : `AI: not configured. ${chat.reason ?? ''}`)
	print(`Permission: ${permissionLines[options.permission]}`)
	print(
		demo
			? `Demo data: ${demoDescription(demo)}`
			: ig.loggedIn
				? 'Instagram: credentials from the environment file'
				: 'Instagram: not logged in (public data only): set SESSION_ID, CSRF_TOKEN, DS_USER_ID or use --demo'
	)
	return {
		url,
		token: access.token,
		stop: async () => {
			await server.stop(true)
			await demo?.stop()
		}
	}
}

/** `smkit agent-web`: runs the server until SIGINT/SIGTERM, then stops cleanly (exit 0). */
export async function runAgentWeb(rawOptions: Record<string, unknown> = {}): Promise<void> {
	const running = await startAgentWebServer(parseAgentWebOptions(rawOptions))
	await waitForStopSignal()
	console.log('Stopping the agent web server')
	await running.stop()
	process.exit(0)
}
