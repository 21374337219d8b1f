/**
 * JSON text with exact 64-bit numbers. Instagram sends media and story pks as bare JSON numbers beyond
 * 2^53, which `JSON.stringify` cannot write: values held as `bigint` are written here as their digits.
 */

/** Serialises like `JSON.stringify(value)`, except that a `bigint` becomes a bare number with every digit. */
export function toJsonText(value: unknown): string {
	const parts: string[] = []
	write(value, parts)
	return parts.join('')
}

function write(value: unknown, parts: string[]): void {
	switch (typeof value) {
		case 'string':
			parts.push(JSON.stringify(value))
			return
		case 'number':
			parts.push(Number.isFinite(value) ? String(value) : 'null')
			return
		case 'bigint':
			parts.push(value.toString())
			return
		case 'boolean':
			parts.push(value ? 'true' : 'false')
			return
		case 'object':
			if (value === null) parts.push('null')
			else if (Array.isArray(value)) writeArray(value, parts)
			else writeObject(value as Record<string, unknown>, parts)
			return
		default:
			// undefined, functions and symbols have no JSON form; JSON.stringify writes null in arrays.
			parts.push('null')
	}
}

function writeArray(values: readonly unknown[], parts: string[]): void {
	parts.push('[')
	for (let index = 0; index < values.length; index++) {
		if (index > 0) parts.push(',')
		write(values[index], parts)
	}
	parts.push(']')
}

function writeObject(record: Record<string, unknown>, parts: string[]): void {
	parts.push('{')
	let first = true
	for (const key of Object.keys(record)) {
		const field = record[key]
		// Like JSON.stringify, a key whose value is undefined is left out.
		if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue
		if (!first) parts.push(',')
		first = false
		parts.push(JSON.stringify(key), ':')
		write(field, parts)
	}
	parts.push('}')
}
