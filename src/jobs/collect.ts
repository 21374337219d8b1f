/**
 * `smkit collect KIND TARGET`: collects one whole list into the store as a job, streaming records
 * to `--out` (or standard output) as they arrive. Running the same command again continues the
 * unfinished job from its last stored page (after Ctrl-C, a crash or `kill -9`); `--fresh` starts
 * over. JSONL is rewritten from the store at the start of each run and then appended after each
 * stored page, so the file always ends up holding exactly the stored records; CSV and JSON are
 * written from the store at the end of the run, and the job is done only once they are written: a
 * run killed while writing leaves it unfinished, and the next run writes the file without asking
 * Instagram again. Progress goes to stderr. Ctrl-C, SIGTERM and SIGHUP stop it the same way (the
 * job paused, the summary printed): exit 130, 143 and 129 (128 + the signal's number).
 */
import { dirname } from 'node:path'
import { Type } from '@sinclair/typebox'
import { didYouMean, terminalText, UsageError } from '../cli-error'
import { loadEnvFile, mergeEnv } from '../client/env'
import { IgError } from '../client/errors'
import { FileWriteError } from '../client/file-write-error'
import { openInstagram } from '../demo'
import { dbPathOption, demoOption, envPathOption, type ParsedOptions, parseOptions } from '../server/options'
import { resolveUpstream, upstreamOptions } from '../server/upstream-options'
import { DEFAULT_DB_PATH, isSqliteError, openStore, storeError } from '../store/db'
import { formatHours, storeDemoClock } from '../store/demo-clock'
import { EXPORT_FORMATS, exportFormatFor } from './export'
import { KIND_SOURCES, TARGET_HINTS } from './kinds'
import { checkOutPath } from './out-path'
import { clock, counted, number, ProgressReporter } from './progress'
import { RecordSink } from './record-sink'
import { runJob } from './run'
import { lostStore } from './run-errors'
import { onStopSignals } from './stop-signals'
import { JobStore } from './store'
import { JOB_KINDS, type Job, type JobKind } from './types'

/** The options of `smkit collect`, registered with cac and validated from these schemas. */
export const collectOptions = {
	limit: Type.Optional(
		Type.Integer({
			minimum: 1,
			flag: '--limit <n>',
			description: 'Stop after this many records (default: the whole list)',
			error: "--limit must be a whole number of at least 1, got '{value}'"
		})
	),
	out: Type.Optional(
		Type.String({
			pattern: '^[^\\u0000]+$',
			flag: '--out <file>',
			description: 'Write the records to this file (default, or -: standard output)',
			error: '--out must be a file path'
		})
	),
	format: Type.Optional(
		Type.Union(
			EXPORT_FORMATS.map((format) => Type.Literal(format)),
			{
				flag: '--format <format>',
				description:
					"jsonl (streamed as records arrive), csv or json (written at the end); default: --out's extension (.csv, .json), else jsonl",
				error: "--format must be jsonl, csv or json, got '{value}'"
			}
		)
	),
	dbPath: dbPathOption('The SQLite file jobs are kept in', DEFAULT_DB_PATH),
	envPath: envPathOption,
	demo: demoOption,
	fresh: Type.Boolean({
		default: false,
		flag: '--fresh',
		description: 'Start over instead of continuing an unfinished run'
	}),
	...upstreamOptions
}

/** Validated options of `smkit collect`. */
export type CollectOptions = ParsedOptions<typeof collectOptions>

/** Checks KIND and TARGET; the target comes back normalised (`@Luna` → `luna`). */
export function parseCollectArguments(kind: unknown, target: unknown): { kind: JobKind; target: string } {
	if (!JOB_KINDS.includes(kind as JobKind))
		throw new UsageError(
			`KIND must be one of ${JOB_KINDS.join(', ')}, got '${String(kind ?? '')}'${didYouMean(String(kind ?? ''), JOB_KINDS)}`
		)
	const source = KIND_SOURCES[kind as JobKind]
	try {
		return { kind: kind as JobKind, target: source.normalizeTarget(String(target ?? '')) }
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error)
		throw new UsageError(`TARGET of ${kind} must be ${TARGET_HINTS[kind as JobKind]}: ${reason}`)
	}
}

/** The abort reason when standard output closes under the job. */
const OUTPUT_CLOSED = new Error('standard output closed')
/** The abort reason when the --out file cannot be written. */
const OUTPUT_FAILED = new Error('output file not written')

/**
 * `smkit collect KIND TARGET [options]`. Sets the exit code: 0 done, 1 failed or paused, 130, 143 or
 * 129 stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP.
 */
export async function runCollect(
	kindArgument: unknown,
	targetArgument: unknown,
	raw: Record<string, unknown> = {}
) {
	const options = parseOptions(collectOptions, raw)
	// `--out -` is standard output, as `-` is for most tools (and for login --cookies).
	if (options.out === '-') options.out = undefined
	const { kind, target } = parseCollectArguments(kindArgument, targetArgument)
	if (options.out) checkOutPath(options.out, options.dbPath)
	const format = exportFormatFor(options.format, options.out)
	// A job's error may quote Instagram's answer: no control character reaches the terminal.
	const log = (line: string) => process.stderr.write(`${terminalText(line)}\n`)
	const env = mergeEnv(loadEnvFile(options.envPath))
	const upstream = resolveUpstream(options, env, options.demo)
	// After the settings are checked: a usage error leaves no empty store behind.
	const store = openStore(options.dbPath)
	for (const line of [...upstream.warnings, ...upstream.lines]) log(line)
	// No retries inside the client: a 429, 5xx or dropped connection goes to the job, whose own
	// back-off (longer, honouring Retry-After) the progress line shows as a wait; the client's
	// retries waited up to half a minute with the line standing still.
	const instagram = await openInstagram(options, env, { ...upstream.clientOptions, maxRetries: 0 })
	const controller = new AbortController()
	const stops = onStopSignals(() => controller.abort(new Error('interrupted')))
	const jobs = new JobStore(store, { demo: options.demo })
	let jobId: number | undefined
	try {
		// Demo time as this store's demo world was left (by a playground), before anything is read.
		const demoTime = await storeDemoClock(store, instagram.demo)
		if (demoTime?.moved)
			log(`Demo time: ${formatHours(demoTime.moved)} on, as this store's demo world was left`)
		const spec = { kind, target, limit: options.limit ?? null }
		// Claimed before anything is written: a second collect of the same list on this --db would
		// otherwise rewrite the --out file under the first, or wipe its records with --fresh.
		const { job, continued, runner } = jobs.claimUnfinishedOrCreate(spec, 'cli')
		jobId = job.id
		if (runner !== null)
			throw new Error(
				`job ${job.id} (${kind} ${target}) is being collected by another process (pid ${runner}) on ${options.dbPath}: let it finish, or stop it and run this command again`
			)
		// Killed or stopped while its output was written: the list is stored, nothing is asked again.
		const onlyOutputLeft = continued && !options.fresh && jobs.walkComplete(job.id)
		if (continued && options.fresh) {
			jobs.reset(job.id)
			log(`Starting over: job ${job.id}`)
		} else if (onlyOutputLeft) {
			log(
				`Continuing job ${job.id}: ${counted(job.collected, 'record')} stored, nothing left to collect; writing ${options.out ?? 'them to standard output'} from the store`
			)
		} else if (continued) {
			log(
				`Continuing job ${job.id}: ${counted(job.collected, 'record')} in ${counted(job.pages, 'page')} so far`
			)
		}
		// Records shown on the same terminal would land inside a line redrawn in place: one line a page then.
		const recordsOnTerminal = !options.out && process.stdout.isTTY === true
		const reporter = new ProgressReporter(
			recordsOnTerminal ? { write: (text) => process.stderr.write(text), isTTY: false } : process.stderr,
			`${kind} ${target}`
		)
		const sink = new RecordSink(jobs, job.id, format, options.out, (line) => {
			reporter.finish()
			log(line)
		})
		// A reader that stops early (`| head`) makes writes fail with EPIPE: stop the job where it
		// is, as Ctrl-C would, instead of an uncaught stream error and a walk nobody reads.
		if (!options.out)
			process.stdout.on('error', () => {
				sink.outputClosed = true
				controller.abort(OUTPUT_CLOSED)
			})
		let outputError: string | undefined
		/** Runs one write of the output; a failure stops the job (its records are stored: the next run writes them). */
		const output = async (write: () => Promise<void>) => {
			if (controller.signal.aborted) return
			try {
				await write()
			} catch (error) {
				if (controller.signal.aborted) return
				// A file's own error names it already (`cannot write out.csv: the disk is full`).
				outputError =
					error instanceof FileWriteError
						? `Could not write ${error.file}: ${error.reason}`
						: `Could not write ${options.out ?? 'standard output'}: ${error instanceof Error ? error.message : error}`
				controller.abort(OUTPUT_FAILED)
			}
		}
		await output(() => sink.begin(controller.signal))
		const collectedBefore = jobs.get(job.id)?.collected ?? 0
		const started = performance.now()
		// JSONL pages are appended one after the other, while the next pages are collected.
		let appending = Promise.resolve()
		/** True once the whole list is stored and only the output is left to write. */
		let walked = false
		let finished = controller.signal.aborted
			? (jobs.get(job.id) as Job)
			: await runJob(jobs, job.id, {
					ig: instagram.client,
					signal: controller.signal,
					dataDir: dirname(options.dbPath),
					onEvent: (event) => {
						if (event.type === 'page')
							appending = appending.then(() => output(() => sink.append(controller.signal)))
						reporter.event(event)
					},
					// CSV and JSON are written once the list is complete, and the job is done only when
					// they are: killed meanwhile, it stays unfinished and the same command writes the file.
					beforeDone: async () => {
						await appending
						if (controller.signal.aborted) return
						walked = true
						// A big list takes a while to write: the last progress line is not where it hangs.
						if (options.out && format !== 'jsonl' && !onlyOutputLeft) {
							reporter.finish()
							log(`Writing ${options.out} from the store`)
						}
						await output(() => sink.end(controller.signal))
					}
				})
		await appending
		reporter.finish()
		// Its file deleted or replaced under the run: what it stored is gone, whatever the job says.
		const lost = lostStore(store, 'cli')
		if (lost) {
			log(`failed (job ${finished.id}): ${lost.message}`)
			process.exitCode = 1
			return
		}
		const outputClosed = controller.signal.reason === OUTPUT_CLOSED
		// Once the list is stored, the next run only writes the output.
		const them = options.out ? 'the file' : 'them'
		// Run again with --fresh, the command would throw away what this run stored.
		const again = options.fresh ? 'the same command again without --fresh' : 'the same command again'
		const rerun = walked ? `run ${again} to write ${them}` : `run ${again} to continue`
		if (controller.signal.aborted && !JobStore.finished(finished) && finished.status !== 'paused')
			finished = jobs.setStatus(
				job.id,
				'paused',
				`${outputError ?? (outputClosed ? 'Output closed' : 'Interrupted')}: ${rerun}`
			)
		const seconds = (performance.now() - started) / 1000
		const added = finished.collected - collectedBefore
		log(
			`${finished.status}: ${counted(finished.collected, 'record')}, ${counted(finished.pages, 'page')}, ${seconds < 60 ? `${seconds.toFixed(1)} s` : clock(seconds)}` +
				` (job ${finished.id}${collectedBefore > 0 ? `, +${number(added)} this run` : ''})${options.out ? ` -> ${options.out}` : ''}`
		)
		if (finished.status === 'done') return
		const next = walked ? `the records are stored; ${rerun}.` : `${rerun} where it stopped.`
		if (outputError !== undefined || outputClosed) {
			log(`${outputError ?? 'Standard output was closed'}: ${next}`)
			process.exitCode = 1
			return
		}
		if (controller.signal.aborted) {
			log(`Interrupted: ${next}`)
			process.exitCode = stops.exitCode
			return
		}
		log(finished.error ?? `The job ended ${finished.status}.`)
		if (finished.status === 'paused') log(`To resume it: run ${again}; it continues where it stopped.`)
		// A list that cannot be read (no such account, a private one) fails again; anything else may pass.
		if (finished.status === 'failed' && !['not_found', 'private_account'].includes(finished.error_code ?? ''))
			log(
				options.fresh
					? 'Running the same command again without --fresh continues from the last stored page.'
					: 'Running the same command again continues from the last stored page (--fresh starts over).'
			)
		process.exitCode = 1
	} catch (error) {
		if (error instanceof IgError && error.kind === 'bad_request') throw new UsageError(error.message)
		if (isSqliteError(error)) throw storeError(options.dbPath, error)
		throw error
	} finally {
		if (jobId !== undefined) jobs.release(jobId)
		stops.off()
		await instagram.stop()
		store.close()
	}
}
