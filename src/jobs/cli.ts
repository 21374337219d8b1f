/**
 * `smkit jobs [list] | show ID | export ID | delete ID`: the jobs of a store (`--db`) from the
 * command line, whoever started them: `smkit collect`, the playground, the MCP server, or a watch
 * run (a snapshot's follower list). Export streams the stored records to a file or standard output
 * as `smkit collect` writes them; delete refuses a job a live process is collecting, and a watch's
 * follower list, which goes with its watch (one no watch holds any more is deleted).
 *
 *   smkit jobs                                  # the table, newest first
 *   smkit jobs export 3 --format csv --out followers.csv
 *   smkit jobs delete 3
 */
import { existsSync } from 'node:fs'
import { Type } from '@sinclair/typebox'
import { clip, didYouMean, idArgument, jsonText, NotFoundError, terminalText, UsageError } from '../cli-error'
import { dbPathOption, type ParsedOptions, parseOptions } from '../server/options'
import { formatTable, when } from '../server/table'
import { DEFAULT_DB_PATH, isSqliteError, openStore, storeError } from '../store/db'
import { EXPORT_FORMATS, exportFormatFor } from './export'
import { checkOutPath } from './out-path'
import { outsideView, RUNNER_NAMES } from './outside'
import { counted } from './progress'
import { RecordSink } from './record-sink'
import { onStopSignals } from './stop-signals'
import { JobStore } from './store'
import { type Job, publicJob } from './types'

/** The options of `smkit jobs`. */
export const jobsOptions = {
	format: Type.Optional(
		Type.Union(
			EXPORT_FORMATS.map((format) => Type.Literal(format)),
			{
				flag: '--format <format>',
				description: "export: jsonl, csv or json (default: --out's extension, else jsonl)",
				error: "--format must be jsonl, csv or json, got '{value}'"
			}
		)
	),
	out: Type.Optional(
		Type.String({
			pattern: '^[^\\u0000]+$',
			flag: '--out <file>',
			description: 'export: write the records to this file (default, or -: standard output)',
			error: '--out must be a file path'
		})
	),
	json: Type.Boolean({ default: false, flag: '--json', description: 'list, show, delete: print JSON' }),
	dbPath: dbPathOption('The SQLite file jobs are kept in', DEFAULT_DB_PATH)
}

/** Validated options of `smkit jobs`. */
export type JobsCommandOptions = ParsedOptions<typeof jobsOptions>

const ACTIONS = ['list', 'show', 'export', 'delete'] as const
const USAGE = 'list, show ID, export ID or delete ID'

const print = (text: string) => process.stdout.write(`${terminalText(text)}\n`)
const printJson = (value: unknown) => process.stdout.write(`${jsonText(value)}\n`)

/**
 * Collected of expected: a job with a limit below the list's size expects the limit (`250 / 250`,
 * not `250 / 5,400`, which reads as unfinished); `jobs show` adds the list's size then.
 */
function records(job: Job, detailed = false): string {
	const count = (value: number) => value.toLocaleString('en-US')
	if (job.total === null) return count(job.collected)
	if (job.limit === null || job.limit >= job.total) return `${count(job.collected)} / ${count(job.total)}`
	return `${count(job.collected)} / ${count(job.limit)}${detailed ? ` (the list has ${count(job.total)})` : ''}`
}

/** The jobs as a table. */
function jobsTable(jobs: readonly Job[]): string {
	return formatTable(
		['id', 'source', 'kind', 'target', 'status', 'records', 'pages', 'updated'],
		jobs.map((job) => [
			String(job.id),
			job.demo ? `${job.owner} (demo)` : job.owner,
			job.kind,
			clip(job.target, 40),
			job.status,
			records(job),
			job.pages,
			when(job.updated_at)
		])
	)
}

/** One job, a field a line. */
function jobText(job: Job): string {
	const lines: [string, string | number][] = [
		['job', job.id],
		['started by', RUNNER_NAMES[job.owner] ?? job.owner],
		[
			'from',
			job.demo === null ? 'not known yet' : job.demo ? "demo mode's simulated Instagram" : 'Instagram'
		],
		['kind', job.kind],
		['target', job.target],
		['limit', job.limit ?? 'the whole list'],
		['status', job.status],
		['records', records(job, true)],
		['pages', job.pages],
		['created', when(job.created_at)],
		['updated', when(job.updated_at)]
	]
	if (job.error) lines.push(['note', job.error])
	return lines.map(([name, value]) => `${`${name}:`.padEnd(12)}${value}`).join('\n')
}

/** A job id argument. */
const idOf = (value: unknown) => idArgument(value, 'job')

/** `smkit jobs [ACTION] [...ARGS]`. */
export async function runJobsCommand(
	actionArgument: unknown,
	args: unknown[] = [],
	raw: Record<string, unknown> = {}
) {
	const action = String(actionArgument ?? 'list')
	if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
		throw new UsageError(
			`unknown jobs action '${action}'${didYouMean(action, ACTIONS)}; the actions: ${USAGE}`
		)
	const options = parseOptions(jobsOptions, raw)
	// `--out -` is standard output, as `-` is for most tools (and for login --cookies).
	if (options.out === '-') options.out = undefined
	// Options another action takes would be ignored here without a word: say so instead.
	if (action !== 'export' && (options.out !== undefined || options.format !== undefined))
		throw new UsageError('--format and --out go with jobs export only')
	if (action === 'export' && options.json) throw new UsageError('--json goes with jobs list, show and delete')
	if (action === 'list' ? args.length > 0 : args.length !== 1)
		throw new UsageError(
			action === 'list' ? 'jobs list takes no arguments' : `jobs ${action} takes one job ID`
		)
	// A store is not made here: a mistyped --db says so instead of listing an empty new file.
	if (options.dbPath !== ':memory:' && !existsSync(options.dbPath)) {
		const missing = `there is no store at ${options.dbPath} yet (smkit collect, the playground and smkit mcp create it; --db names another)`
		if (action !== 'list') throw new NotFoundError(`No job ${idOf(args[0])}: ${missing}`)
		if (options.json) printJson([])
		process.stderr.write(`${terminalText(`No jobs: ${missing}`)}\n`)
		return
	}
	if (action === 'export' && options.out) checkOutPath(options.out, options.dbPath)
	const store = openStore(options.dbPath)
	try {
		const jobs = new JobStore(store)
		if (action === 'list') {
			const all = jobs.list().map((job) => outsideView(jobs, job))
			if (options.json) printJson(all.map(publicJob))
			else print(all.length === 0 ? 'No jobs yet: smkit collect followers USERNAME' : jobsTable(all))
			return
		}
		const id = idOf(args[0])
		const stored = jobs.get(id)
		if (!stored) throw new NotFoundError(`No job ${id} (smkit jobs lists them)`)
		const job = outsideView(jobs, stored)
		if (action === 'show') return options.json ? printJson(publicJob(job)) : print(jobText(job))
		if (action === 'delete') return remove(jobs, job, options)
		await exportRecords(jobs, job, options)
	} catch (error) {
		if (isSqliteError(error)) throw storeError(options.dbPath, error)
		throw error
	} finally {
		store.close()
	}
}

/**
 * Whether a watch holds the job: a snapshot's follower list, or the list of a run not yet stored.
 * A watch-owned job neither holds (its watch removed before watch remove deleted such lists, or
 * replaced by a later run) belongs to nothing and is deleted like any other.
 */
function heldByWatch(jobs: JobStore, id: number): boolean {
	const row = jobs.store.db
		.query<{ held: number }, [number, number]>(
			`SELECT EXISTS (SELECT 1 FROM watch_snapshots WHERE follower_job_id = ?)
			 OR EXISTS (SELECT 1 FROM watches WHERE pending_job_id = ?) AS held`
		)
		.get(id, id)
	return row?.held === 1
}

function remove(jobs: JobStore, job: Job, options: JobsCommandOptions): void {
	if (job.owner === 'watch' && heldByWatch(jobs, job.id))
		throw new Error(
			`Job ${job.id} is the follower list of a watch of @${job.target}: it goes with the watch (smkit watch list shows its id, smkit watch remove ID removes it)`
		)
	const runner = jobs.liveRunner(job.id)
	if (runner !== null)
		throw new Error(
			`Job ${job.id} is being collected by ${RUNNER_NAMES[job.owner] ?? job.owner} (process ${runner}): stop it there first, then delete it`
		)
	jobs.delete(job.id)
	if (options.json) printJson({ deleted: job.id })
	else print(`Deleted job ${job.id} and its ${counted(job.collected, 'record')}`)
}

/** Streams the stored records, as `smkit collect` writes them; Ctrl-C stops between two batches. */
async function exportRecords(jobs: JobStore, job: Job, options: JobsCommandOptions): Promise<void> {
	const controller = new AbortController()
	const stops = onStopSignals(() => controller.abort(new Error('interrupted')))
	const sink = new RecordSink(jobs, job.id, exportFormatFor(options.format, options.out), options.out)
	if (!options.out)
		process.stdout.on('error', () => {
			sink.outputClosed = true
			controller.abort(new Error('output closed'))
		})
	try {
		await sink.begin(controller.signal)
		await sink.end(controller.signal)
		if (options.out)
			process.stderr.write(
				`${terminalText(`Wrote ${counted(job.collected, 'record')} of job ${job.id} to ${options.out}${job.status === 'done' ? '' : ` (the job is ${job.status}: the records stored so far)`}`)}\n`
			)
	} catch (error) {
		if (!controller.signal.aborted) throw error
		if (!sink.outputClosed) process.exitCode = stops.exitCode
	} finally {
		stops.off()
	}
}
