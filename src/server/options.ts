/**
 * Command-line options described by TypeBox schemas. Each option's schema carries its cac flag
 * (`flag`), help text (`description`), default and the message shown for a bad value (`error`,
 * where `{value}` stands for what was given), so one table both registers the flags and validates
 * cac's untyped values. A bad value is a UsageError (exit code 2).
 *
 * A command's options: `{ ...serverOptions(8877), savedDir: Type.String({ flag: '--saved-dir <dir>', ... }) }`.
 */
import { type Stats, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { type StaticDecode, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { UsageError } from '../cli-error'

/** What a command's option schemas say beyond validation. */
interface FlagAnnotations {
	flag?: string
	description?: string
	error?: string
	default?: unknown
}

/**
 * What is at the path an option names (`statSync`), undefined when nothing is there. A path that
 * cannot name a file at all is bad usage, said as it is and naming the option: `--db: afile is a
 * file, not a folder`, `--db: the name is too long`. (`throwIfNoEntry` spares only a missing
 * path: the other errors of the call still throw, and were once reported as "a folder".)
 */
export function statOption(option: string, path: string): Stats | undefined {
	try {
		return statSync(path, { throwIfNoEntry: false })
	} catch (error) {
		throw new UsageError(`${option}: ${pathProblem(path, error)}`)
	}
}

/** Why `path` cannot be looked at (`error`, from `statSync`), in plain words. */
function pathProblem(path: string, error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code
	if (code === 'ENOTDIR') return `${fileOnTheWay(path)} is a file, not a folder`
	if (code === 'ENAMETOOLONG') return 'the name is too long'
	if (code === 'ELOOP') return `${path} is a loop of symbolic links`
	if (code === 'EACCES' || code === 'EPERM')
		return `cannot look into the folders of ${path} (permission denied)`
	// The system's words without the call and path they end with (`, stat 'x'`).
	return (error instanceof Error ? error.message : String(error)).replace(/,\s*[a-z]+\s+'[^']*'\s*$/, '')
}

/** The part of `path` that is a file where a folder should be (`afile` of `afile/s.db`). */
function fileOnTheWay(path: string): string {
	for (let part = path.replace(/(.)[\\/]+$/, '$1'); ; part = dirname(part)) {
		try {
			if (!statSync(part).isDirectory()) return part
		} catch {
			// Missing, or under the file: look one folder up.
		}
		if (dirname(part) === part) return dirname(path)
	}
}

/** The environment file a command reads when `--env` is not given. */
export const DEFAULT_ENV_PATH = '.env'

/**
 * `--env <path>`: the environment file a command reads its credentials from. A folder is refused:
 * nothing can be read from it, so the command would run as if no file had been given. A missing
 * file is fine (the environment alone is read), but not a path that no file can have (under a file).
 */
export const envPathOption = Type.Transform(
	Type.String({
		minLength: 1,
		default: DEFAULT_ENV_PATH,
		flag: '--env <path>',
		description: 'Environment file with credentials',
		error: "--env must be the path of a file, not a folder: '{value}'"
	})
)
	.Decode((path) => {
		if (statOption('--env', path)?.isDirectory()) throw new Error('a folder')
		return path
	})
	.Encode((path) => path)

/**
 * `--db <path>`: the SQLite file a command keeps its data in (`fallback` when not given). A folder is
 * refused as a usage mistake, naming the option, instead of failing later with SQLite's "unable to
 * open database file"; so is a path no file can have (`statOption`).
 */
export function dbPathOption(description: string, fallback: string) {
	return Type.Transform(
		Type.String({
			pattern: '^[^\\u0000]+$',
			default: fallback,
			flag: '--db <path>',
			description,
			error: "--db must be the path of a database file, not a folder: '{value}'"
		})
	)
		.Decode((path) => {
			if (statOption('--db', path)?.isDirectory()) throw new Error('a folder')
			return path
		})
		.Encode((path) => path)
}

/**
 * `--saved-dir <dir>`: a folder results are saved in (created when missing). An existing file is
 * refused as a usage mistake, naming the option, instead of every Save failing later.
 */
export function savedDirOption(fallback: string) {
	return Type.Transform(
		Type.String({
			pattern: '^[^\\u0000]+$',
			default: fallback,
			flag: '--saved-dir <dir>',
			description: 'Where saved results are kept',
			error: "--saved-dir must be a folder, not a file: '{value}'"
		})
	)
		.Decode((path) => {
			const found = statOption('--saved-dir', path)
			if (found && !found.isDirectory()) throw new Error('not a folder')
			return path
		})
		.Encode((path) => path)
}

/** `--demo`: the built-in simulated Instagram. */
export const demoOption = Type.Boolean({
	default: false,
	flag: '--demo',
	description: 'Use the built-in simulated Instagram'
})

/**
 * `schema` made optional and without a default, the default said in its help text instead: a value
 * then means the option was given on the command line, for an option that only applies with
 * another (`smkit mcp --port` needs `--http`). The command fills the default in itself.
 */
export function givenOnly<Schema extends TSchema>(schema: Schema, description: string) {
	const { default: fallback, ...rest } = schema as Schema & FlagAnnotations
	return Type.Optional({ ...rest, description: `${description} (default: ${fallback})` } as unknown as Schema)
}

/** The values a set of option schemas parses to. */
export type ParsedOptions<Properties extends TProperties> = StaticDecode<TObject<Properties>>

/** A command as cac builds it (the part `addOptions` uses). */
interface OptionTarget {
	option(flag: string, description: string, config?: { default?: unknown }): unknown
}

const annotationsOf = (schema: TSchema): FlagAnnotations => schema as FlagAnnotations

/** The key cac stores a flag's value under: `--cors-origin <origin>` is `corsOrigin`. */
export function cacKeyOf(flag: string): string {
	const long = /--([a-z0-9-]+)/i.exec(flag)?.[1] ?? flag.replace(/^-+/, '').split(/[\s,]/)[0]
	return long.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())
}

/** Registers every option that has a `flag` on a cac command, with its help text and default. */
export function addOptions<Command extends OptionTarget>(command: Command, properties: TProperties): Command {
	for (const schema of Object.values(properties)) {
		const { flag, description = '', default: fallback } = annotationsOf(schema)
		if (!flag) continue
		// Switches default to off without saying so in the help.
		command.option(flag, description, typeof fallback === 'boolean' ? undefined : { default: fallback })
	}
	return command
}

/** How a message names the option: its long flag (`--limit`), else its key. */
function flagName(key: string, schema: TSchema): string {
	const { flag } = annotationsOf(schema)
	return flag ? (/--[a-z0-9-]+/i.exec(flag)?.[0] ?? flag) : key
}

function messageOf(key: string, schema: TSchema, given: unknown): string {
	const { error } = annotationsOf(schema)
	return (error ?? `${flagName(key, schema)} has an invalid value: '{value}'`).replaceAll(
		'{value}',
		String(given)
	)
}

/**
 * A number typed in plain decimal, none rounded: for an `integer` digits up to
 * Number.MAX_SAFE_INTEGER, for a `number` at most 15 digits and a fraction of at most 15 after a
 * point. Anything else is NaN, which the schema refuses with the option's message: `Number()` alone
 * read `0x10` as 16, `1e3` as 1000 and `+7` as 7, forms the HTTP API refuses too
 * (docs/api-contract.md, "Data").
 */
function numberOf(text: string, type: 'integer' | 'number'): number {
	if (type === 'integer')
		return /^\d{1,16}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : Number.NaN
	return /^\d{1,15}(\.\d{1,15})?$/.test(text) ? Number(text) : Number.NaN
}

/**
 * Whether `text` is a whole number larger than an integer option takes and its message may not say
 * so: an option with a `maximum` names its range itself, one without says only its minimum
 * (`--limit must be a whole number of at least 1`), which was untrue of `9007199254740992`.
 */
function beyondSafeIntegers(schema: TSchema, text: string): boolean {
	return (
		schema.type === 'integer' &&
		schema.maximum === undefined &&
		/^\d+$/.test(text) &&
		Number.isNaN(numberOf(text, 'integer'))
	)
}

/** The UsageError a transform (`statOption`) threw, which TypeBox hands on wrapped in its own error. */
function usageErrorIn(error: unknown): UsageError | undefined {
	if (error instanceof UsageError) return error
	const cause = (error as { error?: unknown } | null)?.error
	return cause instanceof UsageError ? cause : undefined
}

/**
 * Validates cac's values (keyed as cac keys them, see `cacKeyOf`) against the schemas and returns
 * them under the schemas' own keys, defaults filled in and transforms applied. Absent and null
 * values take the default; a string option given as a bare switch counts as absent. An empty value
 * (`--limit ""`, often an unset shell variable) is missing, as `--limit=` is: taking the default
 * instead would run the whole list, or the default account, unasked.
 */
export function parseOptions<Properties extends TProperties>(
	properties: Properties,
	raw: Record<string, unknown> = {}
): ParsedOptions<Properties> {
	const result: Record<string, unknown> = {}
	for (const [key, schema] of Object.entries(properties)) {
		const { flag, default: fallback } = annotationsOf(schema)
		const given = raw[flag ? cacKeyOf(flag) : key]
		if (given === '' && flag)
			throw new UsageError(`${flag.split(' ')[0]} needs a value`, { pointToHelp: true })
		const absent =
			given === undefined ||
			given === null ||
			given === '' ||
			(typeof given === 'boolean' && schema.type === 'string')
		let value = absent ? fallback : typeof given === 'string' ? given.trim() : given
		if (value === undefined) {
			if (Value.Check(Type.Object({ value: schema }), {})) {
				result[key] = undefined
				continue
			}
			throw new UsageError(messageOf(key, schema, ''))
		}
		// A switch given before a word is passed on as `--full-access=true` (cli-argv.ts): cac keeps
		// the value of a hyphenated switch as the text 'true'.
		if (schema.type === 'boolean' && (value === 'true' || value === 'false')) value = value === 'true'
		// cac passes numbers for numeric words; TypeBox's own conversion would truncate 80.5 to 80.
		if (schema.type === 'string' && typeof value !== 'string') value = String(value)
		if (typeof value === 'string' && beyondSafeIntegers(schema, value))
			throw new UsageError(
				`${flagName(key, schema)} must be a whole number from ${schema.minimum ?? 0} to ${Number.MAX_SAFE_INTEGER}, got '${String(given)}'`
			)
		if ((schema.type === 'integer' || schema.type === 'number') && typeof value === 'string')
			value = numberOf(value, schema.type)
		try {
			result[key] = Value.Decode(schema, value)
		} catch (error) {
			// A transform's own reason (a path under a file, a name too long) is said as it is.
			throw usageErrorIn(error) ?? new UsageError(messageOf(key, schema, given))
		}
	}
	return result as ParsedOptions<Properties>
}
