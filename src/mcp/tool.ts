/**
 * What every smkit MCP tool is (a definition for `tools/list` and a handler for `tools/call`) and
 * the two shapes of its results: success as JSON text plus `structuredContent` when the tool has an
 * output schema, failure as a tool error whose text is the API's failure envelope (code, message).
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value'
import type { ErrorCode } from '../server/envelope'
import { fail } from '../server/envelope'

/** A tool result as the protocol carries it. */
export interface ToolResult {
	[key: string]: unknown
	content: { type: 'text'; text: string }[]
	structuredContent?: Record<string, unknown>
	isError?: boolean
}

/** Hints clients show (and use to decide whether to ask the user). */
export interface ToolAnnotations {
	title?: string
	readOnlyHint?: boolean
	destructiveHint?: boolean
	idempotentHint?: boolean
	openWorldHint?: boolean
}

/** Per-call context: the call's abort signal (the client cancelled or the session closed). */
export interface ToolCall {
	signal: AbortSignal
}

/** One tool of the server. */
export interface ServerTool {
	name: string
	title: string
	description: string
	inputSchema: TObject
	outputSchema?: TSchema
	annotations: ToolAnnotations
	/** Runs with validated input; may throw (the server turns the error into a failure result). */
	run(input: Record<string, unknown>, call: ToolCall): Promise<ToolResult>
}

/** JSON values only: big integers become strings, undefined becomes null. */
export function toJson(value: unknown): unknown {
	const text = JSON.stringify(value ?? null, (_key, item) =>
		typeof item === 'bigint' ? item.toString() : item
	)
	return JSON.parse(text ?? 'null')
}

/** A successful result: JSON text, and `structuredContent` when the tool declares an output schema. */
export function successResult(value: unknown, structured: boolean): ToolResult {
	const json = toJson(value)
	const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(json) }] }
	if (structured && json !== null && typeof json === 'object' && !Array.isArray(json))
		result.structuredContent = json as Record<string, unknown>
	return result
}

/** A tool error carrying the API's failure envelope: `{ success: false, error, code, timestamp }`. */
export function failureResult(code: ErrorCode, message: string): ToolResult {
	return { isError: true, content: [{ type: 'text', text: JSON.stringify(fail(message, code)) }] }
}

/**
 * Checks a call's arguments; the message names the first bad field and what it takes: a union's
 * choices, the form of a string not matching its pattern (as the field's description says it), or
 * else the validator's wording.
 */
export function checkInput(schema: TObject, input: unknown): string | undefined {
	if (Value.Check(schema, input)) return undefined
	const [problem] = [...Value.Errors(schema, input)]
	const field = (problem?.path ?? '').replace(/^\//, '').replaceAll('/', '.')
	const detail = expectation(problem) ?? problem?.message ?? 'invalid value'
	return field ? `Invalid argument '${field}': ${detail}` : `Invalid arguments: ${detail}`
}

/** What a failed enum or pattern expects, in words; undefined where the validator's own wording is clear. */
function expectation(problem: ValueError | undefined): string | undefined {
	const choices = literalChoices(problem?.schema)
	if (choices) return `expected one of ${choices.join(', ')}`
	const description = (problem?.schema as { description?: unknown } | undefined)?.description
	if (problem?.type === ValueErrorType.StringPattern && typeof description === 'string')
		return `expected ${description}`
}

/** The values of a union of literals (an enum such as a job's kind); undefined for other schemas. */
function literalChoices(schema: TSchema | undefined): string[] | undefined {
	const variants = (schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf
	if (!variants || variants.length === 0 || variants.some((variant) => variant.const === undefined)) return
	return variants.map((variant) => String(variant.const))
}
