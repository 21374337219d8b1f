/**
 * The options of `smkit mcp`, apart from the server so the command line can register them without
 * loading the MCP SDK (the other commands never evaluate it).
 */
import { Type } from '@sinclair/typebox'
import { permissionOption } from '../agent/options'
import { serverOptions } from '../server/bootstrap'
import { dbPathOption, demoOption, givenOnly, type ParsedOptions } from '../server/options'
import { upstreamOptions } from '../server/upstream-options'
import { DEFAULT_DB_PATH } from '../store/db'

/** The default port of `smkit mcp --http`. */
export const MCP_HTTP_PORT = 8866

const { port, host, envPath, token } = serverOptions(MCP_HTTP_PORT)

/** The options of `smkit mcp`, registered with cac and validated from these schemas. */
export const mcpOptions = {
	envPath,
	demo: { ...demoOption, description: 'Serve the built-in simulated Instagram instead of the real one' },
	permission: {
		...permissionOption,
		description: 'Writes to the account: ask_every, ask_once (the client asks the user) or full_access'
	},
	readOnly: Type.Boolean({
		default: false,
		flag: '--read-only',
		description: 'Offer no write tool (like, comment, follow, message) and no write in run_code'
	}),
	dbPath: dbPathOption('The SQLite file collection jobs are kept in', DEFAULT_DB_PATH),
	http: Type.Boolean({
		default: false,
		flag: '--http',
		description: `Serve Streamable HTTP at /mcp (port ${MCP_HTTP_PORT}) instead of stdio`
	}),
	// Only with --http: without it, giving one is bad usage rather than silently ignored.
	port: givenOnly(port, 'With --http: the server port'),
	host: givenOnly(host, 'With --http: the server host'),
	token: { ...token, description: `With --http: ${token.description}` } as typeof token,
	...upstreamOptions
}

/** The options that only apply with --http, by key, with their flags. */
export const HTTP_ONLY = { port: '--port', host: '--host', token: '--token' } as const

/** Validated options of `smkit mcp`. */
export type McpOptions = ParsedOptions<typeof mcpOptions>
