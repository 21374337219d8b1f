/**
 * `smkit watch add|list|run|diff|remove`: watches from the command line, on the same store as the
 * playground (`--db`). `watch run` runs every due watch once and exits (for cron): exit 0 when all
 * of them stored a snapshot, 1 when any failed, naming each failure on stderr.
 *
 *   smkit watch add luna.explorer --every 1d --followers
 *   smkit watch add '#sunset' --every 6h
 *   smkit watch run                 # every due watch; `watch run 3` runs watch 3 now
 *   smkit watch diff 1 --json       # the last two snapshots of watch 1
 */
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { Type } from '@sinclair/typebox'
import { didYouMean, idArgument, jsonText, NotFoundError, terminalText, UsageError } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { withSessionAdvice } from '../client/session-health'
import { JobStore } from '../jobs/store'
import { dbPathOption, demoOption, envPathOption, type ParsedOptions, parseOptions } from '../server/options'
import { upstreamOptions } from '../server/upstream-options'
import { DEFAULT_DB_PATH, isSqliteError, openStore, type Store, storeError } from '../store/db'
import { checkWatchTarget } from './check'
import { diffText, historyText, watchTable, when } from './cli-text'
import { withInstagram } from './command-client'
import { label, type WatchOutcome, WatchScheduler } from './scheduler'
import { WatchExistsError, WatchStore } from './store'
import { watchSpecOf } from './target'
import type { Watch } from './types'

/** The options of `smkit watch`. */
export const watchOptions = {
	every: Type.Optional(
		Type.String({
			flag: '--every <interval>',
			description: 'add: time between runs, 1h to 7d (e.g. 6h; default 1d)',
			error: '--every must look like 1h, 12h, 1d or 7d'
		})
	),
	followers: Type.Boolean({
		default: false,
		flag: '--followers',
		description: 'add: store the complete follower list with each snapshot (needed for diffs)'
	}),
	skipCheck: Type.Boolean({
		default: false,
		flag: '--skip-check',
		description: 'add: do not look the account up on Instagram first'
	}),
	from: Type.Optional(
		Type.Integer({
			minimum: 1,
			flag: '--from <snapshot>',
			description: 'diff: the older snapshot id',
			error: '--from must be a snapshot id'
		})
	),
	to: Type.Optional(
		Type.Integer({
			minimum: 1,
			flag: '--to <snapshot>',
			description: 'diff: the newer snapshot id',
			error: '--to must be a snapshot id'
		})
	),
	json: Type.Boolean({ default: false, flag: '--json', description: 'Print JSON instead of tables' }),
	dbPath: dbPathOption('The SQLite file watches are kept in', DEFAULT_DB_PATH),
	envPath: envPathOption,
	demo: demoOption,
	...upstreamOptions
}

/** Validated options of `smkit watch`. */
export type WatchCommandOptions = ParsedOptions<typeof watchOptions>

const ACTIONS = ['add', 'list', 'show', 'run', 'diff', 'remove'] as const
const USAGE = 'add USERNAME|#TAG, list, show ID, run [ID...], diff ID or remove ID'

// Names and error messages come from Instagram: no control character reaches the terminal.
const print = (text: string) => process.stdout.write(`${terminalText(text)}\n`)
/** `--json` output: valid JSON whatever the names hold (`terminalText` would make `\x9b` of a C1 control). */
const printJson = (value: unknown) => process.stdout.write(`${jsonText(value)}\n`)
const warn = (text: string) => process.stderr.write(`${terminalText(text)}\n`)

/** A watch id argument. */
const idOf = (value: unknown) => idArgument(value, 'watch')

/** `smkit watch ACTION [...ARGS]`. Sets the exit code: 1 when `run` had a failure. */
export async function runWatchCommand(
	actionArgument: unknown,
	args: unknown[] = [],
	raw: Record<string, unknown> = {}
) {
	const action = String(actionArgument ?? '')
	if (action === '') throw new UsageError(`watch needs an action: ${USAGE}`)
	if (!ACTIONS.includes(action as (typeof ACTIONS)[number]))
		throw new UsageError(
			`unknown watch action '${action}'${didYouMean(action, ACTIONS)}; the actions: ${USAGE}`
		)
	const options = parseOptions(watchOptions, raw)
	// Options another action takes would be ignored here without a word: say so instead.
	if (options.every !== undefined && action !== 'add')
		throw new UsageError('--every goes with watch add only')
	if (options.followers && action !== 'add') throw new UsageError('--followers goes with watch add only')
	if (options.skipCheck && action !== 'add') throw new UsageError('--skip-check goes with watch add only')
	if ((options.from !== undefined || options.to !== undefined) && action !== 'diff')
		throw new UsageError('--from and --to go with watch diff only')
	// Only add makes a store: a mistyped --db is said instead of listing or running an empty new file.
	if (action !== 'add' && options.dbPath !== ':memory:' && !existsSync(options.dbPath)) {
		const missing = `there is no store at ${options.dbPath} yet (smkit watch add creates it; --db names another)`
		if (action !== 'list' && args.length > 0) throw new NotFoundError(`No watch ${idOf(args[0])}: ${missing}`)
		if (action !== 'run' && action !== 'list') throw new UsageError(`watch ${action} takes one watch ID`)
		if (args.length > 0) throw new UsageError('watch list takes no arguments')
		if (options.json) printJson([])
		warn(`No watches: ${missing}`)
		return
	}
	const store = openStore(options.dbPath)
	try {
		const watches = new WatchStore(store, { demo: options.demo })
		if (action === 'add') return await add(watches, args, options)
		if (
			(action === 'list' && args.length > 0) ||
			((action === 'remove' || action === 'diff' || action === 'show') && args.length !== 1)
		)
			throw new UsageError(
				action === 'list' ? 'watch list takes no arguments' : `watch ${action} takes one watch ID`
			)
		if (action === 'list') {
			const all = watches.list()
			if (options.json) printJson(all)
			else print(all.length === 0 ? 'No watches yet: smkit watch add USERNAME' : watchTable(all))
			return
		}
		if (action === 'remove') {
			const id = idOf(args[0])
			if (!watches.delete(id)) throw new NotFoundError(`No watch ${id}`)
			if (options.json) printJson({ removed: id })
			else print(`Removed watch ${id} and its snapshots`)
			return
		}
		if (action === 'diff') return diff(watches, args, options)
		if (action === 'show') {
			const id = idOf(args[0])
			const watch = watches.get(id)
			if (!watch) throw new NotFoundError(`No watch ${id}`)
			const snapshots = watches.snapshots(id)
			return options.json ? printJson({ watch, snapshots }) : print(historyText(watch, snapshots))
		}
		await run(store, watches, args, options)
	} catch (error) {
		if (isSqliteError(error)) throw storeError(options.dbPath, error)
		throw error
	} finally {
		store.close()
	}
}

async function add(watches: WatchStore, args: unknown[], options: WatchCommandOptions): Promise<void> {
	if (args.length !== 1) throw new UsageError('watch add takes one TARGET: a username or #hashtag')
	const spec = watchSpecOf(String(args[0]), options.every ?? '1d', options.followers)
	try {
		// Already watched: said before Instagram is asked anything.
		watches.ensureNew(spec)
		if (!options.skipCheck && spec.kind === 'account') {
			const warning = await withInstagram(options, (ig) =>
				checkWatchTarget(ig, spec, 'add it with --skip-check')
			)
			if (warning) warn(warning)
		}
		const watch = watches.create(spec)
		if (options.json) printJson(watch)
		else
			print(
				`Watch ${watch.id}: ${label(watch)} every ${watch.every}${watch.followers ? ' with its follower list' : ''}; due now (smkit watch run)`
			)
	} catch (error) {
		if (error instanceof WatchExistsError) throw new UsageError(error.message)
		throw error
	}
}

function diff(watches: WatchStore, args: unknown[], options: WatchCommandOptions): void {
	const id = idOf(args[0])
	if (!watches.get(id)) throw new NotFoundError(`No watch ${id}`)
	const snapshots = watches.snapshots(id)
	const to = options.to ?? snapshots[snapshots.length - 1]?.id
	const from = options.from ?? snapshots.filter((snapshot) => to === undefined || snapshot.id < to).pop()?.id
	if (to === undefined || snapshots.length < 2)
		throw new UsageError(
			`Watch ${id} has ${snapshots.length} snapshot${snapshots.length === 1 ? '' : 's'}; a diff needs two (smkit watch run)`
		)
	if (from === undefined)
		throw new UsageError(`Watch ${id} has no snapshot before ${to} to compare it with: give --from`)
	const checked = watches.checkedDiff(id, from, to, { from: '--from', to: '--to' })
	if (!('diff' in checked))
		throw checked.code === 'not_found' ? new NotFoundError(checked.message) : new UsageError(checked.message)
	const result = checked.diff
	if (options.json) printJson(result)
	else print(diffText(result))
}

async function run(store: Store, watches: WatchStore, args: unknown[], options: WatchCommandOptions) {
	// An id given twice is run once: two snapshots a second apart would make the default diff empty.
	const ids = [...new Set(args.map(idOf))]
	for (const id of ids) {
		const watch = watches.get(id)
		if (!watch) throw new NotFoundError(`No watch ${id}`)
		const otherWorld = watches.otherWorld(watch)
		if (otherWorld) throw new UsageError(otherWorld)
	}
	// Without ids, the due ones: each is run only if still due when its turn comes (see runIfDue).
	const dueAt = ids.length > 0 ? undefined : new Date()
	const targets = dueAt ? watches.due(dueAt) : ids.map((id) => watches.get(id) as Watch)
	// Due watches of the other Instagram (demo or real) wait for a run of their own: said, not run.
	const elsewhere = dueAt
		? watches.list().filter((watch) => watch.next_run_at <= dueAt.toISOString() && watches.otherWorld(watch))
		: []
	if (elsewhere.length > 0)
		warn(
			`Not run here: ${elsewhere.map((watch) => `watch ${watch.id} ${label(watch)}`).join(', ')} (${options.demo ? 'Instagram: run smkit watch run without --demo' : 'demo mode: run smkit watch run --demo'})`
		)
	if (targets.length === 0) {
		const next = watches.list().sort((left, right) => (left.next_run_at < right.next_run_at ? -1 : 1))[0]
		const message = next
			? `No watch is due; the next is ${label(next)} at ${when(next.next_run_at)}`
			: 'No watches yet'
		// With --json, standard output is the (empty) list of runs; the reason goes to standard error.
		if (options.json) {
			printJson([])
			warn(message)
		} else print(message)
		return
	}
	const outcomes: WatchOutcome[] = []
	const interrupted = await withInstagram(options, (ig) =>
		runEach(store, watches, { targets, dueAt }, ig, options, outcomes)
	)
	if (options.json) printJson(outcomes)
	const failed = outcomes.filter((outcome) => outcome.error !== undefined)
	if (failed.length > 0) {
		warn(
			`${failed.length} of ${outcomes.length} watch${outcomes.length === 1 ? '' : 'es'} failed: ${failed.map((outcome) => `${outcome.watch.id} (${label(outcome.watch)})`).join(', ')}`
		)
		process.exitCode = 1
	}
	if (interrupted) {
		warn('Interrupted: run smkit watch run again (a follower list continues where it stopped).')
		process.exitCode = 130
	}
}

/** Runs the watches one after another into `outcomes`; true when Ctrl-C (or SIGTERM) stopped them. */
async function runEach(
	store: Store,
	watches: WatchStore,
	{ targets, dueAt }: { targets: Watch[]; dueAt: Date | undefined },
	ig: InstagramClient,
	options: WatchCommandOptions,
	outcomes: WatchOutcome[]
): Promise<boolean> {
	const scheduler = new WatchScheduler({
		watches,
		jobs: new JobStore(store, { demo: options.demo }),
		ig,
		dataDir: dirname(options.dbPath)
	})
	let interrupted = false
	const interrupt = () => {
		interrupted = true
		void scheduler.stop()
	}
	process.once('SIGINT', interrupt)
	process.once('SIGTERM', interrupt)
	try {
		for (const watch of targets) {
			if (interrupted) break
			try {
				const snapshot = dueAt ? await scheduler.runIfDue(watch.id, dueAt) : await scheduler.run(watch.id)
				if (!snapshot) {
					// A playground on the same --db runs it now, or ran it since this run began.
					const line = `skip    watch ${watch.id} ${label(watch)}: run by another process`
					options.json ? warn(line) : print(line)
					continue
				}
				// The watch as the run left it (last run, status, next run), not as it was before.
				outcomes.push({ watch: watches.get(watch.id) ?? watch, snapshot })
				if (!options.json) {
					const counts =
						watch.kind === 'hashtag'
							? `${snapshot.media_count?.toLocaleString('en-US')} posts`
							: `${snapshot.followers?.toLocaleString('en-US')} followers${snapshot.follower_list_size === null ? '' : ` (list of ${snapshot.follower_list_size.toLocaleString('en-US')})`}`
					print(`ok      watch ${watch.id} ${label(watch)}: snapshot ${snapshot.id}, ${counts}`)
				}
			} catch (error) {
				// Stopped by Ctrl-C, not failed: no FAILED line, and the watch keeps its status.
				if (interrupted) break
				// An expired or challenged session says how to fix it: cron mails this line to someone.
				const message = (withSessionAdvice(error, ig.loggedIn) as Error).message
				outcomes.push({ watch: watches.get(watch.id) ?? watch, error: message })
				warn(`FAILED  watch ${watch.id} ${label(watch)}: ${message}`)
			}
		}
	} finally {
		process.off('SIGINT', interrupt)
		process.off('SIGTERM', interrupt)
		await scheduler.stop()
	}
	return interrupted
}
