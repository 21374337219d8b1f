/**
 * `smkit analytics USERNAME` and `smkit compare A B [C...]`: the playground's analytics figures on the
 * command line, as tables (the best value of each compared row marked with *) or `--json`.
 */
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { normalize } from 'node:path'
import { Type } from '@sinclair/typebox'
import { jsonText, terminalLine, terminalText, UsageError } from '../cli-error'
import { IgArgumentError } from '../client/errors'
import { withSessionAdvice } from '../client/session-health'
import {
	Analytics,
	COMPARE_MAX,
	COMPARE_MIN,
	DEFAULT_ANALYTICS_POSTS,
	MAX_ANALYTICS_POSTS
} from '../client/tools/analytics'
import type { Comparison, ProfileAnalytics } from '../client/types'
import { interruptedBy, onStopSignals } from '../jobs/stop-signals'
import { dbPathOption, demoOption, envPathOption, type ParsedOptions, parseOptions } from '../server/options'
import { formatTable } from '../server/table'
import { upstreamOptions } from '../server/upstream-options'
import { DEFAULT_DB_PATH, missingStoreFolder, type Store } from '../store/db'
import { storedDemoHours } from '../store/demo-clock'
import { withInstagram } from './command-client'

/** The options of `smkit analytics` and `smkit compare`. */
export const analyticsOptions = {
	posts: Type.Integer({
		minimum: 1,
		maximum: MAX_ANALYTICS_POSTS,
		default: DEFAULT_ANALYTICS_POSTS,
		flag: '--posts <n>',
		description: `How many recent posts the figures come from (1-${MAX_ANALYTICS_POSTS})`,
		error: `--posts must be a whole number from 1 to ${MAX_ANALYTICS_POSTS}, got '{value}'`
	}),
	json: Type.Boolean({ default: false, flag: '--json', description: 'Print JSON instead of tables' }),
	envPath: envPathOption,
	demo: demoOption,
	dbPath: dbPathOption(
		"With --demo: the store whose demo time the figures are read at (a playground's Advance demo time); only read, never created or changed",
		DEFAULT_DB_PATH
	),
	...upstreamOptions
}

/** Validated options of `smkit analytics` and `smkit compare`. */
export type AnalyticsCommandOptions = ParsedOptions<typeof analyticsOptions>

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
const date = (time: number | null) =>
	time === null ? null : new Date(time * 1000).toISOString().slice(0, 10)

/** The slot (or every slot of a tie) holding the most posts, named, e.g. `Mon, Thu (7 posts each)`. */
export function busiest(counts: number[], name: (slot: number) => string): string {
	const most = Math.max(...counts)
	const slots = counts.flatMap((count, slot) => (count === most ? [name(slot)] : []))
	return slots.length === 1 ? (slots[0] as string) : `${slots.join(', ')} (${most} posts each)`
}

/** A profile's figures as text. */
export function analyticsText(figures: ProfileAnalytics): string {
	const terms = (list: { term: string; posts: number }[], prefix: string) =>
		list.length === 0 ? '-' : list.map((entry) => `${prefix}${entry.term} (${entry.posts})`).join(', ')
	const hourName = (hour: number) => `${String(hour).padStart(2, '0')}:00`
	return [
		terminalLine(`@${figures.username}${figures.full_name ? ` (${figures.full_name})` : ''}`) +
			`: ${figures.posts_analyzed} recent posts, ${date(figures.first_post_at) ?? '-'} to ${date(figures.last_post_at) ?? '-'}`,
		'',
		formatTable(
			['figure', 'value'],
			[
				['Followers', figures.follower_count],
				['Following', figures.following_count],
				['Posts (total)', figures.media_count],
				['Average likes', figures.avg_likes],
				['Average comments', figures.avg_comments],
				['Engagement rate (%)', figures.engagement_rate],
				['Posts per week', figures.posts_per_week],
				[
					'Busiest weekday (UTC)',
					figures.posts_analyzed ? busiest(figures.by_weekday, (day) => WEEKDAYS[day] as string) : null
				],
				['Busiest hour (UTC)', figures.posts_analyzed ? busiest(figures.by_hour, hourName) : null],
				[
					'Media mix',
					`${figures.media_mix.photo} photo, ${figures.media_mix.video} video, ${figures.media_mix.reel} reel, ${figures.media_mix.carousel} carousel`
				]
			]
		),
		'',
		`Top hashtags: ${terms(figures.top_hashtags, '#')}`,
		`Top mentions: ${terms(figures.top_mentions, '@')}`,
		'',
		'Top posts:',
		formatTable(
			['likes', 'comments', 'date', 'url'],
			figures.top_posts.map((post) => [post.like_count, post.comment_count, date(post.taken_at), post.url])
		)
	].join('\n')
}

/** A comparison as a table; the best value of each ranked row carries a `*`. */
export function comparisonText(comparison: Comparison): string {
	const show = (value: number | null) =>
		value === null ? '-' : value.toLocaleString('en-US', { maximumFractionDigits: 3 })
	return [
		formatTable(
			['figure', ...comparison.usernames.map((name) => `@${name}`)],
			comparison.rows.map((row) => [
				row.label,
				...row.values.map((value, index) =>
					row.best !== null && row.best === comparison.usernames[index]
						? `${show(value)} *`
						: `${show(value)}  `
				)
			]),
			comparison.usernames.map((_, index) => index + 1)
		),
		'',
		'* the best value of the row'
	].join('\n')
}

/** A store read through a read-only connection: its demo time is read, nothing is written. */
function readOnlyStore(db: Database, path: string): Store {
	return { db, path, transaction: (work) => db.transaction(work)(), close: () => db.close() }
}

/**
 * The store whose demo time the `--demo` figures are read at, opened read-only: these commands keep
 * nothing, so no file is made, migrated or written (an empty or text file stays as it is). A --db in
 * a folder that does not exist is bad usage (a UsageError, as for every command). Undefined, and the
 * simulator at the moment demo time starts, without --demo; when the default store is not there
 * (said of nothing); when a --db given is not there (`No store at X`, said); or when the file's demo
 * time cannot be read (not a database, not a smkit store: `cannot read demo time from X`, with why).
 */
export function demoTimeStore(options: Pick<AnalyticsCommandOptions, 'demo' | 'dbPath'>): Store | undefined {
	const path = options.dbPath
	if (!options.demo || path === ':memory:') return undefined
	try {
		if (missingStoreFolder(path)) return undefined
	} catch (error) {
		throw error instanceof UsageError ? new UsageError(`--db ${path}: ${error.message}`) : error
	}
	const say = (line: string) => process.stderr.write(`${terminalText(line)}\n`)
	if (!existsSync(path)) {
		if (normalize(path) !== normalize(DEFAULT_DB_PATH)) say(`No store at ${path}: demo time as it starts`)
		return undefined
	}
	let db: Database | undefined
	try {
		db = new Database(path, { readonly: true, strict: true })
		const store = readOnlyStore(db, path)
		storedDemoHours(store)
		return store
	} catch (error) {
		db?.close()
		const reason = error instanceof Error ? error.message : String(error)
		say(`cannot read demo time from ${path}: ${reason}; demo time as it starts`)
		return undefined
	}
}

/**
 * Runs `work` on the command's client. Ctrl-C (or SIGTERM, SIGHUP) stops its requests and ends the
 * command as an InterruptedError (exit 130, 143, 129), so `--json` still prints the failure's JSON on
 * standard output (main.ts) instead of nothing; a second Ctrl-C quits at once.
 */
async function withAnalytics<Result>(
	raw: Record<string, unknown>,
	work: (analytics: Analytics, options: AnalyticsCommandOptions, signal: AbortSignal) => Promise<Result>
): Promise<Result> {
	const options = parseOptions(analyticsOptions, raw)
	// Demo figures at the demo time a playground or watch run left on the store, as theirs are.
	const store = demoTimeStore(options)
	const controller = new AbortController()
	const stops = onStopSignals(() => controller.abort(interruptedBy(stops)))
	let loggedIn = true
	try {
		return await withInstagram(
			options,
			(ig) => {
				loggedIn = ig.loggedIn
				return work(new Analytics(ig), options, controller.signal)
			},
			store
		)
	} catch (error) {
		// Whatever the stopped request threw (an abort, a network error naming it), Ctrl-C is the cause.
		if (controller.signal.aborted) throw interruptedBy(stops)
		if (error instanceof IgArgumentError) throw new UsageError(error.message)
		throw withSessionAdvice(error, loggedIn)
	} finally {
		store?.close()
		stops.off()
	}
}

/** `smkit analytics USERNAME`. */
export async function runAnalyticsCommand(username: unknown, raw: Record<string, unknown> = {}) {
	await withAnalytics(raw, async (analytics, options, signal) => {
		const figures = await analytics.profile(String(username ?? ''), { posts: options.posts, signal })
		process.stdout.write(`${options.json ? jsonText(figures) : analyticsText(figures)}\n`)
	})
}

/** `smkit compare A B [C...]`. */
export async function runCompareCommand(usernames: unknown, raw: Record<string, unknown> = {}) {
	const names = (Array.isArray(usernames) ? usernames : [usernames]).map(String)
	if (names.length < COMPARE_MIN || names.length > COMPARE_MAX)
		throw new UsageError(`compare takes ${COMPARE_MIN} to ${COMPARE_MAX} usernames, got ${names.length}`)
	await withAnalytics(raw, async (analytics, options, signal) => {
		const comparison = await analytics.compare(names, { posts: options.posts, signal })
		process.stdout.write(`${options.json ? jsonText(comparison) : comparisonText(comparison)}\n`)
	})
}
