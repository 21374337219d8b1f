/**
 * A list as a target: `POST /api/lists/{name}/watches` watches every member,
 * `POST /api/lists/{name}/jobs` starts one collection per member, and
 * `GET /api/lists/{name}/compare` compares the members.
 */
import { Elysia, t } from 'elysia'
import { IgError } from '../../client/errors'
import { Analytics, COMPARE_MAX, COMPARE_MIN } from '../../client/tools/analytics'
import { Comparison } from '../../client/types'
import { TARGET_HINTS } from '../../jobs/kinds'
import { JOB_KINDS, type JobKind, publicJob } from '../../jobs/types'
import { checkWatchTarget } from '../../watch/check'
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
import { shownWatch } from './watches'

/** Members looked up at once when a list is watched. */
const LOOKUPS_AT_ONCE = 4

/** The look-ups' warnings after the counts: the first three, then how many more. */
function said(warnings: readonly string[]): string {
	if (warnings.length === 0) return ''
	const more = warnings.length > 3 ? `. And ${warnings.length - 3} more warnings` : ''
	return `. ${warnings.slice(0, 3).join('. ')}${more}`
}

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
			async ({ params: { name }, body }) => {
				const list = requireList(context, name)
				let every_seconds: number
				try {
					every_seconds = parseEvery(body.every ?? '1d')
				} catch (error) {
					throw new HttpError('bad_request', `Invalid body field 'every': ${(error as Error).message}`)
				}
				const store = context.watches.watches
				const specs = list.usernames.map((username) => ({
					kind: 'account' as const,
					target: username,
					every_seconds,
					followers: body.followers ?? false
				}))
				// Each member not watched yet is looked up first, as one watch is: a member Instagram does
				// not know would fail every run. A few at a time; the client's rate limits pace them, and a
				// look waits for its turn however long (no deadline of its own): one given up after the
				// 15 s of a single watch's check would add an unknown member unchecked.
				const looks = new Map<string, PromiseSettledResult<string | undefined>>()
				const fresh = body.check === false ? [] : specs.filter((spec) => !store.find(spec.kind, spec.target))
				for (let start = 0; start < fresh.length; start += LOOKUPS_AT_ONCE) {
					const batch = fresh.slice(start, start + LOOKUPS_AT_ONCE)
					const settled = await Promise.allSettled(
						batch.map((spec) => checkWatchTarget(context.ig, spec, "watch it with 'check': false", null))
					)
					for (const [index, spec] of batch.entries()) looks.set(spec.target, settled[index])
				}
				const created: Watch[] = []
				const existing: Watch[] = []
				const notFound: string[] = []
				const warnings: string[] = []
				for (const spec of specs) {
					try {
						const look = looks.get(spec.target)
						if (look?.status === 'rejected') throw look.reason
						if (look?.value) warnings.push(look.value)
						created.push(store.create(spec))
					} catch (error) {
						if (error instanceof IgError && error.kind === 'not_found') notFound.push(spec.target)
						else if (error instanceof WatchExistsError) existing.push(error.existing)
						else throw error
					}
				}
				const shown = (watch: Watch) => shownWatch(context.watches, watch)
				const unknown = notFound.length
					? `, ${notFound.length} not on Instagram (${notFound.map((user) => `@${user}`).join(', ')}), not watched`
					: ''
				return ok(
					{ created: created.map(shown), existing: existing.map(shown), not_found: notFound },
					`List ${name}: ${plural(created.length, 'new watch', 'new watches')}, ${existing.length} watched already${unknown}${said(warnings)}`
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
						),
						check: t.Optional(
							t.Boolean({
								default: true,
								error: "Invalid body field 'check': expected true or false",
								description:
									'Look each new member up first: one Instagram does not know is not watched (listed in `not_found`)'
							})
						)
					})
				),
				...documented(
					'Lists',
					'Watch every account of a list',
					t.Object({
						created: t.Array(WatchSchema),
						existing: t.Array(WatchSchema),
						not_found: t.Array(t.String(), {
							description: 'Members Instagram does not know: not watched (a typo would fail every run)'
						})
					}),
					{
						...unknownList,
						description:
							'Creates a watch of every member not watched yet (`existing` lists the others), each looked up first unless `check` is false: members Instagram does not know are listed in `not_found` and not watched; a look-up that fails otherwise adds the watch with a warning in the message. The look-ups wait for the rate limits (about 20 a minute at speed normal), never giving up on a wait, so a long list takes as long to answer. The body is a JSON object; `{}` takes the defaults (every 1d, no follower lists, checked).'
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
					anonymous: true,
					description:
						'The figures of the accounts of a list side by side, as GET /api/compare gives them. Without Instagram credentials the public profiles and posts are used.',
					errors: compareErrors
				})
			}
		)
}
