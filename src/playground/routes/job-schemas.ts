/**
 * The shapes of `/api/jobs` (routes in jobs.ts): a job, a progress event, the path, body and query
 * parameters, and the OpenAPI details of the two streamed answers (events, export).
 */
import { t } from 'elysia'
import { EXPORT_FORMATS } from '../../jobs/export'
import { JOB_KINDS, JOB_STATUSES } from '../../jobs/types'
import { Text } from '../../server/text-length'
import { documentedContent } from './docs'
import { DecimalInteger } from './params'

const Nullable = <Schema extends Parameters<typeof t.Union>[0][number]>(schema: Schema) =>
	t.Union([schema, t.Null()])

/** A job as the API shows it. */
export const JobSchema = t.Object({
	id: t.Integer(),
	source: t.Union([t.Literal('playground'), t.Literal('cli'), t.Literal('mcp')], {
		description:
			"Who started and runs it: the playground (this API), `smkit collect` or the MCP server on the same store. Only the playground's own jobs are paused, resumed and cancelled here; the others are followed, downloaded, and deleted once their process has stopped."
	}),
	demo: Nullable(
		t.Boolean({
			description:
				"True: collected from demo mode's simulated Instagram; false: from Instagram; null: from an older store and not run since. A playground runs and resumes only the jobs of the Instagram it serves."
		})
	),
	kind: t.Union(JOB_KINDS.map((kind) => t.Literal(kind))),
	target: t.String({ description: 'Username, hashtag, or media pk/URL, as the kind needs' }),
	limit: Nullable(t.Integer({ description: 'Stop after this many records; null: the whole list' })),
	status: t.Union(JOB_STATUSES.map((status) => t.Literal(status))),
	collected: t.Integer({ description: 'Records stored so far (each once)' }),
	total: Nullable(t.Integer({ description: "The list's size when Instagram says" })),
	pages: t.Integer(),
	error: Nullable(t.String({ description: 'What went wrong, why it waits or paused, and what to do' })),
	error_code: Nullable(t.String()),
	created_at: t.String({ format: 'date-time' }),
	updated_at: t.String({ format: 'date-time' })
})

export const JobEventSchema = t.Object({
	type: t.Union([t.Literal('status'), t.Literal('page'), t.Literal('wait')]),
	job: JobSchema,
	added: t.Optional(t.Integer({ description: 'page: new records in the page' })),
	wait_ms: t.Optional(t.Integer({ description: 'wait: milliseconds until the next try' })),
	rate: t.Optional(t.Number({ description: 'Records per second in this run' }))
})

export const JobParams = t.Object({
	id: DecimalInteger({
		minimum: 1,
		description: 'The job number (POST /api/jobs answers it)',
		examples: [1],
		error: "Invalid path parameter 'id': expected a job number"
	})
})

const limitError =
	"Invalid body field 'limit': expected a whole number of at least 1 and at most 15 digits, or null for the whole list"

export const CreateBody = t.Object({
	kind: t.Union(
		JOB_KINDS.map((kind) => t.Literal(kind)),
		{ error: `Invalid body field 'kind': expected one of ${JOB_KINDS.join(', ')}` }
	),
	target: Text({
		minLength: 1,
		maxLength: 2000,
		error: "Invalid body field 'target': expected a username, hashtag, media pk or post URL",
		examples: ['mega.travel']
	}),
	// The error on the union: Elysia reports a failed union with the union's own text.
	limit: t.Optional(
		t.Union([DecimalInteger({ minimum: 1, error: limitError }), t.Null()], { error: limitError })
	)
})

export const ExportQuery = t.Object({
	format: t.Optional(
		t.Union(
			EXPORT_FORMATS.map((format) => t.Literal(format)),
			{
				default: 'csv',
				description: 'csv (default), jsonl or json',
				examples: ['csv'],
				error: "Invalid query parameter 'format': expected csv, jsonl or json"
			}
		)
	)
})

export const eventsDetail = documentedContent(
	'Jobs',
	"A job's progress as server-sent events",
	{
		description: 'Server-sent events, one `data: <JobEvent JSON>` each; the stream ends when the job settles',
		mediaType: 'text/event-stream',
		schema: t.String({ description: 'data: lines of JobEvent JSON; comment lines keep the stream open' }),
		eventSchema: JobEventSchema
	},
	{
		errors: ['not_found'],
		description:
			'One event per status change, stored page and wait: the job now, plus `added` (page), `wait_ms` (wait) and `rate`. The stream ends when the job is done, failed, paused, cancelled or deleted.'
	}
)

export const exportDetail = documentedContent(
	'Jobs',
	"A job's records as a download",
	{
		description:
			'The records in arrival order: CSV (the export rules of /api/export/csv), JSONL or a JSON array',
		mediaType: 'text/csv',
		schema: t.String(),
		alternatives: [
			{ mediaType: 'application/x-ndjson', schema: t.String() },
			{ mediaType: 'application/json', schema: t.Array(t.Unknown()) }
		]
	},
	{ errors: ['not_found'] }
)
