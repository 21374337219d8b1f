/**
 * Calls the playground's operations as the OpenAPI document describes them and checks each real
 * response against it. Requests come from the document itself: path, query and body values from
 * the schemas' `examples`, and bad values from their constraints, so a new route is exercised
 * without a line of test code as long as its schemas carry examples.
 */
import type { DocumentOperation, DocumentValidator } from '../support/openapi'
import { operationKey } from '../support/openapi'

type Json = Record<string, any>

/** Something that answers requests (an Elysia app). */
export interface Handler {
	handle(request: Request): Promise<Response> | Response
}

/** One request: a concrete path with its query, and a JSON body or raw text. */
export interface Call {
	label: string
	path: string
	body?: unknown
	rawBody?: string
	headers?: Record<string, string>
}

/** A checked response. */
export interface Checked {
	status: number
	headers: Headers
	text: string
	json: any
}

/** The first example a schema gives (examples, default, const or enum). */
export function exampleOf(schema: Json | undefined): unknown {
	if (!schema) return undefined
	if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
	if (schema.default !== undefined) return schema.default
	if (schema.const !== undefined) return schema.const
	if (Array.isArray(schema.enum)) return schema.enum[0]
	return undefined
}

/** Records what every operation answered and every way a response strayed from the document. */
export class ResponseLedger {
	/** Statuses seen per operation key. */
	readonly seen = new Map<string, Set<number>>()
	readonly problems: string[] = []

	constructor(
		readonly validator: DocumentValidator,
		readonly operations: readonly DocumentOperation[]
	) {}

	/** The document's operation for a method and OpenAPI path. */
	operation(method: string, path: string): DocumentOperation {
		const found = this.operations.find((item) => item.method === method && item.path === path)
		if (!found) throw new Error(`${operationKey(method, path)} is not in the document`)
		return found
	}

	/** Sends a call to an operation, checks the response against the document, records its status. */
	async send(app: Handler, operation: DocumentOperation, call: Call): Promise<Checked> {
		const hasBody = call.body !== undefined || call.rawBody !== undefined
		const request = new Request(`http://127.0.0.1${call.path}`, {
			method: operation.method,
			headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...call.headers },
			body: call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body))
		})
		const response = await app.handle(request)
		const text = await response.text()
		const checked: Checked = {
			status: response.status,
			headers: response.headers,
			text,
			json: parseJson(text)
		}
		const key = operationKey(operation.method, operation.path)
		const statuses = this.seen.get(key) ?? new Set<number>()
		statuses.add(response.status)
		this.seen.set(key, statuses)
		for (const problem of this.validator.responseProblems(operation, checked)) {
			this.problems.push(`${problem} [${call.label}: ${operation.method} ${call.path}]`)
		}
		return checked
	}
}

function parseJson(text: string): any {
	try {
		return JSON.parse(text)
	} catch {
		return undefined
	}
}

/** A request body schema with `$ref`s to components followed. */
function resolveSchema(document: Json, schema: Json | undefined): Json | undefined {
	const reference = schema?.$ref as string | undefined
	if (!reference) return schema
	return document.components.schemas[reference.replace('#/components/schemas/', '')]
}

/** The concrete path and query of an operation from parameter values (strings are encoded). */
function concretePath(operation: DocumentOperation, values: Record<string, unknown>): string {
	let path = operation.path
	const query = new URLSearchParams()
	for (const parameter of operation.operation.parameters ?? []) {
		const value = values[parameter.name]
		if (value === undefined) continue
		if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)))
		else query.set(parameter.name, String(value))
	}
	const search = query.toString()
	return search ? `${path}?${search}` : path
}

/** A well-formed call built from the document's examples, or why one cannot be built. */
export function sensibleCall(document: Json, operation: DocumentOperation): Call | string {
	const values: Record<string, unknown> = {}
	for (const parameter of operation.operation.parameters ?? []) {
		if (!parameter.required) continue
		const value = exampleOf(parameter.schema)
		if (value === undefined) return `${parameter.in} parameter '${parameter.name}' has no example`
		values[parameter.name] = value
	}
	const call: Call = { label: 'sensible', path: concretePath(operation, values) }
	const bodySchema = resolveSchema(
		document,
		operation.operation.requestBody?.content?.['application/json']?.schema
	)
	if (bodySchema) {
		const body: Record<string, unknown> = {}
		for (const name of bodySchema.required ?? []) {
			const value = exampleOf(resolveSchema(document, bodySchema.properties?.[name]))
			if (value === undefined) return `body field '${name}' has no example`
			body[name] = value
		}
		call.body = body
	}
	return call
}

/** A value the pattern refuses: the first of a few candidates it does not match. */
function patternBreaker(pattern: string): string {
	const regex = new RegExp(pattern, 'u')
	const candidate = ['not valid!', '   ', '#'].find((value) => !regex.test(value))
	if (candidate === undefined)
		throw new Error(`no value breaks the pattern ${pattern}: add one to patternBreaker`)
	return candidate
}

/**
 * Calls that break one rule each; every one must be refused with 400: a bad or missing value, a
 * query parameter given twice, a body that is not JSON or lacks its fields.
 */
export function invalidCalls(document: Json, operation: DocumentOperation, sensible: Call): Call[] {
	const calls: Call[] = []
	const parameters: Json[] = operation.operation.parameters ?? []
	const values = Object.fromEntries(
		parameters
			.filter((parameter) => parameter.required)
			.map((parameter) => [parameter.name, exampleOf(parameter.schema)])
	)
	const withBody = (call: Call): Call => ({ ...call, body: sensible.body })
	for (const parameter of parameters) {
		const schema = parameter.schema as Json
		// A query parameter given twice, each time with a good value: which one counts is unsaid.
		const good =
			values[parameter.name] ??
			exampleOf(schema) ??
			(schema.type === 'integer' ? (schema.minimum ?? 1) : undefined)
		if (parameter.in === 'query' && good !== undefined) {
			const once = concretePath(operation, { ...values, [parameter.name]: good })
			calls.push(
				withBody({
					label: `repeated query parameter ${parameter.name}`,
					path: `${once}&${parameter.name}=${encodeURIComponent(String(good))}`
				})
			)
		}
		let bad: unknown
		if (schema.type === 'integer' || schema.type === 'number')
			bad = schema.minimum === undefined ? 'x' : schema.minimum - 1
		else if (schema.pattern) bad = patternBreaker(schema.pattern)
		else if (schema.maxLength !== undefined) bad = 'x'.repeat(schema.maxLength + 1)
		if (bad === undefined) continue
		calls.push(
			withBody({
				label: `invalid ${parameter.in} parameter ${parameter.name}`,
				path: concretePath(operation, { ...values, [parameter.name]: bad })
			})
		)
		// A documented maximum is the server's: one more is refused, not read (a 16-digit id, count 201).
		if (schema.type === 'integer' && schema.maximum !== undefined)
			calls.push(
				withBody({
					label: `${parameter.in} parameter ${parameter.name} over its maximum`,
					path: concretePath(operation, { ...values, [parameter.name]: BigInt(schema.maximum) + 1n })
				})
			)
		if (parameter.in === 'query' && parameter.required) {
			const { [parameter.name]: _dropped, ...rest } = values
			calls.push(
				withBody({ label: `missing query parameter ${parameter.name}`, path: concretePath(operation, rest) })
			)
		}
	}
	const bodySchema = resolveSchema(
		document,
		operation.operation.requestBody?.content?.['application/json']?.schema
	)
	if (bodySchema) {
		calls.push({ label: 'body not JSON', path: sensible.path, rawBody: '{"unfinished":' })
		if ((bodySchema.required ?? []).length > 0)
			calls.push({ label: 'empty body object', path: sensible.path, body: {} })
		// The body is documented as a required object: anything else is refused, whatever its fields.
		for (const rawBody of notObjects)
			calls.push({ label: `body ${JSON.stringify(rawBody)}`, path: sensible.path, rawBody })
		calls.push(...integerFieldBreakers(document, bodySchema, sensible))
	}
	return calls
}

/** JSON texts that are no object, and the empty body. */
const notObjects = ['42', '"text"', '[1,2]', 'null', 'true', '']

/** The integer schema of a body field (possibly one branch of `anyOf`, beside null). */
function integerOf(document: Json, field: Json | undefined): Json | undefined {
	const schema = resolveSchema(document, field)
	if (schema?.type === 'integer') return schema
	return (schema?.anyOf as Json[] | undefined)?.find((branch) => branch.type === 'integer')
}

/**
 * Bodies breaking an integer field's rules with JSON numbers: one over its maximum, `1e20` (a whole
 * number as JSON reads it, more than 15 digits) and a fraction.
 */
function integerFieldBreakers(document: Json, bodySchema: Json, sensible: Call): Call[] {
	const calls: Call[] = []
	for (const [name, field] of Object.entries((bodySchema.properties ?? {}) as Json)) {
		const integer = integerOf(document, field as Json)
		if (!integer) continue
		// The number goes in as JSON text: `JSON.stringify` would write 1e20 as 100000000000000000000.
		const body = (value: string) =>
			JSON.stringify({ ...(sensible.body as Json), [name]: '<value>' }).replace('"<value>"', value)
		const over = integer.maximum === undefined ? '1e20' : String(BigInt(integer.maximum) + 1n)
		calls.push({ label: `body field ${name} = ${over}`, path: sensible.path, rawBody: body(over) })
		calls.push({ label: `body field ${name} = 1e20`, path: sensible.path, rawBody: body('1e20') })
		calls.push({ label: `body field ${name} = 2.5`, path: sensible.path, rawBody: body('2.5') })
	}
	return calls
}
