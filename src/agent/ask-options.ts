/**
 * `smkit ask` options: cac's untyped values turned into a typed object before anything runs
 * (docs/architecture.md, "Configuration and credentials"). Bad values are a UsageError (exit code 2).
 */
import { Type } from '@sinclair/typebox'
import { UsageError } from '../cli-error'
import { demoOption, envPathOption, givenOnly, type ParsedOptions, parseOptions } from '../server/options'
import { upstreamOptions } from '../server/upstream-options'
import { permissionOption, providerOptions } from './options'
import { maxParallelTasks } from './parallel'
import type { PermissionLevel } from './permissions'

const switchOption = (flag: string, description: string) =>
	Type.Boolean({ default: false, flag, description })

/** The options of `smkit ask`, registered with cac and validated from these schemas. */
export const askOptions = {
	interactive: switchOption('-i, --interactive', 'Interactive chat mode'),
	...providerOptions,
	envPath: envPathOption,
	// Without its default here: whether --permission was given decides whether --full-access conflicts.
	permission: givenOnly(permissionOption, 'Agent permission: ask_every, ask_once or full_access'),
	fullAccess: switchOption('--full-access', 'Skip all permission checks'),
	parallel: switchOption('--parallel', 'Run the question and extra arguments as parallel tasks'),
	maxSteps: Type.Integer({
		minimum: 1,
		maximum: 100,
		default: 15,
		flag: '--max-steps <n>',
		description: 'Maximum agent steps',
		error: "--max-steps must be a whole number from 1 to 100 (got '{value}')."
	}),
	timeoutSeconds: Type.Number({
		minimum: 1,
		maximum: 3600,
		default: 30,
		flag: '--timeout <seconds>',
		description: 'Code execution time-out in seconds',
		error: "--timeout must be a number of seconds from 1 to 3600 (got '{value}')."
	}),
	quiet: switchOption('--quiet', 'Print only the answer'),
	json: switchOption('--json', 'Print the ask response as JSON'),
	demo: demoOption,
	...upstreamOptions
}

/** Typed `smkit ask` options. */
export type AskCliOptions = Omit<ParsedOptions<typeof askOptions>, 'fullAccess' | 'permission'> & {
	/** `--permission`, or `full_access` for `--full-access` (default `ask_once`). */
	permission: PermissionLevel
	/** The one-shot question ('' when none). */
	question: string
	/** Tasks for `--parallel` (the question plus the remaining positional arguments). */
	tasks: string[]
}

/** Positional words: cac gives a string (or array, for a variadic argument) plus anything after `--`. */
function positionals(question: unknown, raw: Record<string, unknown>): string[] {
	const first = Array.isArray(question) ? question : question === undefined ? [] : [question]
	const rest = Array.isArray(raw['--']) ? raw['--'] : []
	return [...first, ...rest].map((word) => String(word))
}

/** Parses cac's values for `ask [question]`. Throws UsageError for bad values or combinations. */
export function parseAskOptions(question: unknown, raw: Record<string, unknown>): AskCliOptions {
	const words = positionals(question, raw)
	const { fullAccess, ...parsed } = parseOptions(askOptions, raw)
	// --full-access is --permission full_access: another level given with it is a contradiction, not
	// a choice for smkit to settle (the wider access would win without a word).
	if (fullAccess && parsed.permission !== undefined && parsed.permission !== 'full_access') {
		throw new UsageError(
			`--permission ${parsed.permission} and --full-access conflict (--full-access means --permission full_access): give one of them.`
		)
	}
	const options: AskCliOptions = {
		...parsed,
		question: words.join(' ').trim(),
		tasks: words.map((word) => word.trim()).filter(Boolean),
		permission: fullAccess ? 'full_access' : (parsed.permission ?? 'ask_once')
	}
	if (options.parallel && options.interactive) throw new UsageError('--parallel and -i cannot be combined.')
	if (options.interactive && words.length > 0) {
		throw new UsageError(
			'-i starts a conversation and takes no question: type it at the prompt, or leave out -i to ask once.'
		)
	}
	if (!options.parallel && words.length > 0 && !options.question) {
		throw new UsageError('The question is empty: smkit ask "QUESTION", or smkit ask -i for a conversation.')
	}
	const blankTask = words.findIndex((word) => !word.trim())
	if (options.parallel && blankTask >= 0) {
		throw new UsageError(`--parallel: task ${blankTask + 1} is empty; give each task some words.`)
	}
	if (options.parallel && options.tasks.length === 0) {
		throw new UsageError('--parallel needs tasks: smkit ask --parallel "task one" "task two" ...')
	}
	if (options.parallel && options.tasks.length > maxParallelTasks) {
		throw new UsageError(
			`At most ${maxParallelTasks} tasks per --parallel ask (got ${options.tasks.length}).`
		)
	}
	if (options.json && options.interactive)
		throw new UsageError('--json works with one-shot and --parallel asks only.')
	// Without a question, ask starts a conversation, which has no JSON form.
	if (options.json && !options.parallel && !options.question)
		throw new UsageError(
			'The question is missing: smkit ask "QUESTION" --json (a conversation, -i, has no JSON form).'
		)
	return options
}
