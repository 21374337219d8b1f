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
import { Type } from '@sinclair/typebox'
import { didYouMean, NotFoundError, UsageError } from '../cli-error'
import { loadEnvFile, mergeEnv } from '../client/env'
import { dbPathOption, demoOption, envPathOption, type ParsedOptions, parseOptions } from '../server/options'
import { resolveUpstream, upstreamOptions } from '../server/upstream-options'
import { DEFAULT_DB_PATH, isSqliteError, openStore, storeError } from '../store/db'
import { checkWatchTarget } from './check'
import { runWatches } from './cli-run'
import { pendingList, pendingListLine, runCommand } from './cli-show'
import { diffText, historyText, idOf, print, printJson, type ShownWatch, warn, watchTable } from './cli-text'
import { withInstagram } from './command-client'
import { label } from './scheduler'
import { WatchExistsError, WatchStore } from './store'
import { watchSpecOf } from './target'
import type { Watch, WatchSpec } from './types'

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
	const arity = arityProblem(action, args)
	if (arity) throw new UsageError(arity)
	// Only add makes a store: a mistyped --db is said instead of listing or running an empty new file.
	if (action !== 'add' && options.dbPath !== ':memory:' && !existsSync(options.dbPath)) {
		const missing = `there is no store at ${options.dbPath} yet (smkit watch add creates it; --db names another)`
		if (args.length > 0) throw new NotFoundError(`No watch ${idOf(args[0])}: ${missing}`)
		if (options.json) printJson([])
		warn(`No watches: ${missing}`)
		return
	}
	// Bad usage is said before the store is opened, so none leaves an empty store behind: add's
	// target and interval, and the upstream settings of the actions that ask Instagram.
	const spec = action === 'add' ? addSpec(args, options) : undefined
	if (action === 'add' || action === 'run') checkUpstream(options)
	const store = openStore(options.dbPath)
	try {
		const watches = new WatchStore(store, { demo: options.demo })
		if (spec) return await add(watches, spec, options)
		if (action === 'list') {
			const all = watches.list().map((watch) => shownWatch(watches, watch))
			if (options.json) printJson(all)
			else print(all.length === 0 ? 'No watches yet: smkit watch add USERNAME' : watchTable(all))
			return
		}
		if (action === 'remove') {
			const id = idOf(args[0])
			if (!watches.delete(id)) throw new NotFoundError(`No watch ${id} (smkit watch list lists them)`)
			if (options.json) printJson({ removed: id })
			else print(`Removed watch ${id} and its snapshots`)
			return
		}
		if (action === 'diff') return diff(watches, args, options)
		if (action === 'show') {
			const id = idOf(args[0])
			const watch = watches.get(id)
			if (!watch) throw new NotFoundError(`No watch ${id} (smkit watch list lists them)`)
			const snapshots = watches.snapshots(id)
			const shown = shownWatch(watches, watch)
			if (options.json) return printJson({ watch: shown, snapshots })
			const list = shown.pending_list
			const notes = list ? [pendingListLine(watch, list, options)] : []
			return print(historyText(shown, snapshots, notes, runCommand(watch, options)))
		}
		await runWatches(store, watches, args, options)
	} catch (error) {
		if (isSqliteError(error)) throw storeError(options.dbPath, error)
		throw error
	} finally {
		store.close()
	}
}

/** Why the arguments do not fit the action (list takes none; show, diff and remove one watch ID), or undefined. */
function arityProblem(action: string, args: unknown[]): string | undefined {
	if (action === 'list' && args.length > 0) return 'watch list takes no arguments'
	if ((action === 'remove' || action === 'diff' || action === 'show') && args.length !== 1)
		return `watch ${action} takes one watch ID`
}

/**
 * A watch as `watch list` and `watch show` give it, as the API's watch list: whether another process
 * (a playground, a cron run) runs it now, and the follower list waiting for its run (`pending_list`).
 */
function shownWatch(watches: WatchStore, watch: Watch): ShownWatch {
	return {
		...watch,
		running: watches.leases.heldElsewhere(watch.id),
		pending_list: pendingList(watches, watch)
	}
}

/**
 * The proxies and speed as `withInstagram` resolves them (environment file, then the process's):
 * a bad one (`--proxy-mode` without proxies, SMKIT_SPEED=bogus) throws its UsageError here, before
 * the store is opened or created. Read again when Instagram is asked.
 */
function checkUpstream(options: WatchCommandOptions): void {
	resolveUpstream(options, mergeEnv(loadEnvFile(options.envPath)), options.demo)
}

/** The watch `watch add TARGET` makes; no target or a bad one, or a bad --every, is bad usage. */
function addSpec(args: unknown[], options: WatchCommandOptions): WatchSpec {
	if (args.length !== 1) throw new UsageError('watch add takes one TARGET: a username or #hashtag')
	return watchSpecOf(String(args[0]), options.every ?? '1d', options.followers)
}

/**
 * `watch add TARGET`. A target already watched is a state of the store, not a mistyped command: a
 * failure (exit 1, `failed` with --json; the playground answers it 400 `bad_request`, a code that
 * smkit's commands keep for usage mistakes, exit 2).
 */
async function add(watches: WatchStore, spec: WatchSpec, options: WatchCommandOptions): Promise<void> {
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
				`Watch ${watch.id}: ${label(watch)} every ${watch.every}${watch.followers ? ' with its follower list' : ''}; due now (smkit watch run${watch.demo ? ' --demo' : ''})`
			)
	} catch (error) {
		if (error instanceof WatchExistsError) throw new Error(error.messageFor(options.demo))
		throw error
	}
}

/**
 * `watch diff ID [--from S] [--to S]`. A watch with fewer than two snapshots has nothing to compare
 * yet: a failure (exit 1, `failed`), as an unknown watch is; the snapshots given wrong are bad usage.
 */
function diff(watches: WatchStore, args: unknown[], options: WatchCommandOptions): void {
	const id = idOf(args[0])
	const watch = watches.get(id)
	if (!watch) throw new NotFoundError(`No watch ${id} (smkit watch list lists them)`)
	const snapshots = watches.snapshots(id)
	const to = options.to ?? snapshots[snapshots.length - 1]?.id
	const from = options.from ?? snapshots.filter((snapshot) => to === undefined || snapshot.id < to).pop()?.id
	if (to === undefined || snapshots.length < 2)
		throw new Error(
			`Watch ${id} has ${snapshots.length} snapshot${snapshots.length === 1 ? '' : 's'}; a diff needs two (${runCommand(watch, options)})`
		)
	if (from === undefined)
		throw new UsageError(`Watch ${id} has no snapshot before ${to} to compare it with: give --from`)
	// --to left to its default, the latest: --from naming it (or later) has nothing after it.
	if (options.to === undefined && options.from !== undefined && options.from >= to)
		throw new UsageError(
			`--from ${options.from} is not before the latest snapshot of watch ${id} (${to}): give an older --from, or --to`
		)
	const checked = watches.checkedDiff(id, from, to, { from: '--from', to: '--to' })
	if (!('diff' in checked))
		throw checked.code === 'not_found' ? new NotFoundError(checked.message) : new UsageError(checked.message)
	const result = checked.diff
	if (options.json) printJson(result)
	else print(diffText(result))
}
