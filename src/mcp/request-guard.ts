/**
 * Requests whose params do not have the protocol's shape (a `tools/call` without `params` or a
 * `name`, `arguments` that are not an object, an `initialize` without its fields) are answered
 * `-32602` Invalid params naming what is wrong, on both transports. Left to the SDK they reach the
 * handler's own parse, whose failure goes out as `-32603` Internal error with the validator's
 * report as its message.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
	CallToolRequestSchema,
	ErrorCode,
	InitializeRequestSchema,
	isJSONRPCRequest,
	type JSONRPCMessage,
	ListToolsRequestSchema,
	PingRequestSchema
} from '@modelcontextprotocol/sdk/types.js'

/** The requests smkit answers, with their schemas. */
const requestSchemas = new Map<string, typeof PingRequestSchema | typeof CallToolRequestSchema>([
	['initialize', InitializeRequestSchema as unknown as typeof PingRequestSchema],
	['ping', PingRequestSchema],
	['tools/list', ListToolsRequestSchema as unknown as typeof PingRequestSchema],
	['tools/call', CallToolRequestSchema]
])

/**
 * An invalid-params answer thrown from a request handler: the SDK sends an error's `code` and its
 * message as they are (its own `McpError` would prefix the message with `MCP error -32602:`).
 */
export class InvalidParams extends Error {
	readonly code = ErrorCode.InvalidParams
}

/** One validator issue as `params.arguments: expected record, received string`. */
function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
	if (!issue) return 'invalid params'
	const where = issue.path.map(String).join('.')
	const what = issue.message.replace(/^Invalid input: /, '')
	return where ? `${where}: ${what}` : what
}

/**
 * Checks the params of every request `transport` delivers from now on (call it after
 * `server.connect(transport)`, which installs the delivery): a request that fails its schema gets
 * its `-32602` answer here and never reaches the server.
 */
export function answerInvalidParams(transport: Transport): void {
	const deliver = transport.onmessage
	if (!deliver) throw new Error('answerInvalidParams: connect the server to the transport first')
	transport.onmessage = (message, extra) => {
		if (isJSONRPCRequest(message)) {
			const result = requestSchemas.get(message.method)?.safeParse(message)
			if (result && !result.success) {
				const error = {
					code: ErrorCode.InvalidParams,
					message: `Invalid params of ${message.method}: ${describeIssue(result.error.issues[0])}`
				}
				void transport.send({ jsonrpc: '2.0', id: message.id, error } as JSONRPCMessage)
				return
			}
		}
		deliver(message, extra)
	}
}
