/**
 * `smkit ask` options: cac's untyped values turned into a typed object before anything runs
 * (STYLE.md 3.6). Bad values are a UsageError (exit code 2).
 */
import { UsageError } from '../cli-error'
import { maxParallelTasks } from './parallel'
import { type PermissionLevel, parsePermissionLevel, permissionLevels } from './permissions'

/** Typed `smkit ask` options. */
export interface AskCliOptions {
	/** The one-shot question ('' when none). */
	question: string
	/** Tasks for `--parallel` (the question plus the remaining positional arguments). */
	tasks: string[]
	interactive: boolean
	parallel: boolean
	provider?: string
	model: string
	apiKey?: string
	baseURL?: string
	envPath: string
	permission: PermissionLevel
	maxSteps: number
	timeoutSeconds: number
	quiet: boolean
	json: boolean
	demo: boolean
}

function text(value: unknown): string | undefined {
	if (value === undefined || value === null || value === false || value === true) return undefined
	return String(value)
}

function integerOption(name: string, value: unknown, fallback: number, min: number, max: number): number {
	if (value === undefined || value === null) return fallback
	const number = typeof value === 'number' ? value : Number(String(value).trim())
	if (!Number.isInteger(number) || number < min || number > max) {
		throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${String(value)}').`)
	}
	return number
}

function numberOption(name: string, value: unknown, fallback: number, min: number, max: number): number {
	if (value === undefined || value === null) return fallback
	const number = typeof value === 'number' ? value : Number(String(value).trim())
	if (!Number.isFinite(number) || number < min || number > max) {
		throw new UsageError(
			`--${name} must be a number of seconds from ${min} to ${max} (got '${String(value)}').`
		)
	}
	return number
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
	const requested = text(raw.permission) ?? 'ask_once'
	const level = parsePermissionLevel(requested)
	if (!level)
		throw new UsageError(`--permission must be one of ${permissionLevels.join(', ')} (got '${requested}').`)
	const options: AskCliOptions = {
		question: words.join(' ').trim(),
		tasks: words.map((word) => word.trim()).filter(Boolean),
		interactive: raw.interactive === true || raw.i === true,
		parallel: raw.parallel === true,
		provider: text(raw.provider),
		model: text(raw.model) ?? 'auto',
		apiKey: text(raw.apiKey),
		baseURL: text(raw.baseUrl),
		envPath: text(raw.env) ?? '.env',
		permission: raw.fullAccess === true ? 'full_access' : level,
		maxSteps: integerOption('max-steps', raw.maxSteps, 15, 1, 100),
		timeoutSeconds: numberOption('timeout', raw.timeout, 30, 1, 3600),
		quiet: raw.quiet === true,
		json: raw.json === true,
		demo: raw.demo === true
	}
	if (options.parallel && options.interactive) throw new UsageError('--parallel and -i cannot be combined.')
	if (options.parallel && options.tasks.length === 0) {
		throw new UsageError('--parallel needs tasks: smkit ask --parallel "task one" "task two" ...')
	}
	if (options.parallel && options.tasks.length > maxParallelTasks) {
		throw new UsageError(
			`At most ${maxParallelTasks} tasks can run in parallel (got ${options.tasks.length}).`
		)
	}
	if (options.json && options.interactive)
		throw new UsageError('--json works with one-shot and --parallel asks only.')
	return options
}
