/**
 * Command-line options described by TypeBox schemas. Each option's schema carries its cac flag
 * (`flag`), help text (`description`), default and the message shown for a bad value (`error`,
 * where `{value}` stands for what was given), so one table both registers the flags and validates
 * cac's untyped values. A bad value is a UsageError (exit code 2).
 *
 * A command's options: `{ ...serverOptions(8877), savedDir: Type.String({ flag: '--saved-dir <dir>', ... }) }`.
 */
import { statSync } from 'node:fs'
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
 * `--env <path>`: the environment file a command reads its credentials from. A folder is refused:
 * nothing can be read from it, so the command would run as if no file had been given.
 */
export const envPathOption = Type.Transform(
	Type.String({
		minLength: 1,
		default: '.env',
		flag: '--env <path>',
		description: 'Environment file with credentials',
		error: "--env must be the path of a file, not a folder: '{value}'"
	})
)
	.Decode((path) => {
		if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new Error('a folder')
		return path
	})
	.Encode((path) => path)

/**
 * `--db <path>`: the SQLite file a command keeps its data in (`fallback` when not given). A folder is
 * refused as a usage mistake, naming the option, instead of failing later with SQLite's "unable to
 * open database file".
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
			if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new Error('a folder')
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
			const found = statSync(path, { throwIfNoEntry: false })
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

function messageOf(key: string, schema: TSchema, given: unknown): string {
	const { flag, error } = annotationsOf(schema)
	const name = flag ? (/--[a-z0-9-]+/i.exec(flag)?.[0] ?? flag) : key
	return (error ?? `${name} has an invalid value: '{value}'`).replaceAll('{value}', String(given))
}

/**
 * A number typed in plain decimal: digits (at most 15, so none is rounded), and for a `number` a
 * fraction after a point. Anything else is NaN, which the schema refuses with the option's message:
 * `Number()` alone read `0x10` as 16, `1e3` as 1000 and `+7` as 7, forms the HTTP API
 * refuses too (docs/api-contract.md, "Data").
 */
function numberOf(text: string, type: 'integer' | 'number'): number {
	const plain = type === 'integer' ? /^\d{1,15}$/ : /^\d{1,15}(\.\d{1,15})?$/
	return plain.test(text) ? Number(text) : Number.NaN
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
		if ((schema.type === 'integer' || schema.type === 'number') && typeof value === 'string')
			value = numberOf(value, schema.type)
		try {
			result[key] = Value.Decode(schema, value)
		} catch {
			throw new UsageError(messageOf(key, schema, given))
		}
	}
	return result as ParsedOptions<Properties>
}
