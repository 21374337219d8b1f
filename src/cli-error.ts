/**
 * Errors the CLI reports to the person at the terminal, how they map to exit codes, and how text
 * from outside (Instagram's data and error messages, a model's answer) is made safe to print there.
 */

/** A mistake in how the command was called: exit code 2 (docs/architecture.md, "Product"). */
export class UsageError extends Error {
	override name = 'UsageError'
	readonly exitCode = 2
	/** Followed by the pointer to the command's help, as cac's own usage errors are. */
	readonly pointsToHelp: boolean

	constructor(message: string, options: { pointToHelp?: boolean } = {}) {
		super(message)
		this.pointsToHelp = options.pointToHelp ?? false
	}
}

/**
 * The command was stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP before it finished: exit code 128
 * plus the signal's number (130, 143, 129), and with `--json` the failure's JSON on standard
 * output, as for any other failure.
 */
export class InterruptedError extends Error {
	override name = 'InterruptedError'
	constructor(readonly exitCode = 130) {
		super('Interrupted')
	}
}

/**
 * A job, watch or snapshot named by id that is not on the store: exit code 1, and `not_found` as
 * the code of a `--json` failure, as the API answers for it (a mistyped id is UsageError).
 */
export class NotFoundError extends Error {
	override name = 'NotFoundError'
	readonly exitCode = 1
	readonly kind = 'not_found'
}

/** A record's id given as an argument (`smkit jobs show 3`, `smkit watch diff 1`): a whole number from 1. */
export function idArgument(value: unknown, noun: string): number {
	// Digits only: Number() would also take 0x1, 1e0 or 1.0 for 1, and round 20 digits.
	const id = /^\d{1,15}$/.test(String(value ?? '').trim()) ? Number(value) : Number.NaN
	if (!Number.isInteger(id) || id < 1)
		throw new UsageError(`expected a ${noun} id, got '${String(value ?? '')}'`)
	return id
}

/**
 * ` (did you mean 'collect'?)` for a mistyped word close to one choice (at most two edits, or
 * one for words of up to four letters), else ''. Several equally close: the first.
 */
export function didYouMean(word: string, choices: readonly string[]): string {
	const typed = word.toLowerCase()
	let best: { choice: string; distance: number } | undefined
	for (const choice of choices) {
		const distance = editDistance(typed, choice.toLowerCase())
		if (distance > (typed.length <= 4 ? 1 : 2)) continue
		if (!best || distance < best.distance) best = { choice, distance }
	}
	return best ? ` (did you mean '${best.choice}'?)` : ''
}

/** Levenshtein distance, with a swap of two neighbouring letters counting as one edit. */
function editDistance(a: string, b: string): number {
	const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
		Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
	)
	for (let i = 1; i <= a.length; i++)
		for (let j = 1; j <= b.length; j++) {
			const row = rows[i] as number[]
			const above = rows[i - 1] as number[]
			const cost = a[i - 1] === b[j - 1] ? 0 : 1
			row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost)
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1)
		}
	return (rows[a.length] as number[])[b.length] as number
}

/** A command or feature that this build does not provide yet: exit code 1. */
export class NotBuiltError extends Error {
	override name = 'NotBuiltError'
	readonly exitCode = 1
	constructor(command: string) {
		super(`'smkit ${command}' is not available in this build yet.`)
	}
}

/** The exit code an error should end the process with (1 unless the error says otherwise). */
export function exitCodeOf(error: unknown): number {
	if (error && typeof error === 'object' && 'exitCode' in error && typeof error.exitCode === 'number') {
		return error.exitCode
	}
	return 1
}

/** Control characters but newline and tab: C0, DEL and C1 (escape sequences, carriage return, bell). */
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * Text from outside (a name, a caption or an error message from Instagram or a crafted upstream,
 * a model's answer) made safe to print on a terminal: control characters are shown as
 * `\x1b`-style text, so an escape sequence cannot move the cursor, erase or rewrite what is
 * shown, retitle the window or ring the bell. Newlines and tabs stay.
 */
export function terminalText(text: string): string {
	return text.replace(
		controlCharacters,
		(character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`
	)
}

/** A character as its JavaScript escape: `\u202e`, or `\u{e0041}` beyond U+FFFF. */
export function unicodeEscape(character: string): string {
	const code = character.codePointAt(0) ?? 0
	return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * Characters shown as nothing (Unicode's default-ignorable code points: zero-width characters,
 * bidirectional embeddings, overrides, isolates and marks, the soft hyphen, Hangul fillers,
 * variation selectors, the tag characters U+E0000-E007F that spell ASCII invisibly) and the Arabic
 * letter mark. A terminal with bidirectional support reorders the text around some; others carry
 * text nobody sees, so code or a message to approve could read otherwise than what runs or is
 * sent. Emoji's presentation selector (U+FE0F) after a pictograph is left as it is.
 */
const invisibleCharacters =
	/(?!(?<=\p{Extended_Pictographic})\ufe0f)[\p{Default_Ignorable_Code_Point}\u061c]/gu

/** `text` with every invisible or direction-changing character written as its `\u202e`-style escape. */
export function revealInvisible(text: string): string {
	return text.replace(invisibleCharacters, unicodeEscape)
}

/** `terminalText` kept on one line: line breaks and tabs become a space, so no fake line follows. */
export function terminalLine(text: string): string {
	return terminalText(text.replace(/[\n\t]+/g, ' '))
}

/** DEL and the C1 controls: JSON.stringify leaves them raw, and `terminalText`'s `\x9b` is no JSON escape. */
const rawInJson = /[\u007f-\u009f]/g

/**
 * `--json` output: indented JSON text that stays valid JSON and is safe on a terminal. JSON escapes
 * C0 controls already; DEL and C1 controls (a C1 CSI starts an escape sequence) become `\u009b`
 * escapes instead of being sent raw, and parse back to the same text.
 */
export function jsonText(value: unknown): string {
	return JSON.stringify(value, null, 2).replace(rawInJson, unicodeEscape)
}

/**
 * One line for the terminal: the message only, never a stack trace or a secret-bearing object, and
 * no control character (a message may quote Instagram's answer).
 */
export function formatCliError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error)
	return `smkit: ${terminalText(message)}`
}

/** A cac usage shape (`collect <kind> <target>`, `--port <port>`) as the help writes it: `collect KIND TARGET`. */
const usageWords = (shape: string) =>
	shape.replace(
		/<(\.\.\.)?([\w-]+)>|\[(\.\.\.)?([\w-]+)\]/g,
		(_whole, many, needed, optionalMany, optional) =>
			needed
				? `${needed.toUpperCase()}${many ? '...' : ''}`
				: `[${optional.toUpperCase()}${optionalMany ? '...' : ''}]`
	)

/**
 * cac's own usage messages in smkit's wording (lower case, values in single quotes, shapes as the
 * help writes them): `Unused args: \`a\`` reads `unexpected argument 'a'`.
 */
export function cacWording(message: string): string {
	const quoted = (list: string) => [...list.matchAll(/`([^`]*)`/g)].map((match) => `'${match[1]}'`)
	const unused = /^Unused args: (.*)$/s.exec(message)
	if (unused) {
		const words = quoted(unused[1] as string)
		return `unexpected argument${words.length === 1 ? '' : 's'} ${words.join(', ')}`
	}
	const missing = /^missing required args for command `(.*)`$/s.exec(message)
	if (missing) return `missing arguments: smkit ${usageWords(missing[1] as string)}`
	const noValue = /^option `(--?[\w-]+)[^`]*` value is missing$/s.exec(message)
	if (noValue) return `${noValue[1]} needs a value`
	return message.replace(/^Unknown option `([^`]*)`/, "unknown option '$1'")
}

/** What a command given `--json` prints on standard output when it fails (its message goes to standard error too). */
export interface JsonFailure {
	success: false
	/** The message, as on standard error. */
	error: string
	/**
	 * `bad_usage` (exit 2); an Instagram failure's code as in the playground's envelopes
	 * (`not_found`, `private_account`, `login_required`, ...); else `failed`.
	 */
	code: string
	exit_code: number
}

/**
 * A failure as `--json` prints it, so standard output is JSON whatever happened and a script reads
 * `.success` and `.code` instead of parsing the message. `usage` marks cac's own errors.
 */
export function jsonFailure(error: unknown, usage = false): JsonFailure {
	const exitCode = usage ? 2 : exitCodeOf(error)
	const kind = error && typeof error === 'object' && 'kind' in error ? error.kind : undefined
	return {
		success: false,
		error: error instanceof Error ? error.message : String(error),
		code: exitCode === 2 ? 'bad_usage' : typeof kind === 'string' ? kind : 'failed',
		exit_code: exitCode
	}
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * `text` cut to at most `width` terminal columns, with `…` when cut. Cuts fall between whole
 * characters as people see them: never inside an emoji, a surrogate pair or a letter with its
 * accent (`slice` by code units left half an emoji, shown as a replacement character).
 */
export function clip(text: string, width: number): string {
	if (Bun.stringWidth(text) <= width) return text
	let kept = ''
	let used = 0
	for (const { segment } of graphemes.segment(text)) {
		const next = Bun.stringWidth(segment)
		if (used + next > width - 1) break
		kept += segment
		used += next
	}
	return `${kept}…`
}
