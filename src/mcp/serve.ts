/**
 * `smkit mcp`: the MCP server over stdio (the default: an MCP client starts it as a subprocess) or,
 * with `--http`, over Streamable HTTP at `/mcp` with the same Host, Origin and token rules as the
 * other servers. On stdio, standard output carries protocol messages only: everything else, the
 * start-up line included, goes to standard error.
 */

import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Elysia } from 'elysia'
import packageJson from '../../package.json'
import { OutputFiles } from '../agent/files'
import { UsageError } from '../cli-error'
import { loadEnvFile, mergeEnv } from '../client/env'
import { demoDescription, openInstagram } from '../demo'
import { JobManager, JobStore } from '../jobs/manager'
import { shownPath } from '../jobs/run-errors'
import { serveUntilStopped, startServer } from '../server/bootstrap'
import { fail, HttpError } from '../server/envelope'
import { toFailure } from '../server/errors'
import { parseOptions } from '../server/options'
import { securityGuard } from '../server/security'
import { waitForStopSignal } from '../server/signals'
import { resolveUpstream } from '../server/upstream-options'
import { missingStoreFolder, openStore, type Store } from '../store/db'
import { WatchStore } from '../watch/store'
import { followDemoTime } from './demo-time'
import { HTTP_ONLY, MCP_HTTP_PORT, mcpOptions } from './options'
import { answerInvalidParams } from './request-guard'
import { createMcpServer, type McpServerOptions, toolCallsSettled } from './server'
import { LineTransport } from './stdio-transport'

/**
 * The store of this server, opened on first use: its jobs (owner `mcp`, resumed from the last run)
 * and the watches `smkit watch` and the playground keep there.
 */
function lazyStore(dbPath: string, ig: McpServerOptions['client'], demo: boolean) {
	let opened: { store: Store; manager: JobManager } | undefined
	return {
		watches(): WatchStore {
			return new WatchStore(this.manager().jobs.store)
		},
		manager(): JobManager {
			if (opened) return opened.manager
			let store: Store
			try {
				store = openStore(dbPath)
			} catch (error) {
				// storeError's words: the file, what went wrong and what to do (see --db); the model
				// reads it, so an absolute path is shortened (`.../data/smkit.db`).
				const message = (error as Error).message.split(dbPath).join(shownPath(dbPath))
				throw new HttpError('internal_error', `${message} (see --db)`)
			}
			const manager = new JobManager({
				jobs: new JobStore(store, { demo }),
				ig,
				owner: 'mcp',
				// The lists collected by smkit collect and the playground on this store are readable too.
				shows: ['cli', 'playground'],
				dataDir: dirname(dbPath),
				log: (line) => console.error(`[mcp] ${line}`)
			})
			manager.resumeInterrupted()
			opened = { store, manager }
			return manager
		},
		async stop(): Promise<void> {
			if (!opened) return
			await opened.manager.stop()
			opened.store.close()
		}
	}
}

/** `smkit mcp [options]`. */
export async function runMcp(raw: Record<string, unknown> = {}): Promise<void> {
	const options = parseOptions(mcpOptions, raw)
	const httpOnly = Object.entries(HTTP_ONLY).flatMap(([key, flag]) =>
		options[key as keyof typeof HTTP_ONLY] === undefined ? [] : [flag]
	)
	if (!options.http && httpOnly.length > 0)
		throw new UsageError(
			`${httpOnly.join(', ')} ${httpOnly.length === 1 ? 'applies' : 'apply'} only with --http (without it smkit mcp serves stdio): add --http or leave ${httpOnly.length === 1 ? 'it' : 'them'} out`
		)
	const log = (line: string) => process.stderr.write(`${line}\n`)
	if (!options.http) {
		// Standard output is the protocol channel: nothing else may be written to it.
		for (const name of ['log', 'info', 'debug'] as const) console[name] = console.error
	}
	// The store opens on first use; a --db in a folder that does not exist is said now, not at the
	// first job tool call.
	try {
		missingStoreFolder(options.dbPath)
	} catch (error) {
		throw new UsageError(`--db: ${(error as Error).message}`)
	}
	const env = mergeEnv(loadEnvFile(options.envPath))
	// Proxies and speed as every command that reaches Instagram takes them; said on stderr, which
	// is the only place for it on stdio.
	const upstream = resolveUpstream(options, env, options.demo)
	for (const line of [...upstream.warnings, ...upstream.lines]) log(line)
	const instagram = await openInstagram(options, env, upstream.clientOptions)
	const jobs = lazyStore(options.dbPath, instagram.client, options.demo)
	// Jobs an earlier smkit mcp left unfinished continue now, as the playground's do at its start
	// (not at the first job tool). A store not there yet is made only when a tool needs it; one that
	// cannot be opened is said then.
	// Demo time as a playground on the store left it, before any job resumes, and as it moves it.
	const demoTime = instagram.demo ? await followDemoTime(options.dbPath, instagram.demo, log) : undefined
	if (existsSync(options.dbPath))
		try {
			jobs.manager()
		} catch {
			// Said to the client when a tool needs the store.
		}
	const sessionOptions: McpServerOptions = {
		client: instagram.client,
		version: packageJson.version,
		permission: options.permission,
		readOnly: options.readOnly,
		loggedIn: instagram.client.loggedIn,
		// saveFile in run_code writes beside the store: clients start smkit from folders of their own.
		files: new OutputFiles(join(dirname(options.dbPath), 'output')),
		jobs: () => jobs.manager(),
		watches: () => jobs.watches(),
		log: (line) => log(line)
	}
	const source = instagram.demo
		? `demo: ${demoDescription(instagram.demo)}`
		: instagram.client.loggedIn
			? 'Instagram account from the environment file'
			: 'not logged in: public tools only'
	const stopAll = async () => {
		demoTime?.stop()
		await jobs.stop()
		await instagram.stop()
	}

	if (options.http) {
		const running = await startServer({
			name: 'mcp',
			options: {
				...options,
				port: options.port ?? MCP_HTTP_PORT,
				host: options.host ?? '127.0.0.1',
				corsOrigin: undefined
			},
			env,
			onStop: stopAll,
			tokenUse: (url, token) => `send 'Authorization: Bearer ${token}' with the requests to ${url}mcp`,
			build: (security) => mcpHttpApp(security, () => createMcpServer(sessionOptions))
		})
		console.log(`MCP endpoint (Streamable HTTP): ${running.url}mcp`)
		console.log(`Permission: ${options.readOnly ? 'read-only' : options.permission}; ${source}`)
		await serveUntilStopped(running, 'the MCP server')
		return
	}

	// Once the input ends the client cannot answer a question: a write waiting for one is denied.
	const inputGone = new AbortController()
	process.stdin.once('end', () => inputGone.abort(new Error('the client closed its input')))
	const server = createMcpServer({ ...sessionOptions, inputEnded: inputGone.signal })
	const transport = new LineTransport()
	const closed = new Promise<void>((resolve) => {
		transport.onclose = () => resolve()
	})
	// The client closed its side: the calls it sent still get their answers, then smkit stops.
	const inputEnded = new Promise<void>((resolve) => process.stdin.once('end', () => resolve())).then(
		async () => {
			const nextTask = () => new Promise((resolve) => setImmediate(resolve))
			// A call read with the last data starts a few microtasks later; its answer is written
			// a few after it ends.
			await nextTask()
			await toolCallsSettled(server)
			await nextTask()
		}
	)
	await server.connect(transport)
	answerInvalidParams(transport)
	log(`smkit mcp: serving over stdio (${options.readOnly ? 'read-only' : options.permission}; ${source})`)
	await Promise.race([closed, inputEnded, waitForStopSignal()])
	await server.close().catch(() => {})
	await stopAll()
	await flushStandardOutput()
	process.exit(0)
}

/**
 * Resolves once standard output has handed everything written to it over (or after `limitMs`, for a
 * client that stopped reading). Exiting drops what a pipe has not taken yet, so an answer longer
 * than the pipe's buffer (tools/list is over 64 KiB) was cut when the input ended right after it.
 */
function flushStandardOutput(limitMs = 10_000): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(resolve, limitMs)
		process.stdout.end(() => {
			clearTimeout(timer)
			resolve()
		})
	})
}

/** How long HTTP sessions live without a request, and how many may be open at once. */
export interface McpSessionLimits {
	/** A session without a request for this long is closed (its next request gets 404). Default 30 min. */
	idleMs: number
	/** Open sessions at most; a new one closes the one unused the longest. Default 100. */
	maxSessions: number
	/** The clock (tests move it). */
	now: () => number
}

const DEFAULT_SESSION_LIMITS: McpSessionLimits = { idleMs: 30 * 60_000, maxSessions: 100, now: Date.now }

/** One open HTTP session. */
interface OpenSession {
	transport: WebStandardStreamableHTTPServerTransport
	server: ReturnType<typeof createMcpServer>
	lastUsed: number
}

/**
 * The HTTP app: the security guard, then `/mcp` with one server and transport per session. A client
 * that goes away without ending its session (DELETE) would leave it open for good: sessions unused
 * for `idleMs` are closed, looked for at most once a minute when requests come in (no timer), and
 * the number open is capped. A closed session's id answers 404, which tells an MCP client to start
 * a new session (Streamable HTTP, "Session Management").
 */
export function mcpHttpApp(
	security: Parameters<typeof securityGuard>[0],
	newServer: () => ReturnType<typeof createMcpServer>,
	limits: Partial<McpSessionLimits> = {}
) {
	const { idleMs, maxSessions, now } = { ...DEFAULT_SESSION_LIMITS, ...limits }
	// In order of last use: the first entry is the one unused the longest.
	const sessions = new Map<string, OpenSession>()
	let lastSweep = now()
	const close = (id: string) => {
		const session = sessions.get(id)
		if (!session) return
		sessions.delete(id)
		// Closing the server closes its transport: open streams end, later requests get 404.
		void session.server.close().catch(() => {})
	}
	const sweep = () => {
		const time = now()
		if (time - lastSweep < Math.min(idleMs, 60_000)) return
		lastSweep = time
		for (const [id, session] of sessions) if (time - session.lastUsed >= idleMs) close(id)
	}
	const handle = async (request: Request): Promise<Response> => {
		sweep()
		const sessionId = request.headers.get('mcp-session-id')
		if (sessionId) {
			const session = sessions.get(sessionId)
			if (session && now() - session.lastUsed < idleMs) {
				session.lastUsed = now()
				sessions.delete(sessionId)
				sessions.set(sessionId, session)
				return session.transport.handleRequest(request)
			}
			if (session) close(sessionId)
			return Response.json(
				{ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
				{ status: 404 }
			)
		}
		const server = newServer()
		const transport = new WebStandardStreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: (id) => {
				for (const oldest of sessions.keys()) {
					if (sessions.size < maxSessions) break
					close(oldest)
				}
				sessions.set(id, { transport, server, lastUsed: now() })
			},
			onsessionclosed: (id) => {
				sessions.delete(id)
			}
		})
		transport.onclose = () => {
			if (transport.sessionId) sessions.delete(transport.sessionId)
		}
		await server.connect(transport)
		answerInvalidParams(transport)
		return transport.handleRequest(request)
	}
	return (
		new Elysia()
			.use(securityGuard(security))
			// Any other path, or a failure outside the transport: the JSON failure body the guard uses, not Elysia's text.
			.onError(({ code, error, request }) => {
				const pathname = new URL(request.url).pathname
				const failure = toFailure(error, code, { server: 'mcp', request: `${request.method} ${pathname}` })
				const body =
					failure.body.code === 'not_found'
						? fail(`Not found: ${request.method} ${pathname}`, 'not_found')
						: failure.body
				return Response.json(body, { status: failure.status, headers: failure.headers })
			})
			.all('/mcp', ({ request }) => handle(request), { parse: 'none' })
	)
}
