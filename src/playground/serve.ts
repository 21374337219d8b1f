/**
 * `smkit playground`: validates the command-line options, builds the client (from the environment
 * file, or against the simulator with `--demo`: in-process, or SMKIT_UPSTREAM_URL's), serves the app and stops cleanly on
 * SIGINT/SIGTERM. The only module of the playground that listens or prints.
 */
import { type PermissionLevel, parsePermissionLevel } from '../agent/permissions'
import { UsageError } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { createClientFromEnv, loadEnvFile, mergeEnv } from '../client/env'
import { IgError } from '../client/errors'
import { DEMO_USERNAME, demoDescription, openDemoSession } from '../demo'
import { isLoopbackHost, resolveAccessToken } from '../server/security'
import { waitForStopSignal } from '../server/signals'
import { createPlaygroundAi } from './ai'
import { createPlaygroundApp, type PlaygroundAi } from './app'
import { AI_UNAVAILABLE_MESSAGE } from './routes/ai-fallback'

/** Validated options of `smkit playground`. */
export interface PlaygroundServeOptions {
	port: number
	host: string
	envPath: string
	demo: boolean
	permission: PermissionLevel
	savedDir: string
	token?: string
	corsOrigin?: string
}

/** Turns cac's untyped options into `PlaygroundServeOptions`, or throws a `UsageError` (exit 2). */
export function parsePlaygroundOptions(raw: Record<string, unknown>): PlaygroundServeOptions {
	const port = Number(raw.port ?? 8877)
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
	const savedDir = String(raw.savedDir ?? 'demo/saved')
	if (savedDir.trim() === '' || savedDir.includes('\0'))
		throw new UsageError('--saved-dir must be a directory path')
	let corsOrigin: string | undefined
	if (raw.corsOrigin !== undefined) {
		const origin = URL.canParse(String(raw.corsOrigin)) ? new URL(String(raw.corsOrigin)).origin : 'null'
		if (origin === 'null') throw new UsageError(`--cors-origin must be an origin like http://localhost:5173`)
		corsOrigin = origin
	}
	const token = raw.token === undefined ? undefined : String(raw.token)
	if (token !== undefined && token.length < 8) throw new UsageError('--token must be at least 8 characters')
	return {
		port,
		host,
		envPath: String(raw.env ?? '.env'),
		demo: Boolean(raw.demo),
		permission,
		savedDir,
		token,
		corsOrigin
	}
}

/** Hooks for the AI side (filled by the agent wiring; absent = AI chat off). */
export interface PlaygroundServeHooks {
	/** Builds the AI deps from the environment variables and options (see `PlaygroundAi`). */
	createAi?: (env: Record<string, string>, options: PlaygroundServeOptions) => PlaygroundAi | undefined
}

const wildcardHosts = new Set(['0.0.0.0', '::', '[::]'])

/** A listening playground (see `startPlaygroundServer`). */
export interface RunningPlayground {
	/** Where it listens, e.g. `http://127.0.0.1:8877/`. */
	url: string
	/** The access token requests must carry, when one is required. */
	token?: string
	/** Stops the server and, in demo mode, the simulator. */
	stop(): Promise<void>
}

/**
 * Builds the client and the app from validated options, listens, and prints the start-up summary
 * through `print` (URL, demo or account, AI status; the token only when it was generated here).
 */
export async function startPlaygroundServer(
	options: PlaygroundServeOptions,
	hooks: PlaygroundServeHooks = {},
	print: (line: string) => void = console.log
): Promise<RunningPlayground> {
	// Variables already set in the process environment win over the file (DESIGN 3).
	const env = mergeEnv(loadEnvFile(options.envPath))
	const access = resolveAccessToken(options.host, options.token ?? env.SMKIT_TOKEN)

	const demo = options.demo ? await openDemoSession(env) : undefined
	const ig: InstagramClient = demo?.client ?? createClientFromEnv(options.envPath)
	const ai =
		hooks.createAi?.(env, options) ?? createPlaygroundAi({ env, client: ig, permission: options.permission })

	let boundPort = options.port
	const app = createPlaygroundApp({
		ig,
		savedDir: options.savedDir,
		demo: options.demo,
		startedAt: new Date(),
		ai,
		permission: options.permission,
		security: {
			host: options.host,
			port: () => boundPort,
			token: access.token,
			corsOrigin: options.corsOrigin
		}
	})

	let server: ReturnType<typeof Bun.serve>
	try {
		// Bun's own body cap (128 MiB by default) stays above the app's limits, so the app answers
		// oversized bodies itself with a 413 envelope after reading at most limit + one chunk.
		// Bun's default idle timeout (10 s) would cut a request off while the client still waits on
		// Instagram (15 s per attempt) or a plain /api/ai/ask waits on the model, which sends nothing
		// until it answers. Both end on their own deadlines (client timeouts, agent steps), so the
		// server sets none.
		server = Bun.serve({ port: options.port, hostname: options.host, fetch: app.fetch, idleTimeout: 0 })
	} catch (error) {
		await demo?.stop()
		const inUse =
			error instanceof Error &&
			/in use|EADDRINUSE/i.test(`${error.message} ${(error as { code?: string }).code}`)
		throw new Error(
			`cannot listen on ${options.host}:${options.port}: ${inUse ? 'the port is in use' : String(error)}`
		)
	}
	boundPort = server.port ?? options.port

	// Bound to every interface: print the loopback address, which a browser on this machine can open.
	const shownHost = wildcardHosts.has(options.host)
		? '127.0.0.1'
		: options.host.includes(':')
			? `[${options.host}]`
			: options.host
	const url = `http://${shownHost}:${boundPort}/`
	print(`smkit playground: ${url}`)
	if (access.generated) print(`Access token (generated): open ${url}?token=${access.token}`)
	else if (access.token) print('Access token required: the one given by --token or SMKIT_TOKEN')
	if (!isLoopbackHost(options.host))
		print(`Listening beyond loopback (${options.host}): requests need the token`)
	print(`API reference: ${url}openapi`)
	if (demo) print(`Demo data: ${demoDescription(demo)}`)
	// The demo session needs no confirming round trip (and would build the demo data set at start-up).
	print(demo ? `Instagram: logged in as @${DEMO_USERNAME} (the demo account)` : await describeAccount(ig))
	print(
		ai?.available
			? `AI chat: ${ai.provider ?? 'on'}${ai.model ? ` (${ai.model})` : ''}`
			: `AI chat: off (${AI_UNAVAILABLE_MESSAGE})`
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

/** `smkit playground`: runs the server until SIGINT/SIGTERM, then stops cleanly (exit 0). */
export async function runPlayground(
	rawOptions: Record<string, unknown> = {},
	hooks: PlaygroundServeHooks = {}
) {
	const running = await startPlaygroundServer(parsePlaygroundOptions(rawOptions), hooks)
	await waitForStopSignal()
	console.log('Stopping the playground')
	await running.stop()
	process.exit(0)
}

/** One line about the Instagram account: its username only (never cookies or ids). */
async function describeAccount(ig: InstagramClient): Promise<string> {
	if (!ig.loggedIn) return 'Instagram: not logged in: set SESSION_ID, CSRF_TOKEN, DS_USER_ID or use --demo'
	try {
		const signal = AbortSignal.timeout(5000)
		const user = await ig.account.getCurrentUser({ signal })
		return `Instagram: logged in as @${user.username}`
	} catch (error) {
		const reason = error instanceof IgError ? error.kind : 'no answer'
		return `Instagram: credentials set, account not confirmed (${reason})`
	}
}
