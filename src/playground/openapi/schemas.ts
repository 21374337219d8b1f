/**
 * TypeBox schemas as the JSON Schemas (2020-12) of an OpenAPI 3.1 document. The routes validate
 * with the same TypeBox schemas, so the document is derived rather than written; this module only
 * translates what validators and generators cannot read:
 * - the custom `error` keyword (Elysia's validation message) is dropped;
 * - Elysia's coercion of query and path values (`anyOf: [{ type: string, format: integer }, X]`,
 *   added at route registration so `?count=12` validates as a number) becomes `X`, so a count is
 *   `type: integer` with its bounds;
 * - a union of string literals becomes `enum`; a string-keyed record becomes `additionalProperties`;
 * - named schemas become `$ref`s to `components.schemas`: a schema is named by the name it was
 *   registered under (the client's models, the envelope) or by its `title`.
 */
import { Kind } from '@sinclair/typebox'

/** A JSON Schema object of the document. */
export type JsonSchema = Record<string, unknown>

/** Keywords that only Elysia understands. */
const droppedKeywords = new Set(['error'])

/** Formats Elysia gives the string branch of a coerced query or path value. */
const coercionFormats = new Set([
	'integer',
	'numeric',
	'boolean',
	'ArrayString',
	'ObjectString',
	'ArrayQuery'
])

/** Keywords whose value is a map of schemas, one schema, or a list of schemas. */
const schemaMapKeys = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])
const schemaKeys = new Set([
	'items',
	'additionalProperties',
	'unevaluatedProperties',
	'contains',
	'not',
	'if',
	'then',
	'else',
	'propertyNames',
	'contentSchema'
])
const schemaListKeys = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems'])

/** TypeBox's key for `Record(String, X)`. */
const anyStringKey = '^(.*)$'

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value)

/** JSON with sorted keys (symbols dropped): equal for structurally equal schemas. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(value, (_key, nested) =>
		isObject(nested)
			? Object.fromEntries(
					Object.keys(nested)
						.sort()
						.map((key) => [key, nested[key]])
				)
			: nested
	)
}

/** Whether a value is a TypeBox schema (carries TypeBox's `Kind` symbol). */
export const isTypeBoxSchema = (value: unknown): value is Record<string, unknown> =>
	isObject(value) && Kind in value

/**
 * The schemas of one document: converts schemas and collects every named schema met on the way
 * into `components.schemas`, so the document holds exactly the components it references.
 */
export class DocumentSchemas {
	/** `components.schemas` so far, by name. */
	readonly components: Record<string, JsonSchema> = {}
	readonly #byIdentity = new Map<object, string>()
	readonly #byStructure = new Map<string, string>()
	readonly #structureOf = new Map<string, string>()

	/** `named`: schemas to reference by name wherever they appear (non-schemas are ignored). */
	constructor(named: Record<string, unknown>) {
		for (const [name, schema] of Object.entries(named)) {
			if (!isTypeBoxSchema(schema) || !isNamable(schema)) continue
			this.#byIdentity.set(schema, name)
			this.#claim(name, canonicalJson(schema))
		}
	}

	/** The document form of `schema`; a named schema (the root included) becomes a `$ref`. */
	convert(schema: unknown): JsonSchema {
		return this.#walk(schema) as JsonSchema
	}

	/** A `$ref` to component `name`, defined from `schema` on first use. */
	reference(name: string, schema: unknown): JsonSchema {
		if (!(name in this.components)) {
			this.components[name] = {}
			this.components[name] = this.#convertChildren(schema as Record<string, unknown>)
		}
		return { $ref: `#/components/schemas/${name}` }
	}

	/** A name of `schema`: registered (by identity or structure), or its `title`. */
	nameOf(schema: Record<string, unknown>): string | undefined {
		const registered = this.#byIdentity.get(schema)
		if (registered) return registered
		if (!isNamable(schema)) return undefined
		const structure = canonicalJson(schema)
		if (typeof schema.title === 'string') {
			this.#claim(schema.title, structure)
			return schema.title
		}
		return this.#byStructure.get(structure)
	}

	/** Records that `name` stands for `structure`; two different schemas under one name are an error. */
	#claim(name: string, structure: string) {
		const known = this.#structureOf.get(name)
		if (known !== undefined && known !== structure) {
			throw new Error(`Two different schemas are named '${name}' in the OpenAPI document`)
		}
		this.#structureOf.set(name, structure)
		if (!this.#byStructure.has(structure)) this.#byStructure.set(structure, name)
	}

	#walk(value: unknown): unknown {
		if (!isObject(value)) return value
		const name = this.nameOf(value)
		if (name) return this.reference(name, value)
		return this.#convertChildren(value)
	}

	#convertChildren(schema: Record<string, unknown>): JsonSchema {
		const coerced = coercedTarget(schema)
		if (coerced) return this.#walk(coerced) as JsonSchema
		const result: JsonSchema = {}
		for (const key of Object.keys(schema)) {
			const value = schema[key]
			if (droppedKeywords.has(key) || value === undefined) continue
			if (schemaMapKeys.has(key) && isObject(value)) {
				result[key] = Object.fromEntries(
					Object.entries(value).map(([name, child]) => [name, this.#walk(child)])
				)
			} else if (schemaKeys.has(key) && isObject(value)) {
				result[key] = this.#walk(value)
			} else if (schemaListKeys.has(key) && Array.isArray(value)) {
				result[key] = value.map((child) => this.#walk(child))
			} else {
				result[key] = structuredClone(value)
			}
		}
		return simplify(result)
	}
}

/** Only objects, unions and records are worth a name (never a bare string or number). */
function isNamable(schema: Record<string, unknown>): boolean {
	return schema.type === 'object' || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)
}

/** The real schema inside Elysia's coercion union of a query or path value, if this is one. */
function coercedTarget(schema: Record<string, unknown>): Record<string, unknown> | undefined {
	const branches = schema.anyOf
	if (!Array.isArray(branches) || branches.length !== 2) return undefined
	const isCoercion = (branch: unknown) =>
		isObject(branch) && branch.type === 'string' && coercionFormats.has(String(branch.format))
	const target = branches.find((branch) => !isCoercion(branch))
	if (!branches.some(isCoercion) || !isObject(target) || target.type === 'string') return undefined
	return { ...target, description: target.description ?? schema.description }
}

/** Literal unions as `enum`, string-keyed records as `additionalProperties`. */
function simplify(schema: JsonSchema): JsonSchema {
	const branches = schema.anyOf
	if (
		Array.isArray(branches) &&
		branches.length > 0 &&
		branches.every(
			(branch) => isObject(branch) && branch.type === 'string' && typeof branch.const === 'string'
		)
	) {
		const { anyOf: _literals, ...rest } = schema
		return { ...rest, type: 'string', enum: branches.map((branch) => (branch as JsonSchema).const) }
	}
	const patterns = schema.patternProperties
	if (isObject(patterns) && Object.keys(patterns).length === 1 && anyStringKey in patterns) {
		const { patternProperties: _patterns, ...rest } = schema
		return { ...rest, additionalProperties: patterns[anyStringKey] }
	}
	return schema
}
