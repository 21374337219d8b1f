/**
 * The jobs tools: start a collection job (a whole list: followers, posts, a hashtag...), see how
 * it stands, and read its records page by page. Jobs run in this process through a JobManager
 * (owner `mcp`) and are kept in the SQLite store, so a job interrupted when the client closed
 * continues from its last stored page at the next start.
 */
import { type Static, Type } from '@sinclair/typebox'
import { KIND_SOURCES, TARGET_HINTS } from '../jobs/kinds'
import type { JobManager } from '../jobs/manager'
import { JOB_KINDS, JOB_STATUSES, type Job, type JobKind } from '../jobs/types'
import { Text } from '../server/text-length'
import { MAX_WHOLE_NUMBER, wholeNumber } from './param-schemas'
import { itemsThatFit, jsonLength, MAX_RESULT_CHARS, RESULT_LIMIT_TEXT } from './result-budget'
import { failureResult, type ServerTool, successResult } from './tool'

/** A job as the tools return it. */
export const JobSchema = Type.Object(
	{
		id: Type.Integer(),
		kind: Type.Union(JOB_KINDS.map((kind) => Type.Literal(kind))),
		target: Type.String(),
		limit: Type.Union([Type.Integer(), Type.Null()]),
		owner: Type.String({
			description:
				'Who started and runs it: mcp (jobs_start), cli (smkit collect) or playground, on the same store'
		}),
		demo: Type.Union([Type.Boolean(), Type.Null()], {
			description:
				"True: collected from demo mode's simulated Instagram; false: from Instagram; null: not known yet"
		}),
		status: Type.Union(JOB_STATUSES.map((status) => Type.Literal(status))),
		collected: Type.Integer({ minimum: 0, description: 'Records stored so far' }),
		total: Type.Union([Type.Integer(), Type.Null()], { description: "The list's size when known" }),
		pages: Type.Integer({ minimum: 0 }),
		error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed, waits or paused' }),
		error_code: Type.Union([Type.String(), Type.Null()]),
		created_at: Type.String(),
		updated_at: Type.String()
	},
	{ title: 'Job' }
)

// Fails to compile when the schema and the jobs engine's record drift apart.
const _sameShape: Static<typeof JobSchema> extends Job
	? Job extends Static<typeof JobSchema>
		? true
		: never
	: never = true

/** The largest page of records one call returns. */
export const MAX_RECORDS_PAGE = 500

/** The longest job target (a username, hashtag, media pk or post URL), as the playground's. */
const MAX_TARGET_LENGTH = 2000

const kindHelp = JOB_KINDS.map((kind) => `${kind}: ${TARGET_HINTS[kind]}`).join('; ')
const jobId = wholeNumber({ minimum: 1, description: 'The id jobs_start returned' })

const readOnlyHints = { readOnlyHint: true, destructiveHint: false, openWorldHint: false }

/** The three jobs tools over a manager opened on first use (`manager()` may throw: no store). */
export function jobsTools(
	manager: () => JobManager,
	options: {
		readOnly?: boolean
		/** Why a media job of `target` may not download its files (asked as a file write), or undefined. */
		downloadRefusal?: (target: string, signal: AbortSignal) => Promise<string | undefined>
	} = {}
): ServerTool[] {
	const requireJob = (id: number): Job => {
		const job = manager().get(id)
		if (!job) throw new JobNotFound(`No job ${id} (jobs_status lists the jobs)`)
		return job
	}
	return [
		{
			name: 'jobs_start',
			title: 'Start collecting a whole list',
			description: `Starts a job that collects a whole list in the background (thousands of records, across many pages, continuing after interruptions) and returns it; follow it with jobs_status and read it with jobs_records. An unfinished job of the same kind, target and limit (paused, for instance after the session had to be connected again, or failed) is continued from where it stopped instead. Kinds and their targets: ${kindHelp}.`,
			inputSchema: Type.Object(
				{
					kind: Type.Union(
						JOB_KINDS.map((kind) => Type.Literal(kind)),
						{ description: 'What to collect' }
					),
					target: Text({
						minLength: 1,
						maxLength: MAX_TARGET_LENGTH,
						description: 'Whose list: see the kinds above'
					}),
					limit: Type.Optional(
						wholeNumber({
							minimum: 1,
							description: `Stop after this many records (at most ${MAX_WHOLE_NUMBER}; default: all)`
						})
					)
				},
				{ additionalProperties: false }
			),
			outputSchema: JobSchema,
			annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
			async run(input, call) {
				const kind = input.kind as JobKind
				// A media job downloads every picture and video onto this computer: a file write.
				if (kind === 'media' && options.readOnly)
					return failureResult(
						'forbidden',
						'Refused: a media job downloads files onto this computer, and smkit mcp runs with --read-only, which allows no writes (nobody was asked). Collect kind posts for the records without their files, or start smkit mcp without --read-only.'
					)
				let target: string
				try {
					target = KIND_SOURCES[kind].normalizeTarget(String(input.target))
				} catch (error) {
					const reason = error instanceof Error ? error.message : String(error)
					return failureResult('bad_request', `target of ${kind} must be ${TARGET_HINTS[kind]}: ${reason}`)
				}
				const refusal = kind === 'media' ? await options.downloadRefusal?.(target, call.signal) : undefined
				if (refusal) return failureResult('forbidden', refusal)
				const job = manager().startOrContinue({
					kind,
					target,
					limit: (input.limit as number | undefined) ?? null
				})
				return successResult(job, true)
			}
		},
		{
			name: 'jobs_status',
			title: 'Collection jobs and their progress',
			description:
				'The collection jobs on the store (newest first): those jobs_start started, and the lists collected with smkit collect or in the playground (owner cli or playground); or one job when `id` is given: status (queued, running, waiting, paused, done, failed, cancelled), records collected, the total when known, and what went wrong.',
			inputSchema: Type.Object({ id: Type.Optional(jobId) }, { additionalProperties: false }),
			outputSchema: Type.Object({ jobs: Type.Array(JobSchema) }),
			annotations: readOnlyHints,
			async run(input) {
				const jobs = input.id === undefined ? manager().list() : [requireJob(input.id as number)]
				return successResult({ jobs }, true)
			}
		},
		{
			name: 'jobs_records',
			title: 'Records a job collected',
			description: `The records a job has stored so far, in arrival order, up to ${MAX_RECORDS_PAGE} per call and ${RESULT_LIMIT_TEXT} of JSON (fewer records than limit come back when they would not fit): pass the result's next_offset as offset to read on (null once every stored record was read; a running job may store more later).`,
			inputSchema: Type.Object(
				{
					id: jobId,
					offset: Type.Optional(wholeNumber({ minimum: 0, description: 'Records to skip (default 0)' })),
					limit: Type.Optional(
						Type.Integer({
							minimum: 1,
							maximum: MAX_RECORDS_PAGE,
							description: `Records to return (default 100, at most ${MAX_RECORDS_PAGE})`
						})
					)
				},
				{ additionalProperties: false }
			),
			outputSchema: Type.Object({
				job: JobSchema,
				records: Type.Array(Type.Unknown()),
				next_offset: Type.Union([Type.Integer(), Type.Null()])
			}),
			annotations: readOnlyHints,
			async run(input) {
				const job = requireJob(input.id as number)
				const offset = (input.offset as number | undefined) ?? 0
				const limit = (input.limit as number | undefined) ?? 100
				const frame = jsonLength({ job, records: [], next_offset: MAX_WHOLE_NUMBER })
				const records = recordsWithinBudget(manager().jobs.records(job.id, offset), limit, frame)
				const end = offset + records.length
				return successResult({ job, records, next_offset: end < job.collected ? end : null }, true)
			}
		}
	]
}

/**
 * Up to `limit` of `stored` records, from the first, that fit in the result budget beside the
 * `frame` (the length of the result without them); one even when it alone is over the budget.
 */
function recordsWithinBudget(stored: Iterable<unknown>, limit: number, frame: number): unknown[] {
	const records: unknown[] = []
	for (const record of stored) {
		if (records.length === limit) break
		records.push(record)
	}
	return records.slice(0, itemsThatFit(records, MAX_RESULT_CHARS - frame))
}

/** A job id that is not one of this server's jobs. */
export class JobNotFound extends Error {
	override name = 'JobNotFound'
}
