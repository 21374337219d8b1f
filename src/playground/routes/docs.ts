/**
 * What a route tells the OpenAPI document about itself, under `detail` (documentation only: an
 * Elysia `response` schema would also validate, and may strip, every outgoing body at run time).
 * `src/playground/openapi/document.ts` turns it into the operation: the success response from
 * here; parameters and the request body from the route's own `params`, `query` and `body` schemas;
 * the failure responses inferred from what the route can meet (validation, bodies, Instagram) plus
 * `errors`. Schemas with a `title` (and the client's models) become named components.
 */
import type { TSchema } from 'elysia'
import type { ErrorCode } from '../../server/envelope'

/** The `detail` key holding an `OperationSpec`. */
export const OPERATION_KEY = 'x-smkit-operation'

/** A success that is not an envelope: a download or an event stream. */
export interface ContentSuccess {
	description: string
	mediaType: string
	schema: TSchema
	/** For `text/event-stream`: the schema of each event's JSON `data`. */
	eventSchema?: TSchema
	/** Other media types the same success may come in (a download in another format). */
	alternatives?: { mediaType: string; schema: TSchema }[]
}

/** How one operation is documented. */
export interface OperationSpec {
	tag: string
	summary: string
	/** Longer text; the summary when omitted. Facts about paging and login are appended. */
	description?: string
	/** The 200 response: an envelope around `data` (a list when `list`), or other content. */
	success: { data: TSchema; list: boolean } | ContentSuccess
	/** Failure codes beyond those inferred (validation, body, Instagram, access). */
	errors?: ErrorCode[]
	/** The request body, for routes that check their body themselves (no `body` schema). */
	body?: TSchema
	/** It calls Instagram but also works without credentials (anonymously), like `/api/public/*`. */
	anonymous?: boolean
}

/** Options of `documented` and `documentedContent`. */
export interface DocumentedOptions {
	/** Lists: `data` is the array of records and `next_cursor` resumes it. */
	paginated?: boolean
	description?: string
	errors?: ErrorCode[]
	body?: TSchema
	anonymous?: boolean
}

type Documented = { detail: { tags: string[]; summary: string; [OPERATION_KEY]: OperationSpec } }

function detailOf(spec: OperationSpec): Documented {
	return { detail: { tags: [spec.tag], summary: spec.summary, [OPERATION_KEY]: spec } }
}

/**
 * Route options documenting a route that answers a success envelope around `data`. For a list,
 * pass the array schema and `paginated: true`.
 */
export function documented(
	tag: string,
	summary: string,
	data: TSchema,
	options: DocumentedOptions = {}
): Documented {
	const list = options.paginated === true
	const { paginated: _paginated, ...rest } = options
	return detailOf({ tag, summary, ...rest, success: { data: list ? (data.items ?? data) : data, list } })
}

/** Route options documenting a route whose success is not an envelope (CSV, event streams). */
export function documentedContent(
	tag: string,
	summary: string,
	success: ContentSuccess,
	options: Omit<DocumentedOptions, 'paginated'> = {}
): Documented {
	return detailOf({ tag, summary, ...options, success })
}
