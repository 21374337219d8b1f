/**
 * Lossless JSON parsing for Instagram responses.
 *
 * Instagram sends media and story `pk`s as bare JSON numbers around 3.8e18, far beyond
 * `Number.MAX_SAFE_INTEGER` (2^53 - 1). `JSON.parse` would silently round them, so every upstream
 * body goes through `parseUpstreamJson`, which keeps unsafe integers as their exact decimal string.
 */
import { isInteger, isSafeNumber, parse } from 'lossless-json'

/** A digit run long enough to exceed 2^53; without one the fast native parser is exact. */
const LONG_NUMBER = /\d{16,}/

/** Number parser: safe numbers become `number`, integers beyond 2^53 stay exact decimal strings. */
function parseNumber(text: string): number | string {
	if (isSafeNumber(text)) return Number(text)
	// Floats such as coordinates may carry more digits than a double holds; rounding them is harmless.
	return isInteger(text) ? text : Number(text)
}

/**
 * Parses upstream JSON text without rounding any number: integers beyond the safe range are
 * returned as strings. Throws `SyntaxError` on invalid JSON, like `JSON.parse`.
 */
export function parseUpstreamJson(text: string): unknown {
	// Native parsing is several times faster; use it whenever no number could lose precision.
	if (!LONG_NUMBER.test(text)) return JSON.parse(text)
	return parse(text, null, parseNumber)
}

/** Normalises an Instagram id (number, bigint or string) to its exact decimal string; '' when absent. */
export function toId(value: unknown): string {
	if (typeof value === 'string') return value
	if (typeof value === 'number' || typeof value === 'bigint') return String(value)
	return ''
}
