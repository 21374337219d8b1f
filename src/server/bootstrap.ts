/**
 * One way to start a server, shared by `smkit playground` and `smkit agent-web`: the options every
 * server command has (port, host, environment file, token, CORS origin) as schemas, the access
 * token (given, or generated when bound beyond loopback), listening, the first start-up lines and
 * a clean stop on SIGINT/SIGTERM. Each command adds only its own options and start-up lines.
 */
import { Type } from '@sinclair/typebox'
import { guardedServeOptions, readTimeoutFromEnv } from './connection-guard'
import { listenError } from './listen-error'
import { envPathOption, type ParsedOptions, parseOptions } from './options'
import { isLoopbackHost, MIN_TOKEN_LENGTH, resolveAccessToken, type SecurityOptions } from './security'
import { waitForStopSignal } from './signals'

/** The options of every server command; `port` is the command's default port. */
export function serverOptions(port: number) {
	return {
		port: Type.Integer({
			minimum: 0,
			maximum: 65535,
			default: port,
			flag: '--port <port>',
			description: port === 0 ? 'Server port (0 picks a free one)' : 'Server port',
			error: "--port must be an integer from 0 to 65535, got '{value}'"
		}),
		host: Type.String({
			// No scheme, path, user or port (`127.0.0.1:9000`); IPv6 addresses keep their colons.
			pattern: '^(?![^:\\[\\]]*:\\d*$)[^\\s/?#@]+$',
			default: '127.0.0.1',
			flag: '--host <host>',
			description: 'Server host',
			error: "--host is not a host name or address (without a scheme or a port: --port gives that): '{value}'"
		}),
		envPath: envPathOption,
		token: Type.Optional(
			Type.String({
				minLength: MIN_TOKEN_LENGTH,
				flag: '--token <token>',
				description: 'Access token required when bound beyond loopback (or SMKIT_TOKEN)',
				error: `--token must be at least ${MIN_TOKEN_LENGTH} characters`
			})
		),
		corsOrigin: Type.Optional(
			Type.Transform(
				Type.String({
					flag: '--cors-origin <origin>',
					description: 'Allow this browser origin to call the API',
					error: '--cors-origin must be an origin like http://localhost:5173'
				})
			)
				.Decode((value) => {
					const origin = URL.canParse(value) ? new URL(value).origin : 'null'
					if (origin === 'null') throw new Error('not an origin')
					return origin
				})
				.Encode((origin) => origin)
		)
	}
}

/** Validated options of every server command. */
export type ServerOptions = ParsedOptions<ReturnType<typeof serverOptions>>

/** The simulator's command takes only the port and host. */
export function listenOptions(port: number) {
	const { port: portOption, host } = serverOptions(port)
	return { port: portOption, host }
}

/** Parses a command's raw options against its schemas (see `parseOptions`). */
export { type ParsedOptions, parseOptions }

/** What `startServer` needs. */
export interface StartServer {
	/** The command, for the first line: `smkit playground: http://...`. */
	name: string
	options: Pick<ServerOptions, 'port' | 'host' | 'token' | 'corsOrigin'>
	/** The environment (for `SMKIT_TOKEN` and `SMKIT_READ_TIMEOUT`). */
	env: Record<string, string | undefined>
	/** Builds the app with the checks it must apply (the bound port is known once listening). */
	build: (security: SecurityOptions) => { fetch: (request: Request) => Response | Promise<Response> }
	/** Start-up lines (default console.log). */
	print?: (line: string) => void
	/** Stops what the server depends on (e.g. demo mode's simulator); also run when listening fails. */
	onStop?: () => Promise<void>
	/** Where a client sends a generated token, when not a browser opening the page (the MCP endpoint). */
	tokenUse?: (url: string, token: string) => string
}

/** A listening server. */
export interface RunningServer {
	/** Where it listens, e.g. `http://127.0.0.1:8877/`. */
	url: string
	/** The access token requests must carry, when one is required. */
	token?: string
	/** Stops the server, then what it depends on. */
	stop(): Promise<void>
}

const wildcardHosts = new Set(['0.0.0.0', '::', '[::]'])

/** The address a browser on this machine can open: a wildcard host shows as 127.0.0.1. */
export function displayHost(host: string): string {
	if (wildcardHosts.has(host)) return '127.0.0.1'
	return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/** What to do about a port in use, for every server's start-up error. */
export const PORT_IN_USE_HINT = 'is smkit already running there? Stop it, or choose another port with --port'

/**
 * Listens with the settings both servers need: the connection guards of `guardedServeOptions` (a
 * read deadline of `readTimeoutSeconds` for headers, bodies and idle connections, envelopes for
 * malformed requests and escaped errors, no development error page) and Bun's own body cap
 * (128 MiB) left above the app's limits, so the app answers an oversized body itself with a 413
 * envelope after reading at most its limit and one chunk. A port in use (by another smkit too),
 * or any other failure to listen, is an error naming the address and why (`listenError`).
 */
export function listen(
	app: { fetch: (request: Request) => Response | Promise<Response> },
	options: { host: string; port: number; readTimeoutSeconds?: number }
): ReturnType<typeof Bun.serve> {
	try {
		return Bun.serve({
			port: options.port,
			hostname: options.host,
			...guardedServeOptions(app.fetch, options.readTimeoutSeconds),
			// Bun turns SO_REUSEPORT on when `development` is off, so a second smkit on the same
			// port would start too and the kernel would split the requests between the two.
			reusePort: false
		})
	} catch (error) {
		throw listenError(options.host, options.port, error, PORT_IN_USE_HINT)
	}
}

/**
 * Checks the server settings `startServer` reads (a given access token, SMKIT_READ_TIMEOUT) without
 * starting anything: a command calls it before it creates files, so a usage error leaves none.
 */
export function checkServerSettings(
	options: { host: string; token?: string },
	env: Record<string, string | undefined>
): void {
	readTimeoutFromEnv(env)
	const token = options.token ?? env.SMKIT_TOKEN
	if (token) resolveAccessToken(options.host, token)
}

/**
 * Resolves the access token, builds the app, listens and prints the first start-up lines: the URL,
 * how the token is given (the token itself only when generated here) and a warning when bound
 * beyond loopback. The command prints its own lines after these.
 */
export async function startServer(start: StartServer): Promise<RunningServer> {
	const { options, print = console.log } = start
	let access: ReturnType<typeof resolveAccessToken> = { generated: false }
	let boundPort = options.port
	let server: ReturnType<typeof Bun.serve>
	// A bad SMKIT_TOKEN or SMKIT_READ_TIMEOUT stops what the command started too (demo mode's
	// simulator): left running, it kept the process alive after the error.
	try {
		access = resolveAccessToken(options.host, options.token ?? start.env.SMKIT_TOKEN)
		const readTimeoutSeconds = readTimeoutFromEnv(start.env)
		const app = start.build({
			host: options.host,
			port: () => boundPort,
			token: access.token,
			corsOrigin: options.corsOrigin
		})
		server = listen(app, { ...options, readTimeoutSeconds })
	} catch (error) {
		await start.onStop?.()
		throw error
	}
	boundPort = server.port ?? options.port
	const url = `http://${displayHost(options.host)}:${boundPort}/`
	print(`smkit ${start.name}: ${url}`)
	if (access.generated && access.token)
		print(
			`Access token (generated): ${start.tokenUse?.(url, access.token) ?? `open ${url}?token=${access.token}`}`
		)
	else if (access.token) print('Access token required: the one given by --token or SMKIT_TOKEN')
	if (!isLoopbackHost(options.host))
		print(`Listening beyond loopback (${options.host}): requests need the token`)
	return {
		url,
		token: access.token,
		stop: async () => {
			await server.stop(true)
			await start.onStop?.()
		}
	}
}

/** Runs a started server until SIGINT or SIGTERM, stops it and exits 0. */
export async function serveUntilStopped(running: RunningServer, what: string): Promise<never> {
	await waitForStopSignal()
	console.log(`Stopping ${what}`)
	await running.stop()
	process.exit(0)
}
