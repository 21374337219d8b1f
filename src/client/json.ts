/**
 * Lossless JSON parsing for Instagram responses.
 *
 * Instagram sends media and story `pk`s as bare JSON numbers around 3.8e18, far beyond
 * `Number.MAX_SAFE_INTEGER` (2^53 - 1). `JSON.parse` alone would silently round them, so every
 * upstream body goes through `parseUpstreamJson`, which keeps unsafe integers as their exact
 * decimal string. It uses the native parser's reviver with the source text of each value
 * (JSON.parse source text access), which profiling showed several times faster than a
 * JavaScript JSON parser on profile and feed responses, and only when the text holds a bare
 * integer long enough to need it.
 */

/**
 * A bare number of 16+ digits (where JSON allows a number: at the start, or after `:`, `,` or `[`
 * and optional white space), the only kind that can exceed 2^53. Without one, the plain native
 * parse is exact and several times faster than the reviver: ids in strings ("id":"3842...", as in
 * profile answers and picture URLs) no longer send a body through the reviver. Digits inside a
 * string that happen to follow such a character only cost the slower path, never a wrong value.
 */
const LONG_NUMBER = /(?:^|[:,[])\s*-?\d{16}/
const INTEGER_TEXT = /^-?\d+$/

/**
 * Reviver: an integer that lost precision comes back as its exact source digits. Floats (and
 * exponent forms such as 1e25) keep their number value: rounding a coordinate is harmless.
 */
function keepExactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
	if (typeof value !== 'number' || Number.isSafeInteger(value)) return value
	const source = context?.source
	return source !== undefined && INTEGER_TEXT.test(source) ? source : value
}

/**
 * Parses upstream JSON text without rounding any number: integers beyond the safe range are
 * returned as strings. Throws `SyntaxError` on invalid JSON, like `JSON.parse`.
 */
export function parseUpstreamJson(text: string): unknown {
	if (!LONG_NUMBER.test(text)) return JSON.parse(text)
	return JSON.parse(text, keepExactIntegers as (key: string, value: unknown) => unknown)
}

/** Normalises an Instagram id (number, bigint or string) to its exact decimal string; '' when absent. */
export function toId(value: unknown): string {
	if (typeof value === 'string') return value
	if (typeof value === 'number' || typeof value === 'bigint') return String(value)
	return ''
}
