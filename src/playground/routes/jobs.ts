/**
 * `/api/jobs`: long collections run by the playground's job manager (src/jobs/). Start one, list
 * them, follow one's progress as server-sent events, pause, resume, cancel, delete, and download
 * its records as CSV, JSONL or JSON. At most two run at once; the others wait as `queued`. The jobs
 * of `smkit collect` and the MCP server on the same store are listed, followed and downloaded too
 * (src/jobs/outside.ts). Shapes in job-schemas.ts.
 */
import { Elysia, t } from 'elysia'
import { eventStreamResponse } from '../../agent/chat/event-stream'
import { CONTENT_TYPES, type ExportFormat, exportChunks, exportStream } from '../../jobs/export'
import { KIND_SOURCES, TARGET_HINTS } from '../../jobs/kinds'
import { type JobManager, JobStateError } from '../../jobs/manager'
import { followStored } from '../../jobs/outside'
import { isActiveJob, type Job, type JobKind, publicJob } from '../../jobs/types'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { documented } from './docs'
import { CreateBody, ExportQuery, eventsDetail, exportDetail, JobParams, JobSchema } from './job-schemas'
import { objectBody, singleQuery } from './params'

const describeJob = (job: Job) => `Job ${job.id}: ${job.kind} of ${job.target}, ${job.status}`

/** A file name for a job's export: only safe characters. */
function exportName(job: Job, format: ExportFormat): string {
	const target = job.target.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)
	return `job-${job.id}-${job.kind}-${target}.${format}`
}

/** The job, or a 404 envelope. */
function requireJob(manager: JobManager, id: number): Job {
	const job = manager.get(id)
	if (!job) throw new HttpError('not_found', `Job not found: ${id}`)
	return job
}

/** Runs a state change; a job in the wrong state is a 400 saying why. */
async function change<Result>(action: () => Result | Promise<Result>): Promise<Result> {
	try {
		return await action()
	} catch (error) {
		if (error instanceof JobStateError) throw new HttpError('bad_request', error.message)
		throw error
	}
}

/** The jobs route group. */
export const jobsRoutes = ({ jobs: manager }: PlaygroundContext) =>
	new Elysia({ prefix: '/api' })
		.post(
			'/jobs',
			({ body }) => {
				const kind = body.kind as JobKind
				let target: string
				try {
					target = KIND_SOURCES[kind].normalizeTarget(body.target)
				} catch (error) {
					const reason = error instanceof Error ? error.message : String(error)
					throw new HttpError(
						'bad_request',
						`Invalid body field 'target': ${kind} needs ${TARGET_HINTS[kind]} (${reason})`
					)
				}
				const job = manager.start({ kind, target, limit: body.limit ?? null })
				return ok(publicJob(job), `${describeJob(job)}`)
			},
			{
				...objectBody(CreateBody),
				...documented('Jobs', 'Start a job: collect a whole list', JobSchema)
			}
		)
		.get(
			'/jobs',
			() => {
				const jobs = manager.list()
				return ok(jobs.map(publicJob), `Jobs: ${jobs.length}`)
			},
			documented('Jobs', 'Jobs, newest first', t.Array(JobSchema))
		)
		.get(
			'/jobs/:id',
			({ params: { id } }) => {
				const job = requireJob(manager, id)
				return ok(publicJob(job), describeJob(job))
			},
			{ params: JobParams, ...documented('Jobs', 'One job', JobSchema, { errors: ['not_found'] }) }
		)
		.get(
			'/jobs/:id/events',
			({ params: { id }, request }) => {
				const first = requireJob(manager, id)
				return eventStreamResponse(
					async (send, signal) => {
						send({ type: 'status', job: publicJob(first) })
						if (!isActiveJob(first)) return
						// Another process runs it (or did, and died): its progress is read from the store.
						if (!manager.runsHere(id))
							return followStored(
								manager.jobs,
								id,
								(event) => send({ ...event, job: publicJob(event.job) }),
								signal
							)
						// A wait that began before this stream (a rate-limit slot, a backoff) is shown too.
						const waiting = manager.currentWait(id)
						if (waiting) send({ ...waiting, job: publicJob(first) })
						await new Promise<void>((resolve) => {
							const stop = manager.subscribe(id, (event) => {
								send({ ...event, job: publicJob(event.job) })
								if (event.type === 'status' && !isActiveJob(event.job)) finish()
							})
							const finish = () => {
								stop()
								signal.removeEventListener('abort', finish)
								resolve()
							}
							signal.addEventListener('abort', finish, { once: true })
							// A deleted job sends no last status: its stream ends too.
							void manager.settled(id, signal).then((job) => {
								if (!job) finish()
							})
							// The job may have settled between the first read and the subscription.
							const now = manager.get(id)
							if (!now || !isActiveJob(now)) {
								if (now) send({ type: 'status', job: publicJob(now) })
								finish()
							}
						})
					},
					{ request }
				)
			},
			{
				params: JobParams,
				...eventsDetail
			}
		)
		.post(
			'/jobs/:id/pause',
			async ({ params: { id } }) => {
				const job = await change(() => manager.pause(requireJob(manager, id).id))
				return ok(publicJob(job), describeJob(job))
			},
			{
				params: JobParams,
				...documented('Jobs', 'Pause a job (resume continues where it stopped)', JobSchema, {
					errors: ['not_found']
				})
			}
		)
		.post(
			'/jobs/:id/resume',
			async ({ params: { id } }) => {
				const job = await change(() => manager.resume(requireJob(manager, id).id))
				return ok(publicJob(job), describeJob(job))
			},
			{
				params: JobParams,
				...documented('Jobs', 'Resume a paused, failed or cancelled job', JobSchema, {
					errors: ['not_found']
				})
			}
		)
		.post(
			'/jobs/:id/cancel',
			async ({ params: { id } }) => {
				const job = await change(() => manager.cancel(requireJob(manager, id).id))
				return ok(publicJob(job), describeJob(job))
			},
			{
				params: JobParams,
				...documented('Jobs', 'Cancel a job (its records stay for download)', JobSchema, {
					errors: ['not_found']
				})
			}
		)
		.delete(
			'/jobs/:id',
			async ({ params: { id } }) => {
				await change(() => manager.delete(requireJob(manager, id).id))
				return ok({ deleted: id }, `Deleted job ${id}`)
			},
			{
				params: JobParams,
				...documented('Jobs', 'Delete a job and its records', t.Object({ deleted: t.Integer() }), {
					errors: ['not_found']
				})
			}
		)
		.get(
			'/jobs/:id/export',
			async ({ params: { id }, query }) => {
				const job = requireJob(manager, id)
				const format = (query.format ?? 'csv') as ExportFormat
				// Streamed from the store: a job of millions of records downloads in the memory of one batch.
				const chunks = await exportChunks(manager.jobs, job.id, format)
				return new Response(exportStream(chunks), {
					headers: {
						'content-type': CONTENT_TYPES[format],
						'content-disposition': `attachment; filename="${exportName(job, format)}"`
					}
				})
			},
			{
				params: JobParams,
				...singleQuery(ExportQuery),
				...exportDetail
			}
		)
