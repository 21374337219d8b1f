/**
 * `/api/watches`: watched accounts and hashtags (src/watch/). Create, list and delete watches, run
 * one now, read its snapshots, and diff two snapshots: followers gained and lost (full user records,
 * from the stored lists) and the change of every count. The playground's scheduler runs due watches.
 */
import { Elysia, t } from 'elysia'
import { hashtagKey, requireUsername } from '../../client/api/base'
import { IgArgumentError } from '../../client/errors'
import { type ErrorCode, httpStatusOf } from '../../server/envelope'
import { checkWatchTarget } from '../../watch/check'
import { WatchRunError } from '../../watch/run'
import type { WatchScheduler } from '../../watch/scheduler'
import { WatchExistsError } from '../../watch/store'
import { parseEvery, type Watch } from '../../watch/types'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { INSTAGRAM_ERRORS } from '../openapi/failures'
import { documented } from './docs'
import { objectBody, singleQuery } from './params'
import { CreateBody, DiffSchema, SnapshotSchema, snapshotId, WatchParams, WatchSchema } from './watch-schemas'

/** The watch with whether it runs now, or waits for its turn. */
export const shownWatch = (scheduler: WatchScheduler, watch: Watch) => ({
	...watch,
	running: scheduler.isRunning(watch.id),
	queued: scheduler.isQueued(watch.id)
})

const label = (watch: Watch) => (watch.kind === 'hashtag' ? `#${watch.target}` : `@${watch.target}`)

function requireWatch(scheduler: WatchScheduler, id: number): Watch {
	const watch = scheduler.watches.get(id)
	if (!watch) throw new HttpError('not_found', `Watch not found: ${id}`)
	return watch
}

/** Checks a value with a client validator; its message becomes a 400 naming the field. */
function field(name: string, check: () => string): string {
	try {
		return check()
	} catch (error) {
		if (error instanceof IgArgumentError || error instanceof RangeError)
			throw new HttpError('bad_request', `Invalid body field '${name}': ${error.message}`)
		throw error
	}
}

/** The watches route group. */
export const watchesRoutes = ({ watches: scheduler, ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api' })
		.post(
			'/watches',
			async ({ body }) => {
				if ((body.username === undefined) === (body.hashtag === undefined))
					throw new HttpError('bad_request', "Give exactly one of the body fields 'username' and 'hashtag'")
				if (body.hashtag !== undefined && body.followers === true)
					throw new HttpError(
						'bad_request',
						"'followers' is for accounts: a hashtag watch stores its media count and top 9 posts"
					)
				const every = body.every ?? '1d'
				const every_seconds = Number(field('every', () => String(parseEvery(every))))
				const spec =
					body.username !== undefined
						? {
								kind: 'account' as const,
								target: field('username', () => requireUsername(body.username as string).toLowerCase()),
								every_seconds,
								followers: body.followers ?? false
							}
						: {
								kind: 'hashtag' as const,
								target: field('hashtag', () => hashtagKey(body.hashtag as string)),
								every_seconds,
								followers: false
							}
				try {
					// Already watched: said before Instagram is asked anything.
					scheduler.watches.ensureNew(spec)
					const warning =
						body.check === false ? undefined : await checkWatchTarget(ig, spec, "add it with 'check': false")
					const watch = scheduler.watches.create(spec)
					const message = `Watching ${label(watch)} every ${watch.every}`
					return ok(shownWatch(scheduler, watch), warning ? `${message}. ${warning}` : message)
				} catch (error) {
					if (error instanceof WatchExistsError)
						throw new HttpError('bad_request', error.messageFor(scheduler.watches.demo))
					throw error
				}
			},
			{
				...objectBody(CreateBody),
				...documented('Watches', 'Watch an account or a hashtag', WatchSchema, { errors: ['not_found'] })
			}
		)
		.get(
			'/watches',
			() => {
				const watches = scheduler.watches.list()
				return ok(
					watches.map((watch) => shownWatch(scheduler, watch)),
					`Watches: ${watches.length}`
				)
			},
			documented('Watches', 'Watches, oldest first', t.Array(WatchSchema))
		)
		.get(
			'/watches/:id',
			({ params: { id } }) => {
				const watch = requireWatch(scheduler, id)
				return ok(shownWatch(scheduler, watch), `Watch ${id}: ${label(watch)}`)
			},
			{ params: WatchParams, ...documented('Watches', 'One watch', WatchSchema, { errors: ['not_found'] }) }
		)
		.delete(
			'/watches/:id',
			({ params: { id } }) => {
				requireWatch(scheduler, id)
				scheduler.watches.delete(id)
				return ok({ deleted: id }, `Deleted watch ${id} and its snapshots`)
			},
			{
				params: WatchParams,
				...documented('Watches', 'Delete a watch and its snapshots', t.Object({ deleted: t.Integer() }), {
					errors: ['not_found']
				})
			}
		)
		.post(
			'/watches/:id/run',
			async ({ params: { id } }) => {
				const watch = requireWatch(scheduler, id)
				const otherWorld = scheduler.watches.otherWorld(watch)
				if (otherWorld) throw new HttpError('bad_request', otherWorld)
				try {
					const snapshot = await scheduler.run(id)
					return ok(snapshot, `Snapshot ${snapshot.id} of ${label(watch)}`)
				} catch (error) {
					if (!(error instanceof WatchRunError)) throw error
					const code = (error.code && error.code in httpStatusOf ? error.code : 'upstream_error') as ErrorCode
					throw new HttpError(code, `Watch ${id} (${label(watch)}) failed: ${error.message}`)
				}
			},
			{
				params: WatchParams,
				...documented('Watches', 'Run a watch now: store a snapshot', SnapshotSchema, {
					description:
						'Fetches the account or hashtag now and stores a snapshot; a failure of Instagram answers its code. A watch of the other Instagram (demo or real) than the playground serves is refused (400).',
					errors: ['bad_request', ...INSTAGRAM_ERRORS]
				})
			}
		)
		.get(
			'/watches/:id/snapshots',
			({ params: { id } }) => {
				const watch = requireWatch(scheduler, id)
				const snapshots = scheduler.watches.snapshots(id)
				return ok(snapshots, `Snapshots of ${label(watch)}: ${snapshots.length}`)
			},
			{
				params: WatchParams,
				...documented('Watches', "A watch's snapshots, oldest first", t.Array(SnapshotSchema), {
					errors: ['not_found']
				})
			}
		)
		.get(
			'/watches/:id/diff',
			({ params: { id }, query }) => {
				const watch = requireWatch(scheduler, id)
				let { from, to } = query
				if (from === undefined || to === undefined) {
					const snapshots = scheduler.watches.snapshots(id)
					if (snapshots.length < 2)
						throw new HttpError(
							'bad_request',
							`Watch ${id} has ${snapshots.length} snapshot${snapshots.length === 1 ? '' : 's'}; a diff needs two (run it again)`
						)
					to ??= (snapshots[snapshots.length - 1] as { id: number }).id
					// The snapshot before `to` (the last but one when `to` is the last), as `smkit watch diff` does.
					const before = to
					from ??= snapshots.filter((snapshot) => snapshot.id < before).pop()?.id
					if (from === undefined)
						throw new HttpError(
							'bad_request',
							`Watch ${id} has no snapshot before ${to} to compare it with: give 'from'`
						)
				}
				const checked = scheduler.watches.checkedDiff(id, from, to)
				if (!('diff' in checked)) throw new HttpError(checked.code, checked.message)
				const { diff } = checked
				const lists =
					diff.gained && diff.lost ? `: +${diff.gained.length} -${diff.lost.length} followers` : ''
				const posts = diff.top_posts
					? `: ${diff.top_posts.entered.length} new top posts, ${diff.top_posts.left.length} gone`
					: ''
				return ok(diff, `${label(watch)} from snapshot ${from} to ${to}${lists}${posts}`)
			},
			{
				params: WatchParams,
				...singleQuery(t.Object({ from: snapshotId('from'), to: snapshotId('to') })),
				...documented(
					'Watches',
					'Count changes, followers gained and lost, or top posts entered and left between two snapshots (default: the last two)',
					DiffSchema,
					{ errors: ['not_found'] }
				)
			}
		)
