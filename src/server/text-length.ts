/**
 * Text limits in characters: Unicode code points, as JSON Schema (and OpenAPI 3.1 with it) counts
 * `minLength` and `maxLength`, and as the servers' messages say. TypeBox's own string counts UTF-16
 * code units, so an emoji or 𝐀 (beyond U+FFFF: two units) would count twice, and 150 emoji would
 * exceed a limit of 200 characters.
 *
 * `Text(...)` is a string schema with the usual keywords (`minLength`, `maxLength`, `pattern`,
 * `description`, ...) whose check, a custom TypeBox kind, counts code points. Published (the
 * playground's OpenAPI document, the MCP tool list) it is a plain `{ type: 'string', maxLength }`
 * that means what it says; the kind itself is a symbol and is not published. `TrimmedText(...)`
 * counts the text with its surrounding white space dropped (`String.prototype.trim`), for a field
 * the handler trims. Text holding an unpaired UTF-16 surrogate (JSON can carry `"\ud800"`) is no
 * Unicode text: it is refused whatever its length.
 */
import { Kind, type SchemaOptions, type TUnsafe, Type, TypeRegistry } from '@sinclair/typebox'
import { GetErrorFunction, SetErrorFunction, ValueErrorType } from '@sinclair/typebox/errors'

/** The keywords of a text schema; lengths in characters (code points). */
export interface TextOptions extends SchemaOptions {
	minLength?: number
	maxLength?: number
	/** Checked on the text as given, as TypeBox does (without the `u` flag). */
	pattern?: string
}

/** Kind of `Text`: lengths count the text as given. */
const TEXT_KIND = 'CharacterText'
/** Kind of `TrimmedText`: lengths count the text with surrounding white space dropped. */
const TRIMMED_TEXT_KIND = 'TrimmedCharacterText'

/**
 * The characters (code points) of `text`, a surrogate pair counting once; -1 when `text` holds an
 * unpaired surrogate.
 */
export function characterCount(text: string): number {
	let count = 0
	for (let index = 0; index < text.length; index++, count++) {
		const code = text.charCodeAt(index)
		if (code < 0xd800 || code > 0xdfff) continue
		const next = text.charCodeAt(index + 1)
		// A high surrogate followed by a low one is one character; any other surrogate is unpaired.
		if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1
		index++
	}
	return count
}

/** What is wrong with a value for a text schema. */
type TextProblem = 'type' | 'unpaired' | 'short' | 'long' | 'pattern'

const patterns = new Map<string, RegExp>()
const patternOf = (source: string) => {
	let regex = patterns.get(source)
	if (!regex) {
		regex = new RegExp(source)
		patterns.set(source, regex)
	}
	return regex
}

function textProblem(schema: TextOptions, value: unknown, trimmed: boolean): TextProblem | undefined {
	if (typeof value !== 'string') return 'type'
	const whole = characterCount(value)
	if (whole < 0) return 'unpaired'
	const count = trimmed ? characterCount(value.trim()) : whole
	if (schema.minLength !== undefined && count < schema.minLength) return 'short'
	if (schema.maxLength !== undefined && count > schema.maxLength) return 'long'
	if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return 'pattern'
	return undefined
}

/** The message of a failed check, in TypeBox's words for lengths; see `Text`. */
function textMessage(schema: TextOptions & { [Kind]?: unknown }, value: unknown): string {
	const trimmed = schema[Kind] === TRIMMED_TEXT_KIND
	const once = trimmed ? ' once trimmed' : ''
	switch (textProblem(schema, value, trimmed)) {
		case 'type':
			return 'Expected string'
		case 'unpaired':
			return 'Expected Unicode text (an unpaired UTF-16 surrogate is none)'
		case 'short':
			return `Expected string length greater or equal to ${schema.minLength}${once}`
		case 'long':
			return `Expected string length less or equal to ${schema.maxLength}${once}`
		default:
			// A pattern does not explain itself: the description says the form, as for a pattern
			// of TypeBox's own string (the MCP tools answer "expected <description>").
			return typeof schema.description === 'string'
				? `expected ${schema.description}`
				: `Expected string to match '${schema.pattern}'`
	}
}

const textKinds = new Set([TEXT_KIND, TRIMMED_TEXT_KIND])
if (!TypeRegistry.Has(TEXT_KIND))
	TypeRegistry.Set<TextOptions>(TEXT_KIND, (schema, value) => textProblem(schema, value, false) === undefined)
if (!TypeRegistry.Has(TRIMMED_TEXT_KIND))
	TypeRegistry.Set<TextOptions>(
		TRIMMED_TEXT_KIND,
		(schema, value) => textProblem(schema, value, true) === undefined
	)

// A failed custom kind reads "Expected kind 'CharacterText'" by default: say what is wrong instead.
// Only these kinds' messages change; every other error keeps the current function's.
const otherMessages = GetErrorFunction()
SetErrorFunction((error) =>
	error.errorType === ValueErrorType.Kind && textKinds.has(error.schema[Kind])
		? textMessage(error.schema, error.value)
		: otherMessages(error)
)

/**
 * A string of `minLength` to `maxLength` characters (code points) matching `pattern`; an
 * unpaired surrogate is refused. Published as `{ type: 'string', ...options }`.
 */
export const Text = (options: TextOptions = {}): TUnsafe<string> =>
	Type.Unsafe<string>({ type: 'string', ...options, [Kind]: TEXT_KIND })

/**
 * `Text` whose `minLength` and `maxLength` count the text once its surrounding white space is
 * dropped (`trim()`), for a field its handler trims; `pattern` still sees the text as given.
 */
export const TrimmedText = (options: TextOptions = {}): TUnsafe<string> =>
	Type.Unsafe<string>({ type: 'string', ...options, [Kind]: TRIMMED_TEXT_KIND })
