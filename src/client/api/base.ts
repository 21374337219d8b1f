/**
 * What every API group shares: the base class holding the client context, argument checks, and
 * request helpers for REST paths and both GraphQL flavours (legacy query_hash GET, modern doc_id POST).
 */
import { IgApiError, IgArgumentError, IgError } from '../errors'
import type { AnonymousProfile } from '../headers'
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
}

/** Sends one request to `template` with its placeholders filled; resolves to the parsed body. */
export async function call(client: ClientContext, template: string, spec: CallSpec): Promise<Raw> {
	const path = template.replace(/\{(\w+)\}/g, (_match, name: string) =>
		encodeURIComponent(spec.params?.[name] ?? '')
	)
	const request: RequestSpec = { ...spec, method: spec.method ?? 'GET', path, template }
	const data = await client.transport.send(request)
	return spec.expect === 'text' ? { text: data } : asObject(data)
}

/** Query-hash GraphQL query (`GET /graphql/query/`); resolves to `data`. */
export async function queryHash(
	client: ClientContext,
	hash: string,
	variables: Record<string, unknown>,
	spec: Omit<CallSpec, 'query' | 'method'>
): Promise<Raw> {
	const body = await call(client, '/graphql/query/', {
		...spec,
		query: { query_hash: hash, variables: JSON.stringify(variables) }
	})
	return graphqlData(body, `GET /graphql/query/ (query_hash ${hash})`)
}

/**
 * doc_id GraphQL query: `POST /graphql/query` when logged in, `POST /api/graphql` anonymously.
 * It only reads, so it may be retried like a GET.
 */
export async function docId(
	client: ClientContext,
	id: string,
	friendlyName: string,
	variables: Record<string, unknown>,
	spec: Omit<CallSpec, 'form' | 'method'>
): Promise<Raw> {
	const template = spec.anonymous ? '/api/graphql' : '/graphql/query'
	const body = await call(client, template, {
		...spec,
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
	return graphqlData(body, `POST ${template} (${friendlyName})`)
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

/** Checks a non-empty text argument (query, comment, message) and returns it trimmed. */
export function requireText(name: string, value: unknown, maxLength = 2200): string {
	const text = typeof value === 'string' ? value.trim() : ''
	if (!text) throw new IgArgumentError(`${name} must be a non-empty string`)
	if (text.length > maxLength) throw new IgArgumentError(`${name} is longer than ${maxLength} characters`)
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
