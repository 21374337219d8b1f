/**
 * The MCP tools that call client methods, generated from the client's method registry: one tool
 * per method, its input schema from the method's parameters, its output schema from the model the
 * method returns, its description from the registry's. Nothing here is written per method, so a
 * method added to the registry is a tool without further work (a test checks every entry maps).
 */
import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import {
	invokeMethod,
	type MethodParam,
	type MethodResult,
	type MethodSpec,
	methodRegistry
} from '../client/registry'
import { Page } from '../client/types'
import { cursorSchema, followerQuerySchema, stringParamSchema } from './param-schemas'
import { pageWithinBudget, RESULT_LIMIT_TEXT } from './result-budget'
import { toJson } from './tool'

/** The largest `count` a list tool accepts in one call (bigger lists are jobs). */
export const MAX_TOOL_COUNT = 200

/** A registry method as an MCP tool. */
export interface MethodTool {
	/** `users_get_by_username`: letters, digits and underscores, accepted by every MCP client. */
	name: string
	title: string
	description: string
	inputSchema: TObject
	/** The model the method returns, when it is an object (MCP output schemas are objects). */
	outputSchema?: TSchema
	method: MethodSpec
	/** A list tool: takes `count` and `cursor`, and returns a page within the result budget (result-budget.ts). */
	listed: boolean
	/** The call's arguments, in the method's order, from the tool's validated input. */
	toArguments(input: Record<string, unknown>): unknown[]
}

/** `users.getByUsername` → `users_get_by_username`. */
export function toolNameOf(method: Pick<MethodSpec, 'group' | 'name'>): string {
	return `${method.group}_${method.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`
}

/**
 * The `{ count?, cursor? }` options of a list method (and `query?` of the follower list, a search
 * within it), as optional top-level fields.
 */
function listProperties(searchable: boolean): TProperties {
	return {
		...(searchable ? { query: Type.Optional(followerQuerySchema) } : {}),
		count: Type.Optional(
			Type.Integer({
				minimum: 1,
				maximum: MAX_TOOL_COUNT,
				description: `At most how many items to return, collected across pages (1-${MAX_TOOL_COUNT}); default: one page. Fewer come back when they would not fit in ${RESULT_LIMIT_TEXT}: continue with next_cursor`
			})
		),
		cursor: Type.Optional(cursorSchema)
	}
}

const isListOptions = (param: MethodParam) =>
	/^\{\s*count\?: number, cursor\?: string(, query\?: string)?\s*\}$/.test(param.type)
const isSearchable = (param: MethodParam) => param.type.includes('query?: string')

/** The schema of one plain parameter, with its bounds; every registry parameter but the list options is a string. */
function parameterSchema(method: MethodSpec, param: MethodParam): TSchema {
	if (param.type !== 'string')
		throw new TypeError(`${method.path}: parameter ${param.name} of type ${param.type} has no tool schema`)
	return stringParamSchema(method, param)
}

/**
 * The schema of what a method resolves to, from the registry's schema reference: the model, or a
 * page of it (the page's own model when it has more fields, like CommentPage); undefined unless it
 * is an object (MCP output schemas are objects).
 */
export function returnSchemaOf(result: MethodResult): TSchema | undefined {
	const schema = result.shape === 'page' ? (result.pageSchema ?? Page(result.schema)) : result.schema
	return schema.type === 'object' ? schema : undefined
}

/** Plain JSON Schema (TypeBox's symbol keys dropped), as it crosses the protocol. */
export function plainSchema<Schema extends TSchema>(schema: Schema): Schema {
	return JSON.parse(JSON.stringify(schema))
}

function describe(method: MethodSpec, listed: boolean): string {
	const lines = [`${method.description}.`]
	if (listed)
		lines.push(
			`A page of the list: pass \`count\` to collect more items across pages, and the result's \`next_cursor\` as \`cursor\` to continue (null at the end). A result holds at most ${RESULT_LIMIT_TEXT} of JSON: when the items asked for would not fit, it holds the first ones that do, and \`next_cursor\` continues right after them (no item is skipped or cut).`
		)
	lines.push(`Client method: ig.${method.path}; result: ${method.returns}.`)
	if (method.access === 'write')
		lines.push("Changes the Instagram account: needs the user's approval unless smkit runs with full access.")
	return lines.join(' ')
}

/** The tool of one registry method. */
export function methodTool(method: MethodSpec): MethodTool {
	const properties: TProperties = {}
	let listed = false
	for (const param of method.params) {
		if (isListOptions(param)) {
			Object.assign(properties, listProperties(isSearchable(param)))
			listed = true
		} else properties[param.name] = parameterSchema(method, param)
	}
	const outputSchema = returnSchemaOf(method.result)
	return {
		name: toolNameOf(method),
		title: method.description,
		description: describe(method, listed),
		inputSchema: Type.Object(properties, { additionalProperties: false }),
		outputSchema,
		method,
		listed,
		toArguments(input) {
			return method.params.map((param) => {
				if (!isListOptions(param)) return input[param.name]
				const options: Record<string, unknown> = {}
				if (input.count !== undefined) options.count = input.count
				if (input.cursor !== undefined) options.cursor = input.cursor
				if (input.query !== undefined) options.query = input.query
				return options
			})
		}
	}
}

/**
 * Runs a method tool with validated `input` on `client` and resolves to its result as JSON: a list
 * tool's page within the result budget (fewer items, and a cursor right after them).
 */
export function runMethodTool(
	client: object,
	tool: MethodTool,
	input: Record<string, unknown>
): Promise<unknown> {
	const call = (count?: number) => {
		const args = tool.toArguments(count === undefined ? input : { ...input, count })
		return invokeMethod(client, tool.method.path, args).then(toJson)
	}
	return tool.listed ? pageWithinBudget(call) : call()
}

/** One tool per registry method; write methods only when `includeWrites`. */
export function methodTools(options: { includeWrites: boolean }): MethodTool[] {
	return methodRegistry
		.filter((method) => options.includeWrites || method.access === 'read')
		.map((method) => methodTool(method))
}
