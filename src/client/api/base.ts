/**
 * What every API group shares: the base class holding the client context, argument checks, and
 * request helpers for REST paths and both GraphQL flavours (legacy query_hash GET, modern doc_id POST).
 * A list endpoint names where its answer holds the list (`list`), a single-object endpoint where it
 * holds the object (`holds`): an answer without it is malformed (`malformedAnswer`).
 */
import { IgApiError, IgArgumentError, IgError } from '../errors'
import type { AnonymousProfile } from '../headers'
import { findConnection } from '../normalize/connection'
import { asObject, type Raw } from '../normalize/values'
import type { RequestSpec, Transport } from '../request'

/** What a group needs from the client. */
export interface ClientContext {
	readonly transport: Transport
}

/** Trailing options of single-object methods. */
export interface RequestOptions {
	/** Aborts the call. */
	signal?: AbortSignal
}

/** Base of the resource classes (`ig.users`, `ig.media`, ...). Helpers are private so the registry sees only API methods. */
export abstract class ApiGroup {
	constructor(protected readonly client: ClientContext) {}
}

type Scalar = string | number | boolean | null | undefined

/** A GET or POST against an Instagram path template such as `/api/v1/media/{pk}/info/`. */
export interface CallSpec {
	method?: 'GET' | 'POST'
	/** Values for the template's `{placeholders}` (URL-encoded when substituted). */
	params?: Record<string, string>
	query?: Record<string, Scalar>
	form?: Record<string, Scalar>
	category: string
	expect?: 'json' | 'text'
	idempotent?: boolean
	anonymous?: AnonymousProfile
	signal?: AbortSignal
	/** A list endpoint's list in its answer (see `hasList`), e.g. `users`, `inbox.threads`. */
	list?: string
	/** A single-object endpoint's object in its answer (see `holdsObject`), e.g. `user`, `data.user?`. */
	holds?: string
}

/**
 * Sends one request to `template` with its placeholders filled; resolves to the parsed body, which
 * holds `spec.list` and `spec.holds` when given (else the answer is malformed: `requireShape`).
 */
export async function call(client: ClientContext, template: string, spec: CallSpec): Promise<Raw> {
	const path = template.replace(/\{(\w+)\}/g, (_match, name: string) =>
		encodeURIComponent(spec.params?.[name] ?? '')
	)
	const method = spec.method ?? 'GET'
	const request: RequestSpec = { ...spec, method, path, template }
	const data = await client.transport.send(request)
	if (spec.expect === 'text') return { text: data }
	const body = asObject(data)
	requireShape(body, spec, `${method} ${path}`)
	return body
}

/**
 * Whether one of `paths` (alternatives split by `|`, each dotted) leads in `body` to a value `fits`
 * accepts. A key must be present; a segment ending in `?` may be null, which is accepted as it is.
 */
function reaches(body: Raw, paths: string, fits: (value: unknown) => boolean): boolean {
	return paths.split('|').some((path) => {
		let value: unknown = body
		for (const segment of path.split('.')) {
			const nullable = segment.endsWith('?')
			const key = nullable ? segment.slice(0, -1) : segment
			const object = asObject(value)
			if (!(key in object)) return false
			value = object[key]
			if (nullable && value === null) return true
		}
		return fits(value)
	})
}

/**
 * Whether `body` holds the list `list` names (`reaches`): an array, or `true` (a flag saying there is
 * no list: `comments_disabled`). A null `?` segment is an empty list (`reel?.items`: no stories).
 */
export function hasList(body: Raw, list: string): boolean {
	return reaches(body, list, (value) => Array.isArray(value) || value === true)
}

/**
 * Whether `body` holds the object `holds` names (`reaches`), a JSON object. A null `?` segment is an
 * object that does not exist (`data.user?`: no such user), which the caller reports as not_found.
 */
export function holdsObject(body: Raw, holds: string): boolean {
	return reaches(body, holds, (value) => value !== null && typeof value === 'object' && !Array.isArray(value))
}

/**
 * A 200 without what the endpoint answers with (`{"status":"ok"}`, `null`, `""`), `missing`: the same
 * `upstream_error` as a body that is not JSON (a job asks again; the API answers 502), never an empty
 * page (it would end a walk), a not_found or a record of defaults. A `write` (a POST that is not a
 * read sent as POST) so answered may have been carried out: the message says to look first.
 */
export function malformedAnswer(endpoint: string, missing: string, write = false): IgApiError {
	const warning = write
		? ': the action may have been done, look before sending it again (a comment or message would be sent twice)'
		: ''
	return new IgApiError(
		'upstream_error',
		`Instagram: malformed answer, without ${missing} (HTTP 200 from ${endpoint})${warning}`,
		{ upstreamStatus: 200, body: '', endpoint }
	)
}

/** `malformedAnswer` of a list endpoint whose answer lacks `list`. */
export function malformedList(endpoint: string, list: string): IgApiError {
	return malformedAnswer(endpoint, `its list (${list.replaceAll('?', '')})`)
}

/** Throws `malformedList` unless `body` holds `list` (`hasList`). */
export function requireList(body: Raw, list: string, endpoint: string): void {
	if (!hasList(body, list)) throw malformedList(endpoint, list)
}

/** Throws `malformedAnswer` unless `body` holds `spec.list` (`hasList`) and `spec.holds` (`holdsObject`). */
function requireShape(
	body: Raw,
	spec: Pick<CallSpec, 'list' | 'holds' | 'method' | 'idempotent'>,
	endpoint: string
): void {
	if (spec.list) requireList(body, spec.list, endpoint)
	if (spec.holds && !holdsObject(body, spec.holds)) {
		const write = spec.method === 'POST' && spec.idempotent !== true
		throw malformedAnswer(endpoint, `its object (${spec.holds.replaceAll('?', '')})`, write)
	}
}

/**
 * The GraphQL connection `key` of `data` (`findConnection`), which holds the list as `edges`:
 * without them the answer is malformed (`malformedList`), not an empty page.
 */
export function listConnection(data: Raw, key: string, endpoint: string): Raw {
	const connection = findConnection(data, key)
	if (!connection || !Array.isArray(connection.edges)) throw malformedList(endpoint, `${key}.edges`)
	return connection
}

/** Query-hash GraphQL query (`GET /graphql/query/`); resolves to `data`. */
export async function queryHash(
	client: ClientContext,
	hash: string,
	variables: Record<string, unknown>,
	spec: Omit<CallSpec, 'query' | 'method'>
): Promise<Raw> {
	const { list, holds, ...rest } = spec
	const body = await call(client, '/graphql/query/', {
		...rest,
		query: { query_hash: hash, variables: JSON.stringify(variables) }
	})
	const endpoint = `GET /graphql/query/ (query_hash ${hash})`
	const data = graphqlData(body, endpoint)
	requireShape(data, { list, holds }, endpoint)
	return data
}

/**
 * doc_id GraphQL query: `POST /graphql/query` when logged in, `POST /api/graphql` anonymously.
 * It only reads, so it may be retried like a GET. `list` and `holds` are looked for in `data`.
 */
export async function docId(
	client: ClientContext,
	id: string,
	friendlyName: string,
	variables: Record<string, unknown>,
	spec: Omit<CallSpec, 'form' | 'method'>
): Promise<Raw> {
	const { list, holds, ...rest } = spec
	const template = spec.anonymous ? '/api/graphql' : '/graphql/query'
	const body = await call(client, template, {
		...rest,
		method: 'POST',
		idempotent: true,
		form: {
			variables: JSON.stringify(variables),
			doc_id: id,
			fb_api_caller_class: 'RelayModern',
			fb_api_req_friendly_name: friendlyName,
			server_timestamps: 'true'
		}
	})
	const endpoint = `POST ${template} (${friendlyName})`
	const data = graphqlData(body, endpoint)
	requireShape(data, { list, holds }, endpoint)
	return data
}

/** `data` of a GraphQL answer; a body with only `errors` becomes an upstream error. */
function graphqlData(body: Raw, endpoint: string): Raw {
	if (body.data && typeof body.data === 'object') return body.data as Raw
	const first = asObject(Array.isArray(body.errors) ? body.errors[0] : undefined)
	const message = typeof first.message === 'string' ? first.message.slice(0, 200) : 'no data'
	throw new IgApiError(
		'upstream_error',
		`Instagram GraphQL answered without data: ${message} (${endpoint})`,
		{
			upstreamStatus: 200,
			body,
			endpoint
		}
	)
}

/** A not-found error decided from an answer's content (e.g. `data.user` is null). */
export function notFound(what: string, endpoint: string): IgApiError {
	return new IgApiError('not_found', `${what} not found (${endpoint})`, { upstreamStatus: 200, endpoint })
}

/** Errors that another strategy or fallback cannot fix (the session or the client budget is the problem). */
export function isFatal(error: unknown): boolean {
	if (!(error instanceof IgError)) return true
	return (
		error.kind === 'login_required' ||
		error.kind === 'challenge_required' ||
		(error instanceof IgApiError && error.upstreamStatus === 0)
	)
}

/** The longest part of a refused value an error quotes. */
const QUOTED_CHARS = 60

/** Control, invisible and direction-changing characters: quoted as `\u202e`-style escapes. */
const UNSAFE_CHARACTERS =
	/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

/**
 * A refused value as its error quotes it: its first 60 characters (a 2 MB username went back whole,
 * into the model's context through MCP) and no character that hides or reorders text.
 */
export function quotedValue(value: unknown): string {
	const characters = [...String(value)]
	const shown =
		characters.length > QUOTED_CHARS
			? `${characters.slice(0, QUOTED_CHARS).join('')}... (${characters.length} characters)`
			: characters.join('')
	return shown.replace(
		UNSAFE_CHARACTERS,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
	)
}

/** Checks a user or media pk (digits, optionally `<pk>_<owner>` for media) and returns it as a string. */
export function requirePk(name: string, value: unknown): string {
	const text =
		typeof value === 'number' || typeof value === 'bigint'
			? String(value)
			: typeof value === 'string'
				? value.trim()
				: ''
	if (!/^\d{1,25}(_\d{1,25})?$/.test(text))
		throw new IgArgumentError(`${name} must be a numeric Instagram id, got "${quotedValue(value)}"`)
	return text
}

/** Checks and normalises a username: `@` stripped, lower-cased, Instagram's characters only. */
export function requireUsername(value: unknown): string {
	const username = typeof value === 'string' ? value.trim().replace(/^@/, '').toLowerCase() : ''
	if (!/^[a-z0-9._]{1,30}$/.test(username))
		throw new IgArgumentError(`Invalid username: "${quotedValue(value)}"`)
	return username
}

/**
 * Checks a non-empty text argument (query, comment, message) and returns it trimmed. `maxLength`
 * counts characters (code points: an emoji is one), as the servers' schemas do.
 */
export function requireText(name: string, value: unknown, maxLength = 2200): string {
	const text = typeof value === 'string' ? value.trim() : ''
	if (!text) throw new IgArgumentError(`${name} must be a non-empty string`)
	if (text.length > maxLength && [...text].length > maxLength)
		throw new IgArgumentError(`${name} is longer than ${maxLength} characters`)
	return text
}

/**
 * A hashtag as one key (jobs, watches): checked, lower case and composed (NFC). The capital dotted
 * I lowers to i plus a combining dot, which Instagram does not know: `#İstanbul` is `istanbul`.
 */
export function hashtagKey(value: unknown): string {
	const tag = requireTag(value)
	// Instagram links no hashtag of digits only (`#1`, `#2024`): watched or collected, it finds nothing.
	if (/^\p{N}+$/u.test(tag))
		throw new IgArgumentError(
			`Invalid hashtag: "${quotedValue(value)}" (a hashtag of digits only is not one Instagram links)`
		)
	return tag
		.toLowerCase()
		.replace(/i\u0307/g, 'i')
		.normalize('NFC')
}

/** Checks a hashtag name (`#` stripped). */
export function requireTag(value: unknown): string {
	const tag = typeof value === 'string' ? value.trim().replace(/^#/, '') : ''
	if (!/^[\p{L}\p{M}\p{N}_]{1,100}$/u.test(tag))
		throw new IgArgumentError(`Invalid hashtag: "${quotedValue(value)}"`)
	return tag
}
