/**
 * The playground's OpenAPI 3.1 document, built from the app's route table: every `/api/` route is
 * an operation. Parameters and request bodies come from the schemas the route validates with; the
 * success response, summary and tag from its `documented(...)` detail (routes/docs.ts); failures
 * are shared responses (failures.ts). Nothing is listed by hand, so a new route is documented by
 * declaring it, and a route without `documented(...)` still appears (and fails the document test).
 */
import { t } from 'elysia'
import * as clientModels from '../../client/types'
import { ErrorCodeSchema, FailureEnvelope, SuccessEnvelopeOf } from '../../server/envelope'
import { OPERATION_KEY, type OperationSpec } from '../routes/docs'
import { failureComponents, failureReference, failureStatuses } from './failures'
import { headerParameters } from './headers'
import { DocumentSchemas, type JsonSchema } from './schemas'

/** What the document needs of a route (Elysia's `app.routes` entries fit). */
export interface DocumentedRoute {
	method: string
	path: string
	hooks?: {
		params?: unknown
		query?: unknown
		body?: unknown
		detail?: Record<string, unknown> & { hide?: boolean }
	}
}

/** Options of `buildOpenApiDocument`. */
export interface DocumentOptions {
	title: string
	version: string
	description: string
	/** Whether a path calls Instagram (its operations list Instagram's failures). */
	callsInstagram: (path: string) => boolean
	/** Tag descriptions, by tag name. */
	tags: Record<string, string>
}

const methodsWithBody = new Set(['post', 'put', 'patch'])

/** Schemas referenced by name wherever they appear. */
const namedSchemas = { ...clientModels, Failure: FailureEnvelope, ErrorCode: ErrorCodeSchema }

/** `get /api/media/by-url` -> `getMediaByUrl`; `/api/users/id/:user_id` -> `getUsersIdByUserId`. */
export function operationIdOf(method: string, path: string): string {
	const pascal = (text: string) =>
		text
			.split(/[-_.]/)
			.filter(Boolean)
			.map((word) => word[0].toUpperCase() + word.slice(1))
			.join('')
	const words = path
		.replace(/^\/api(\/|$)/, '/')
		.split('/')
		.filter(Boolean)
		.map((segment) => (segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : pascal(segment)))
	return method.toLowerCase() + (words.join('') || 'Index')
}

/** The OpenAPI path of an Elysia path: `/api/users/:id` -> `/api/users/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

/** The playground's address in the document, with the given defaults for host and port. */
function serverEntry(host: string, port: string): JsonSchema {
	return {
		url: 'http://{host}:{port}',
		description: 'A running playground (the address `smkit playground` printed)',
		variables: {
			host: { default: host, description: 'Host name or address (--host)' },
			port: { default: port, description: 'Port (--port)' }
		}
	}
}

/**
 * The document as served from `url`: its server address defaults to the host and port the request
 * reached, so the reference page's requests go to this playground whatever its --host and --port.
 */
export function servedFrom(document: JsonSchema, url: URL): JsonSchema {
	return { ...document, servers: [serverEntry(url.hostname, url.port || '80')] }
}

/** Builds the document from the app's routes. */
export function buildOpenApiDocument(
	routes: readonly DocumentedRoute[],
	options: DocumentOptions
): JsonSchema {
	const schemas = new DocumentSchemas(namedSchemas)
	const failure = schemas.convert(FailureEnvelope)
	const usedStatuses = new Set<number>()
	const usedTags = new Set<string>()
	const paths: Record<string, Record<string, JsonSchema>> = {}

	for (const route of routes) {
		const method = route.method.toLowerCase()
		if (!route.path.startsWith('/api/') || route.hooks?.detail?.hide || method === 'options') continue
		const operation = buildOperation(route, method, schemas, options)
		for (const status of operation.statuses) usedStatuses.add(status)
		for (const tag of operation.body.tags as string[]) usedTags.add(tag)
		paths[openApiPath(route.path)] ??= {}
		paths[openApiPath(route.path)][method] = operation.body
	}

	return {
		openapi: '3.1.0',
		info: { title: options.title, version: options.version, description: options.description },
		servers: [serverEntry('127.0.0.1', '8877')],
		security: [{}, { bearerAuth: [] }, { tokenQuery: [] }],
		tags: [...usedTags].map((name) => ({
			name,
			description: options.tags[name] ?? `The ${name.toLowerCase()} endpoints`
		})),
		paths,
		components: {
			schemas: schemas.components,
			responses: failureComponents(usedStatuses, failure),
			securitySchemes: {
				bearerAuth: {
					type: 'http',
					scheme: 'bearer',
					description:
						'The access token (--token or SMKIT_TOKEN). Required when the server is bound beyond loopback, and on loopback when it was given one.'
				},
				tokenQuery: {
					type: 'apiKey',
					in: 'query',
					name: 'token',
					description: 'The access token as the `token` query parameter (for links a browser opens).'
				}
			}
		}
	}
}

function buildOperation(
	route: DocumentedRoute,
	method: string,
	schemas: DocumentSchemas,
	options: DocumentOptions
): { body: JsonSchema; statuses: number[] } {
	const hooks = route.hooks ?? {}
	const detail = hooks.detail ?? {}
	const spec = detail[OPERATION_KEY] as OperationSpec | undefined
	const parameters = [
		...parametersOf(hooks.params, 'path', schemas, route.path),
		...parametersOf(hooks.query, 'query', schemas)
	]
	const headers = headerParameters(route.path, parameters)
	// A documented body (titled, with examples) describes the same rules as the route's own schema.
	const bodySchema = spec?.body ?? hooks.body
	const hasBody = methodsWithBody.has(method) && bodySchema !== undefined
	const upstream = options.callsInstagram(route.path)
	const statuses = failureStatuses({
		validates: parameters.length > 0 || hasBody,
		hasBody,
		// A body that is not JSON is refused on these methods even where the route takes none.
		readsBody: methodsWithBody.has(method) || method === 'delete',
		upstream,
		declared: spec?.errors ?? []
	})
	const responses: Record<string, JsonSchema> = {
		200: spec ? successResponse(spec, schemas, upstream) : { description: 'Undocumented success response' }
	}
	for (const status of statuses) responses[status] = failureReference(status)

	const tag = spec?.tag ?? (detail.tags as string[] | undefined)?.[0] ?? 'Other'
	const summary = spec?.summary ?? (detail.summary as string | undefined) ?? ''
	return {
		statuses,
		body: {
			tags: [tag],
			summary,
			description: spec ? describe(spec, route.path, upstream) : summary,
			operationId: operationIdOf(method, route.path),
			...(parameters.length + headers.length > 0 ? { parameters: [...parameters, ...headers] } : {}),
			...(hasBody
				? {
						requestBody: {
							required: true,
							content: { 'application/json': { schema: schemas.convert(bodySchema) } }
						}
					}
				: {}),
			responses
		}
	}
}

/** The operation's description: its own text, then what paging and login mean for it. */
function describe(spec: OperationSpec, path: string, upstream: boolean): string {
	const parts = [spec.description ?? `${spec.summary}.`]
	if ('data' in spec.success && spec.success.list) {
		parts.push(
			'`data` holds the records; pass `next_cursor` back as `cursor` for the next page (it is null at the end).'
		)
	}
	if (upstream) {
		parts.push(
			path.startsWith('/api/public/') || spec.anonymous
				? 'Works without Instagram credentials (anonymous requests).'
				: 'Needs the Instagram session (401 `login_required` without credentials).'
		)
	}
	return parts.join(' ')
}

/** Path or query parameters from an object schema (Elysia's `params` or `query`). */
function parametersOf(
	schema: unknown,
	location: 'path' | 'query',
	schemas: DocumentSchemas,
	routePath?: string
): JsonSchema[] {
	const object = (schema ?? {}) as {
		properties?: Record<string, Record<string, unknown>>
		required?: string[]
	}
	const properties = object.properties ?? {}
	// A path parameter without a schema still exists (as a string).
	if (location === 'path' && routePath) {
		for (const match of routePath.matchAll(/:([A-Za-z0-9_]+)/g)) properties[match[1]] ??= { type: 'string' }
	}
	return Object.entries(properties).map(([name, property]) => {
		const converted = schemas.convert(property)
		const { description, ...rest } = converted
		return {
			name,
			in: location,
			required: location === 'path' || (object.required ?? []).includes(name),
			...(typeof description === 'string' ? { description } : {}),
			schema: rest
		}
	})
}

/**
 * The headers of a data response: its history id (docs/api-contract.md, "Saving"), which
 * `POST /api/save {history_id}` takes, and the session state when this answer ended the session.
 */
const dataHeaders: JsonSchema = {
	'X-Smkit-History-Id': {
		description:
			"This request's id in the history (GET /api/history): pass it as `history_id` to POST /api/save to save this result",
		required: true,
		schema: { type: 'integer', minimum: 1 }
	},
	'X-Smkit-Session': {
		description:
			'Present when the session has ended or awaits a challenge as of this answer (Instagram may still answer some calls as to an anonymous visitor): reconnect',
		required: false,
		schema: { type: 'string', enum: ['expired', 'challenge'] }
	}
}

/** The 200 response of a documented operation; `upstream`: a data route, whose answers carry a history id. */
function successResponse(spec: OperationSpec, schemas: DocumentSchemas, upstream: boolean): JsonSchema {
	const success = spec.success
	if (!('data' in success)) {
		const media: JsonSchema = { schema: schemas.convert(success.schema) }
		if (success.eventSchema) media['x-event-schema'] = schemas.convert(success.eventSchema)
		const content: JsonSchema = { [success.mediaType]: media }
		for (const other of success.alternatives ?? [])
			content[other.mediaType] = { schema: schemas.convert(other.schema) }
		return { description: success.description, content }
	}
	const data = success.list ? t.Array(success.data) : success.data
	const { next_cursor: _cursor, ...single } = SuccessEnvelopeOf(data).properties
	const envelope = t.Object(
		success.list
			? {
					...single,
					next_cursor: t.Union([t.String(), t.Null()], {
						description: 'Pass back as `cursor` for the next page; null at the end'
					})
				}
			: single
	)
	const itemName = schemas.nameOf(success.data as unknown as Record<string, unknown>)
	const schema = itemName
		? schemas.reference(`${itemName}${success.list ? 'List' : ''}Envelope`, envelope)
		: schemas.convert(envelope)
	return {
		description: success.list ? 'A page of records in a success envelope' : 'A success envelope',
		...(upstream ? { headers: dataHeaders } : {}),
		content: { 'application/json': { schema } }
	}
}
