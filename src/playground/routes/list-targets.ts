/**
 * A list as a target: `POST /api/lists/{name}/watches` watches every member,
 * `POST /api/lists/{name}/jobs` starts one collection per member, and
 * `GET /api/lists/{name}/compare` compares the members.
 */
import { Elysia, t } from 'elysia'
import { Analytics, COMPARE_MAX, COMPARE_MIN } from '../../client/tools/analytics'
import { Comparison } from '../../client/types'
import { TARGET_HINTS } from '../../jobs/kinds'
import { JOB_KINDS, type JobKind, publicJob } from '../../jobs/types'
import { WatchExistsError } from '../../watch/store'
import { parseEvery, type Watch } from '../../watch/types'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { INSTAGRAM_ERRORS } from '../openapi/failures'
import { PostsQuery } from './analytics'
import { documented } from './docs'
import { JobSchema } from './job-schemas'
import { plural } from './list'
import { NameParams, requireList, unknownList } from './lists'
import { DecimalInteger, objectBody, singleQuery } from './params'
import { WatchSchema } from './watch-schemas'

const limitError = "Invalid body field 'limit': expected a whole number of at least 1 and at most 15 digits"

/**
 * Comparing a list's members calls Instagram for each, so it meets Instagram's failures as the
 * data routes do (docs/api-contract.md, "Errors"), besides an unknown list.
 */
const compareErrors = [...INSTAGRAM_ERRORS]

/** The routes that take a list as their target. */
export const listTargetRoutes = (context: PlaygroundContext) => {
	const analytics = new Analytics(context.ig)
	return new Elysia({ prefix: '/api' })
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
}
