/**
 * Tolerant readers for upstream JSON. Instagram omits, nulls or retypes fields between endpoints
 * and app versions; the normalisers read through these so a missing key never throws.
 */
import { toId } from '../json'

/** An upstream object with unknown keys. */
export type Raw = Record<string, any>

/** The value if it is a plain object, else an empty one. */
export function asObject(value: unknown): Raw {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : {}
}

/** The value if it is an array (of objects), else an empty array. */
export function asArray(value: unknown): Raw[] {
	return Array.isArray(value) ? (value as Raw[]) : []
}

/** A string (numbers are converted), or `fallback`. */
export function text(value: unknown, fallback = ''): string {
	if (typeof value === 'string') return value
	if (typeof value === 'number' || typeof value === 'bigint') return String(value)
	return fallback
}

/** A non-empty string, or null. */
export function textOrNull(value: unknown): string | null {
	const result = text(value)
	return result === '' ? null : result
}

/** A non-negative integer count (numeric strings accepted), 0 when absent. */
export function count(value: unknown): number {
	return countOrNull(value) ?? 0
}

/** A non-negative integer count, or null when absent. */
export function countOrNull(value: unknown): number | null {
	const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
	return typeof number === 'number' && Number.isFinite(number) ? Math.max(0, Math.trunc(number)) : null
}

/** A finite number (numeric strings accepted), or null. */
export function numberOrNull(value: unknown): number | null {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
	return typeof number === 'number' && Number.isFinite(number) ? number : null
}

/** True only for `true`, 1 or "true". */
export function flag(value: unknown): boolean {
	return value === true || value === 1 || value === 'true'
}

/** A boolean, or null when absent. */
export function flagOrNull(value: unknown): boolean | null {
	return value === undefined || value === null ? null : flag(value)
}

/** An id as a decimal string, or null when absent. */
export function idOrNull(value: unknown): string | null {
	const id = toId(value)
	return id === '' ? null : id
}
