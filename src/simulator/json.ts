/**
 * JSON text with exact 64-bit numbers. Instagram sends media and story pks as bare JSON numbers beyond
 * 2^53, which `JSON.stringify` cannot write: values held as `bigint` are written here as their digits.
 */

/** Strings JSON.stringify would copy unchanged: no quote, backslash, control character or surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

const quote = (text: string): string => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text))

/** Serialises like `JSON.stringify(value)`, except that a `bigint` becomes a bare number with every digit. */
export function toJsonText(value: unknown): string {
	switch (typeof value) {
		case 'string':
			return quote(value)
		case 'number':
			return Number.isFinite(value) ? String(value) : 'null'
		case 'bigint':
			return value.toString()
		case 'boolean':
			return value ? 'true' : 'false'
		case 'object':
			if (value === null) return 'null'
			return Array.isArray(value) ? arrayText(value) : objectText(value as Record<string, unknown>)
		default:
			// undefined, functions and symbols have no JSON form; JSON.stringify writes null in arrays.
			return 'null'
	}
}

// String concatenation beats collecting parts here: responses are built from many short pieces.
function arrayText(values: readonly unknown[]): string {
	let text = '['
	for (let index = 0; index < values.length; index++) {
		if (index > 0) text += ','
		text += toJsonText(values[index])
	}
	return `${text}]`
}

function objectText(record: Record<string, unknown>): string {
	let text = '{'
	let first = true
	for (const key of Object.keys(record)) {
		const field = record[key]
		// Like JSON.stringify, a key whose value is undefined (or a function or symbol) is left out.
		if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue
		text += `${first ? '' : ','}${quote(key)}:${toJsonText(field)}`
		first = false
	}
	return `${text}}`
}
