/**
 * `/api/lists`: named lists of accounts, and a list as a target: `POST /api/lists/{name}/watches`
 * watches every member, `POST /api/lists/{name}/jobs` starts one collection per member, and
 * `GET /api/compare?list={name}` compares the members.
 */
import { Elysia, t } from 'elysia'
import { requireUsername } from '../../client/api/base'
import { IgArgumentError } from '../../client/errors'
import { Analytics, COMPARE_MAX, COMPARE_MIN } from '../../client/tools/analytics'
import { Comparison } from '../../client/types'
import { TARGET_HINTS } from '../../jobs/kinds'
import { JOB_KINDS, type JobKind, publicJob } from '../../jobs/types'
import { type AccountList, LIST_NAME_PATTERN } from '../../watch/lists'
import { WatchExistsError } from '../../watch/store'
import { parseEvery, type Watch } from '../../watch/types'
import type { PlaygroundContext } from '../app'
import { type ErrorCode, HttpError, ok } from '../envelope'
import { INSTAGRAM_ERRORS } from '../openapi/failures'
import { PostsQuery } from './analytics'
import { documented } from './docs'
import { JobSchema } from './job-schemas'
import { plural } from './list'
import { DecimalInteger, objectBody, singleQuery } from './params'
import { WatchSchema } from './watch-schemas'

/** The most members a list takes. */
export const MAX_LIST_MEMBERS = 500

const ListSchema = t.Object({
	name: t.String(),
	usernames: t.Array(t.String()),
	created_at: t.String({ format: 'date-time' })
})

/**
 * A list name in a body as the server takes it: `LIST_NAME_PATTERN` once surrounding white space
 * is trimmed (the name is stored trimmed). The part inside ends with no space, so the pattern never
 * backtracks over a run of spaces.
 */
const BODY_NAME_PATTERN = '^\\s*[A-Za-z0-9](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._-])?\\s*$'

const NameParams = t.Object({
	name: t.String({
		pattern: LIST_NAME_PATTERN,
		error: "Invalid path parameter 'name': a list name is letters, digits, space, . _ or - (1-50 characters)",
		description: 'The name of the list',
		examples: ['competitors']
	})
})

const Usernames = t.Array(
	t.String({ maxLength: 64, error: "Invalid body field 'usernames': expected usernames" }),
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
const unknownList = { errors: ['not_found'] as ErrorCode[] }

const limitError = "Invalid body field 'limit': expected a whole number of at least 1 and at most 15 digits"

/**
 * Comparing a list's members calls Instagram for each, so it meets Instagram's failures as the
 * data routes do (docs/api-contract.md, "Errors"), besides an unknown list.
 */
const compareErrors = [...INSTAGRAM_ERRORS]

/** The lists route group. */
export const listsRoutes = (context: PlaygroundContext) => {
	const analytics = new Analytics(context.ig)
	return new Elysia({ prefix: '/api' })
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
						name: t.String({
							minLength: 1,
							maxLength: 50,
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
		.post(
			'/lists/:name/watches',
			({ params: { name }, body }) => {
				const list = requireList(context, name)
				let every_seconds: number
				try {
					every_seconds = parseEvery(body.every ?? '1d')
				} catch (error) {
					throw new HttpError('bad_request', `Invalid body field 'every': ${(error as Error).message}`)
				}
				const created: Watch[] = []
				const existing: Watch[] = []
				for (const username of list.usernames) {
					try {
						created.push(
							context.watches.watches.create({
								kind: 'account',
								target: username,
								every_seconds,
								followers: body.followers ?? false
							})
						)
					} catch (error) {
						if (!(error instanceof WatchExistsError)) throw error
						existing.push(error.existing)
					}
				}
				const shown = (watch: Watch) => ({ ...watch, running: context.watches.isRunning(watch.id) })
				return ok(
					{ created: created.map(shown), existing: existing.map(shown) },
					`List ${name}: ${plural(created.length, 'new watch', 'new watches')}, ${existing.length} watched already`
				)
			},
			{
				params: NameParams,
				...objectBody(
					t.Object({
						every: t.Optional(
							t.String({
								maxLength: 16,
								default: '1d',
								error: "Invalid body field 'every': expected 1h to 7d",
								description: 'Time between runs: 1h to 7d (e.g. 6h, 1d)'
							})
						),
						followers: t.Optional(
							t.Boolean({
								default: false,
								error: "Invalid body field 'followers': expected true or false",
								description: 'Store the complete follower list with each snapshot (needed for diffs)'
							})
						)
					})
				),
				...documented(
					'Lists',
					'Watch every account of a list',
					t.Object({ created: t.Array(WatchSchema), existing: t.Array(WatchSchema) }),
					{
						...unknownList,
						description:
							'Creates a watch of every member not watched yet (`existing` lists the others). The body is a JSON object; `{}` takes the defaults (every 1d, no follower lists).'
					}
				)
			}
		)
		.post(
			'/lists/:name/jobs',
			({ params: { name }, body }) => {
				const list = requireList(context, name)
				const kind = body.kind as JobKind
				if (TARGET_HINTS[kind] !== 'a username')
					throw new HttpError(
						'bad_request',
						`Invalid body field 'kind': a list's members are usernames; ${kind} needs another target`
					)
				const jobs = list.usernames.map((username) =>
					publicJob(context.jobs.start({ kind, target: username, limit: body.limit ?? null }))
				)
				return ok(jobs, `List ${name}: ${plural(jobs.length, `${kind} job`)} started`)
			},
			{
				params: NameParams,
				...objectBody(
					t.Object({
						kind: t.Union(
							JOB_KINDS.map((kind) => t.Literal(kind)),
							{ error: `Invalid body field 'kind': expected one of ${JOB_KINDS.join(', ')}` }
						),
						limit: t.Optional(
							t.Union([DecimalInteger({ minimum: 1, error: limitError }), t.Null()], { error: limitError })
						)
					})
				),
				...documented('Lists', 'Start one job per account of a list', t.Array(JobSchema), unknownList)
			}
		)
		.get(
			'/lists/:name/compare',
			async ({ params: { name }, query }) => {
				const list = requireList(context, name)
				if (list.usernames.length < COMPARE_MIN || list.usernames.length > COMPARE_MAX)
					throw new HttpError(
						'bad_request',
						`List ${name} has ${plural(list.usernames.length, 'account')}; compare takes ${COMPARE_MIN} to ${COMPARE_MAX}`
					)
				const comparison = await analytics.compare(list.usernames, { posts: query.posts })
				return ok(
					comparison,
					`Compared the list ${name}: ${list.usernames.map((user) => `@${user}`).join(', ')}`
				)
			},
			{
				params: NameParams,
				...singleQuery(t.Object({ posts: PostsQuery })),
				...documented('Lists', 'Compare the accounts of a list (2-5) on the same figures', Comparison, {
					errors: compareErrors
				})
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
}
