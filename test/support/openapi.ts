/**
 * The playground's OpenAPI document as a validator: every schema compiled by Ajv (JSON Schema
 * 2020-12, strict mode, formats checked), and real responses checked against the operation they
 * answer: a documented status, a documented media type, and a body matching its schema.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'

type Json = Record<string, any>

const componentsId = 'urn:smkit:openapi:components'

/** A schema of the document and where it sits, e.g. `GET /api/status 200 application/json`. */
export interface LocatedSchema {
	where: string
	schema: Json
}

/** One operation of the document. */
export interface DocumentOperation {
	method: string
	/** The OpenAPI path, e.g. `/api/users/username/{username}`. */
	path: string
	operation: Json
}

/** Every operation of the document (method upper-case). */
export function operationsOf(document: Json): DocumentOperation[] {
	return Object.entries(document.paths as Json).flatMap(([path, item]) =>
		Object.entries(item as Json).map(([method, operation]) => ({
			method: method.toUpperCase(),
			path,
			operation
		}))
	)
}

/** `GET /api/x/{id}` style key of an operation. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`

/** A shared response by `$ref`, or the response itself. */
export function resolveResponse(document: Json, response: Json): Json {
	const reference = response?.$ref as string | undefined
	if (!reference) return response
	const name = reference.replace('#/components/responses/', '')
	return document.components.responses[name]
}

/** Every schema in the document: components, parameters, bodies, responses, response headers. */
export function schemasOf(document: Json): LocatedSchema[] {
	const found: LocatedSchema[] = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => ({
		where: `components.schemas.${name}`,
		schema: schema as Json
	}))
	const fromContent = (where: string, content: Json | undefined) => {
		for (const [mediaType, media] of Object.entries(content ?? {})) {
			if (media.schema) found.push({ where: `${where} ${mediaType}`, schema: media.schema })
			if (media['x-event-schema'])
				found.push({ where: `${where} ${mediaType} events`, schema: media['x-event-schema'] })
		}
	}
	for (const [name, response] of Object.entries(document.components?.responses ?? {})) {
		fromContent(`components.responses.${name}`, (response as Json).content)
		for (const [header, value] of Object.entries((response as Json).headers ?? {}))
			found.push({ where: `components.responses.${name} header ${header}`, schema: (value as Json).schema })
	}
	for (const { method, path, operation } of operationsOf(document)) {
		const key = operationKey(method, path)
		for (const parameter of operation.parameters ?? [])
			found.push({ where: `${key} parameter ${parameter.name}`, schema: parameter.schema })
		fromContent(`${key} request body`, operation.requestBody?.content)
		for (const [status, response] of Object.entries(operation.responses ?? {}))
			if (!(response as Json).$ref) fromContent(`${key} ${status}`, (response as Json).content)
	}
	return found
}

/**
 * Rewrites `#/components/schemas/X` references so a lone schema can reach the components. `closed`
 * also closes every object schema that does not say otherwise (`additionalProperties: false`), so
 * a response field the document does not describe is a problem.
 */
function rebased(value: unknown, closed: boolean): any {
	if (Array.isArray(value)) return value.map((item) => rebased(item, closed))
	if (typeof value !== 'object' || value === null) return value
	const result: Json = Object.fromEntries(
		Object.entries(value).map(([key, nested]) =>
			key === '$ref' && typeof nested === 'string' && nested.startsWith('#/components/schemas/')
				? [key, `${componentsId}#/$defs/${nested.slice('#/components/schemas/'.length)}`]
				: [key, rebased(nested, closed)]
		)
	)
	if (closed && result.type === 'object' && result.properties && !('additionalProperties' in result)) {
		result.additionalProperties = false
	}
	return result
}

/** Ajv over one document: strict JSON Schema 2020-12, with the document's components. */
export class DocumentValidator {
	readonly ajv: Ajv2020
	readonly #cache = new Map<Json, ValidateFunction>()

	readonly #closed: boolean

	/** `closed`: objects accept no property the document does not describe (see `rebased`). */
	constructor(
		readonly document: Json,
		options: { closed?: boolean } = {}
	) {
		this.#closed = options.closed ?? false
		this.ajv = new Ajv2020({ strict: true, allErrors: true })
		addFormats(this.ajv)
		this.ajv.addSchema({
			$id: componentsId,
			$defs: rebased(document.components?.schemas ?? {}, this.#closed)
		})
	}

	/** Compiles a schema of the document (throws what Ajv rejects). */
	compile(schema: Json): ValidateFunction {
		let validate = this.#cache.get(schema)
		if (!validate) {
			validate = this.ajv.compile(rebased(schema, this.#closed))
			this.#cache.set(schema, validate)
		}
		return validate
	}

	/** Problems of `value` against `schema`, or none. */
	problems(schema: Json, value: unknown): string[] {
		const validate = this.compile(schema)
		if (validate(value)) return []
		const errors = validate.errors ?? []
		// A value matching no branch of a union: one line with the value, not every branch's complaint.
		const unions = errors.filter((error) => error.keyword === 'anyOf')
		return errors
			.filter((error) => !unions.some((union) => error.schemaPath.startsWith(`${union.schemaPath}/`)))
			.map((error) => {
				const at = error.instancePath || '/'
				if (error.keyword !== 'anyOf') return `${at} ${error.message}`
				const pointer = error.instancePath
					.split('/')
					.slice(1)
					.map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
				const found = pointer.reduce<any>((nested, part) => nested?.[part], value)
				return `${at} matches none of its variants: ${JSON.stringify(found).slice(0, 400)}`
			})
	}

	/**
	 * What is wrong with a real response to an operation, or an empty list: its status must be
	 * listed, its media type documented, its documented headers present, and its body (JSON parsed;
	 * each event of an event stream; text otherwise) must match the schema.
	 */
	responseProblems(
		operation: DocumentOperation,
		response: { status: number; headers: Headers; text: string }
	): string[] {
		const key = operationKey(operation.method, operation.path)
		const documented = operation.operation.responses?.[String(response.status)]
		if (!documented) {
			const listed = Object.keys(operation.operation.responses ?? {}).join(', ')
			return [`${key} answered HTTP ${response.status}, which it does not list (it lists ${listed})`]
		}
		const at = `${key} ${response.status}`
		const resolved = resolveResponse(this.document, documented)
		const problems = Object.entries(resolved.headers ?? {}).flatMap(([header, spec]) =>
			headerProblems(at, header, spec as Json, response.headers.get(header))
		)
		const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
		const media = resolved.content?.[mediaType]
		if (!media) {
			const listed = Object.keys(resolved.content ?? {}).join(', ') || 'no content'
			return [...problems, `${at}: content type '${mediaType}' is not documented (documented: ${listed})`]
		}
		let body: unknown = response.text
		if (mediaType === 'application/json') {
			try {
				body = JSON.parse(response.text)
			} catch {
				return [...problems, `${at}: the body is not JSON`]
			}
		}
		if (media.schema)
			problems.push(...this.problems(media.schema, body).map((problem) => `${at}: body ${problem}`))
		if (media['x-event-schema']) {
			for (const data of eventData(response.text)) {
				problems.push(
					...this.problems(media['x-event-schema'], data).map((problem) => `${at}: event ${problem}`)
				)
			}
		}
		return problems
	}
}

/** The JSON `data` of each event of a server-sent event stream (comments skipped). */
export function eventData(text: string): unknown[] {
	return text
		.split('\n\n')
		.filter((block) => block.startsWith('data: '))
		.map((block) => JSON.parse(block.slice('data: '.length)))
}

/** A documented response header: present when required, and its value of the documented type. */
function headerProblems(at: string, header: string, spec: Json, value: string | null): string[] {
	if (value === null) return spec.required === true ? [`${at}: documented header ${header} is missing`] : []
	const schema = spec.schema ?? {}
	if (Array.isArray(schema.enum) && !schema.enum.includes(value))
		return [`${at}: header ${header} is '${value}', not one of ${schema.enum.join(', ')}`]
	if (schema.type === 'integer' && !/^[0-9]+$/.test(value))
		return [`${at}: header ${header} is '${value}', not a whole number`]
	return []
}
