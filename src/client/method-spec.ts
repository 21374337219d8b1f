/**
 * The shape of a method registry entry (registry.ts): its parameters, what it resolves to as the
 * client's TypeBox schemas, and the helpers that build an entry from those schemas.
 */
import { Kind, type TSchema } from '@sinclair/typebox'
import type { ApiGroupName } from './client'
import * as models from './types'

/** One parameter of a client method. */
export interface MethodParam {
	name: string
	/** TypeScript-like type, e.g. `string`, `{ count?: number, cursor?: string }`. */
	type: string
	description: string
	optional?: boolean
}

/** One public client method. */
export interface MethodSpec {
	/** `group.name`, e.g. `users.getByUsername`. */
	path: string
	group: ApiGroupName
	name: string
	params: MethodParam[]
	/** What it resolves to, for people and the prompt: `User`, `Page<UserShort>` (derived from `result`). */
	returns: string
	/** What it resolves to, as the client's TypeBox schemas. */
	result: MethodResult
	/** One line for humans and the model. */
	description: string
	/** `write` changes the account (like, comment, follow, message): needs permission. */
	access: 'read' | 'write'
}

/**
 * What a method resolves to: one model, or a page (`{ items, next_cursor }`) of a model, with the
 * schemas of `types.ts` and their names there.
 */
export interface MethodResult {
	/** `one`: a model; `page`: a page of items. */
	shape: 'one' | 'page'
	/** Name of the model (of the items, for a page) among the client's schemas, e.g. `UserShort`. */
	model: string
	/** Its schema. */
	schema: TSchema
	/** The whole page's schema when a page carries more than `items` and `next_cursor`. */
	pageSchema?: TSchema
}

/** The client's schemas by object, to name the one an entry refers to. */
const schemaNames = new Map<unknown, string>(
	Object.entries(models)
		.filter(([, value]) => value !== null && typeof value === 'object' && Kind in value)
		.map(([name, value]) => [value, name])
)

function nameOf(schema: TSchema): string {
	const name = schemaNames.get(schema)
	if (!name) throw new Error('A method result must be a schema exported by src/client/types.ts')
	return name
}

/** A method resolving to one `schema`. */
export function one(schema: TSchema): MethodResult {
	return { shape: 'one', model: nameOf(schema), schema }
}

/** A method resolving to a page of `item`; `pageSchema` when the page has fields of its own. */
export function page(item: TSchema, pageSchema?: TSchema): MethodResult {
	return { shape: 'page', model: nameOf(item), schema: item, pageSchema }
}

/** `User`, `Page<UserShort>`, `Page<Comment> & { total_count, has_more }`. */
function label(result: MethodResult): string {
	if (result.shape === 'one') return result.model
	const extra = Object.keys(result.pageSchema?.properties ?? {}).filter(
		(field) => field !== 'items' && field !== 'next_cursor'
	)
	return `Page<${result.model}>${extra.length ? ` & { ${extra.join(', ')} }` : ''}`
}

/** A registry entry: `group.name`, its parameters, result, description and access kind. */
export function entry(
	group: ApiGroupName,
	name: string,
	params: MethodParam[],
	result: MethodResult,
	description: string,
	access: 'read' | 'write' = 'read'
): MethodSpec {
	return {
		path: `${group}.${name}`,
		group,
		name,
		params,
		returns: label(result),
		result,
		description,
		access
	}
}
