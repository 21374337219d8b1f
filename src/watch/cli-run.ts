/**
 * `smkit watch run [ID...]`: the due watches (or those named) one after another, each a snapshot,
 * reported as a line (or JSON) each; exit 1 when one failed, 130 when Ctrl-C stopped the run (143
 * SIGTERM, 129 SIGHUP: 128 + the signal's number, each stopping it as Ctrl-C does). A
 * watch removed before or during its turn did not fail: it is skipped, as one another process runs.
 */
import { dirname } from 'node:path'
import { NotFoundError, UsageError } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { withSessionAdvice } from '../client/session-health'
import { shellWord } from '../jobs/outside'
import { ProgressReporter } from '../jobs/progress'
import { interruptedBy, onStopSignals, type StopSignals } from '../jobs/stop-signals'
import { JobStore } from '../jobs/store'
import { DEFAULT_ENV_PATH } from '../server/options'
import { DEFAULT_DB_PATH, type Store } from '../store/db'
import type { WatchCommandOptions } from './cli'
import { idOf, print, printJson, warn, when } from './cli-text'
import { type CommandDemoTime, withInstagram } from './command-client'
import { label, type WatchOutcome, WatchScheduler } from './scheduler'
import type { WatchStore } from './store'
import type { Watch } from './types'

/** Why a due watch was not run here (`skipped` of its outcome). */
const SKIPPED = 'run by another process'

/** Why a watch removed before or during its turn has no outcome of its own (`skipped`). */
const REMOVED = 'removed'

/** Runs the watches named by `args` (ids), or every due one. */
export async function runWatches(
	store: Store,
	watches: WatchStore,
	args: unknown[],
	options: WatchCommandOptions
) {
	// An id given twice is run once: two snapshots a second apart would make the default diff empty.
	const ids = [...new Set(args.map(idOf))]
	for (const id of ids) {
		const watch = watches.get(id)
		if (!watch) throw new NotFoundError(`No watch ${id} (smkit watch list lists them)`)
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
		const all = watches.list()
		const own = all.filter((watch) => !watches.otherWorld(watch))
		const next = own.sort((left, right) => (left.next_run_at < right.next_run_at ? -1 : 1))[0]
		const message = next
			? `No watch is due; the next is ${label(next)} at ${when(next.next_run_at)}`
			: all.length > 0
				? otherModeOnly(all.length, options.demo)
				: 'No watches yet'
		// With --json, standard output is the (empty) list of runs; the reason goes to standard error.
		if (options.json) {
			printJson([])
			warn(message)
		} else print(message)
		return
	}
	const outcomes: WatchOutcome[] = []
	/** The signal that stopped the run, once one has (its exit code). */
	const stopped: { by?: StopSignals } = {}
	// Demo time as a playground on this store left it, and as it moves it meanwhile: both read one
	// demo world, and a run it moved under takes its snapshot again.
	const left = await withInstagram(
		options,
		(ig, demoTime) => runEach(store, watches, { targets, dueAt }, ig, options, outcomes, demoTime, stopped),
		store,
		{ follow: true }
	)
	const interrupted = left !== undefined
	// Interrupted, the list would read as complete (`[]`: none due): JSON says it failed instead.
	if (options.json && !interrupted) printJson(outcomes)
	const failed = outcomes.filter((outcome) => outcome.error !== undefined)
	// Of the watches run here: one skipped (another process ran it, or it was removed) neither failed
	// nor ran.
	const ran = outcomes.filter((outcome) => outcome.skipped === undefined).length
	if (failed.length > 0) {
		warn(
			`${failed.length} of ${ran} watch${ran === 1 ? '' : 'es'} failed: ${failed.map((outcome) => `${outcome.watch.id} (${label(outcome.watch)})`).join(', ')}`
		)
		process.exitCode = 1
	}
	if (interrupted) {
		warn(interruptedAdvice(left, options))
		const stops = stopped.by as StopSignals
		if (options.json) throw interruptedBy(stops)
		process.exitCode = stops.exitCode
	}
}

/**
 * What to run after Ctrl-C stopped the run: `smkit watch run` with the ids of the watches `left`
 * (the one stopped, those not reached), since without ids only due watches run and a watch run by
 * id when not due would not be continued; with the --demo, --db and --env the run was given
 * (theirs when not the defaults), so it reads the same store and account.
 */
export function interruptedAdvice(
	left: readonly Pick<Watch, 'id'>[],
	options: Pick<WatchCommandOptions, 'demo' | 'dbPath' | 'envPath'>
): string {
	if (left.length === 0) return 'Interrupted: every watch of this run had stored its snapshot.'
	const ids = left.map((watch) => watch.id)
	const flags = [
		options.demo ? ' --demo' : '',
		options.dbPath === DEFAULT_DB_PATH ? '' : ` --db ${shellWord(options.dbPath)}`,
		options.envPath === DEFAULT_ENV_PATH ? '' : ` --env ${shellWord(options.envPath)}`
	].join('')
	const which =
		ids.length === 1 ? `watch ${ids[0]}` : `watches ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`
	return `Interrupted: run smkit watch run ${ids.join(' ')}${flags} to finish ${which} (a follower list continues where it stopped when run within the hour; later it starts over).`
}

/**
 * Why nothing ran when every watch of the store belongs to the other mode: "No watches yet" read
 * as if the store were empty.
 */
function otherModeOnly(count: number, demo: boolean): string {
	const these = count === 1 ? 'The 1 watch here is' : `The ${count} watches here are`
	return demo
		? `${these} of Instagram, not of demo mode: run smkit watch run without --demo`
		: `${these} of demo mode: run smkit watch run --demo`
}

/**
 * Runs the watches one after another into `outcomes`. Stopped by Ctrl-C (SIGTERM, SIGHUP): the watches
 * left, the one stopped first (a run waiting for another process's counts as stopped); else undefined.
 */
async function runEach(
	store: Store,
	watches: WatchStore,
	{ targets, dueAt }: { targets: Watch[]; dueAt: Date | undefined },
	ig: InstagramClient,
	options: WatchCommandOptions,
	outcomes: WatchOutcome[],
	demoTime: CommandDemoTime | undefined,
	stopped: { by?: StopSignals }
): Promise<Watch[] | undefined> {
	// A long follower list shows its progress on a terminal, as collect does (redrawn in place; no
	// lines for cron's mail). The line is cleared before the run's own line.
	let progress: { id: number; reporter: ProgressReporter } | undefined
	const endProgress = () => {
		progress?.reporter.finish()
		progress = undefined
	}
	const scheduler = new WatchScheduler({
		watches,
		jobs: new JobStore(store, { demo: options.demo }),
		ig,
		dataDir: dirname(options.dbPath),
		beforeRun: demoTime?.sync,
		demoTime: demoTime?.hours,
		onEvent: process.stderr.isTTY
			? (watch, event) => {
					if (progress?.id !== watch.id) {
						endProgress()
						progress = {
							id: watch.id,
							reporter: new ProgressReporter(process.stderr, `watch ${watch.id} ${label(watch)} followers`)
						}
					}
					progress.reporter.event(event)
				}
			: undefined
	})
	/** A watch not run here: listed with why (`skipped`), on its own line; neither ran nor failed. */
	const skip = (watch: Watch, why: string) => {
		outcomes.push({ watch: watches.get(watch.id) ?? watch, skipped: why })
		const line = `skip    watch ${watch.id} ${label(watch)}: ${why}`
		options.json ? warn(line) : print(line)
	}
	let interrupted = false
	let next = 0
	const stops = onStopSignals(() => {
		interrupted = true
		void scheduler.stop()
	})
	stopped.by = stops
	try {
		for (; next < targets.length; next++) {
			const watch = targets[next] as Watch
			if (interrupted) break
			try {
				const snapshot = await (dueAt
					? scheduler.runIfDue(watch.id, dueAt)
					: scheduler.run(watch.id)
				).finally(endProgress)
				// A playground on the same --db runs it now, or ran it since this run began. JSON lists
				// it too: `[]` says none was due, not that one was left to another process.
				if (!snapshot) {
					skip(watch, SKIPPED)
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
				// Removed meanwhile (`smkit watch remove` in another shell, a playground): the user's
				// choice, not a failure. Gone before its turn the scheduler fails it with `No watch N`,
				// during its run the run fails it as removed; either way the store no longer has it.
				if (!watches.get(watch.id)) {
					skip(watch, REMOVED)
					continue
				}
				// An expired or challenged session says how to fix it: cron mails this line to someone.
				const message = (withSessionAdvice(error, ig.loggedIn) as Error).message
				outcomes.push({ watch: watches.get(watch.id) ?? watch, error: message })
				warn(`FAILED  watch ${watch.id} ${label(watch)}: ${message}`)
			}
		}
	} finally {
		stops.off()
		await scheduler.stop()
	}
	return interrupted ? targets.slice(next) : undefined
}
