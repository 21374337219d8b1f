/**
 * `/api/lists`: named lists of accounts (create, read, change, delete). A list as a target (its
 * watches, jobs and comparison) is in list-targets.ts.
 */
import { Elysia, t } from 'elysia'
import { requireUsername } from '../../client/api/base'
import { IgArgumentError } from '../../client/errors'
import { Text } from '../../server/text-length'
import { type AccountList, LIST_NAME_PATTERN } from '../../watch/lists'
import type { PlaygroundContext } from '../app'
import { type ErrorCode, HttpError, ok } from '../envelope'
import { documented } from './docs'
import { plural } from './list'
import { objectBody } from './params'

/** The most members a list takes. */
export const MAX_LIST_MEMBERS = 500

const ListSchema = t.Object({
	name: t.String(),
	usernames: t.Array(t.String()),
	created_at: t.String({ format: 'date-time' })
})

/**
 * A list name in a body as the server takes it: `LIST_NAME_PATTERN` once surrounding white space
 * is trimmed (the name is stored trimmed): 1-50 characters inside, so the document states the limit.
 * The part inside ends with no space, so the pattern never backtracks over a run of spaces.
 */
const BODY_NAME_PATTERN = '^\\s*[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,48}[A-Za-z0-9._-])?\\s*$'

export const NameParams = t.Object({
	name: t.String({
		pattern: LIST_NAME_PATTERN,
		error: "Invalid path parameter 'name': a list name is letters, digits, space, . _ or - (1-50 characters)",
		description: 'The name of the list',
		examples: ['competitors']
	})
})

const Usernames = t.Array(
	Text({ maxLength: 64, error: "Invalid body field 'usernames': expected usernames" }),
	{
		maxItems: MAX_LIST_MEMBERS,
		error: `Invalid body field 'usernames': expected up to ${MAX_LIST_MEMBERS} usernames`,
		examples: [['luna.explorer', 'mega.travel', 'xss.payload']]
	}
)

/** Usernames checked and normalised; a bad one is a 400 naming it. */
function cleanUsernames(values: readonly string[]): string[] {
	const names: string[] = []
	for (const value of values) {
		try {
			names.push(requireUsername(value))
		} catch (error) {
			if (error instanceof IgArgumentError)
				throw new HttpError('bad_request', `Invalid body field 'usernames': ${error.message}`)
			throw error
		}
	}
	return [...new Set(names)]
}

/** The list, or a 404. */
export function requireList(context: PlaygroundContext, name: string): AccountList {
	const list = context.lists.get(name)
	if (!list) throw new HttpError('not_found', `List not found: ${name}`)
	return list
}

/** A list named in the path that does not exist is a 404. */
export const unknownList = { errors: ['not_found'] as ErrorCode[] }

/** The lists route group. */
export const listsRoutes = (context: PlaygroundContext) =>
	new Elysia({ prefix: '/api' })
		.get(
			'/lists',
			() => {
				const lists = context.lists.list()
				return ok(lists, `Lists: ${lists.length}`)
			},
			documented('Lists', 'Lists of accounts, by name', t.Array(ListSchema))
		)
		.post(
			'/lists',
			({ body }) => {
				const name = body.name.trim()
				// The body pattern admits exactly these names; the store's own rule stays the last word.
				if (!new RegExp(LIST_NAME_PATTERN).test(name))
					throw new HttpError(
						'bad_request',
						"Invalid body field 'name': letters, digits, space, . _ or - (1-50 characters)"
					)
				if (!context.lists.create(name, cleanUsernames(body.usernames ?? [])))
					throw new HttpError('bad_request', `A list named '${name}' exists already`)
				const list = requireList(context, name)
				return ok(list, `List ${name}: ${plural(list.usernames.length, 'account')}`)
			},
			{
				...objectBody(
					t.Object({
						name: Text({
							minLength: 1,
							// 50 once trimmed (checked above): spaces around a name of 50 were refused.
							maxLength: 200,
							pattern: BODY_NAME_PATTERN,
							error: "Invalid body field 'name': letters, digits, space, . _ or - (1-50 characters)",
							description:
								'The name of the list: letters, digits, space, . _ or -, starting with a letter or digit (1-50 characters; surrounding spaces are dropped)',
							examples: ['competitors']
						}),
						usernames: t.Optional(Usernames)
					})
				),
				...documented('Lists', 'Create a list', ListSchema)
			}
		)
		.get(
			'/lists/:name',
			({ params: { name } }) => {
				const list = requireList(context, name)
				return ok(list, `List ${name}: ${plural(list.usernames.length, 'account')}`)
			},
			{ params: NameParams, ...documented('Lists', 'One list', ListSchema, unknownList) }
		)
		.post(
			'/lists/:name/members',
			({ params: { name }, body }) => {
				const before = requireList(context, name)
				// Members already in the list are not added again, so they do not count against its size.
				const names = [...new Set(cleanUsernames(body.usernames))].filter(
					(username) => !before.usernames.includes(username)
				)
				if (before.usernames.length + names.length > MAX_LIST_MEMBERS)
					throw new HttpError('bad_request', `A list holds at most ${MAX_LIST_MEMBERS} accounts`)
				const added = context.lists.add(name, names)
				return ok(requireList(context, name), `Added ${added} to ${name}`)
			},
			{
				params: NameParams,
				...objectBody(t.Object({ usernames: Usernames })),
				...documented('Lists', 'Add accounts to a list', ListSchema, unknownList)
			}
		)
		.delete(
			'/lists/:name/members/:username',
			({ params: { name, username: typed } }) => {
				requireList(context, name)
				// '@user' as adding takes it.
				const username = typed.replace(/^@/, '')
				if (!context.lists.removeMember(name, username.toLowerCase()))
					throw new HttpError('not_found', `@${username} is not in the list ${name}`)
				return ok(requireList(context, name), `Removed @${username} from ${name}`)
			},
			{
				params: t.Object({
					...NameParams.properties,
					username: t.String({
						pattern: '^@?[A-Za-z0-9._]{1,30}$',
						error: "Invalid path parameter 'username': use letters, digits, . or _ (1-30 characters)",
						description: 'The account to take out of the list',
						examples: ['luna.explorer']
					})
				}),
				...documented('Lists', 'Remove an account from a list', ListSchema, unknownList)
			}
		)
		.delete(
			'/lists/:name',
			({ params: { name } }) => {
				requireList(context, name)
				context.lists.delete(name)
				return ok({ deleted: name }, `Deleted list ${name}`)
			},
			{
				params: NameParams,
				...documented('Lists', 'Delete a list', t.Object({ deleted: t.String() }), unknownList)
			}
		)
