/** A small seeded pseudo-random generator: the data set never uses Math.random, so a seed fixes it. */

/** mulberry32 with the helpers the data set needs. Same seed, same sequence, on every platform. */
export class Random {
	private state: number

	constructor(seed: number) {
		this.state = seed >>> 0
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0
		let value = this.state
		value = Math.imul(value ^ (value >>> 15), value | 1)
		value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
		return ((value ^ (value >>> 14)) >>> 0) / 4294967296
	}

	/** An integer in [min, max], both included. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1))
	}

	/** True with probability `probability`. */
	chance(probability: number): boolean {
		return this.next() < probability
	}

	/** One element of a non-empty list. */
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)] as T
	}

	/** `count` distinct elements in random order (partial Fisher-Yates on a copy). */
	sample<T>(items: readonly T[], count: number): T[] {
		const copy = items.slice()
		const size = Math.min(count, copy.length)
		for (let index = 0; index < size; index++) {
			const other = index + Math.floor(this.next() * (copy.length - index))
			const swap = copy[index] as T
			copy[index] = copy[other] as T
			copy[other] = swap
		}
		return copy.slice(0, size)
	}

	/** A shuffled copy. */
	shuffle<T>(items: readonly T[]): T[] {
		return this.sample(items, items.length)
	}

	/** `digits` random decimal digits, the first one non-zero (drawn in chunks that stay below 2^53). */
	digits(digits: number): string {
		const head = Math.min(digits, 15)
		let text = String(this.int(10 ** (head - 1), 10 ** head - 1))
		for (let rest = digits - head; rest > 0; rest -= 15) {
			const size = Math.min(rest, 15)
			text += String(this.int(0, 10 ** size - 1)).padStart(size, '0')
		}
		return text
	}
}

/** A 32-bit seed derived from several parts (FNV-1a), for generators that must not depend on call order. */
export function deriveSeed(...parts: readonly (string | number)[]): number {
	let hash = 0x811c9dc5
	for (const character of parts.join('\u0001')) {
		hash ^= character.codePointAt(0) ?? 0
		hash = Math.imul(hash, 0x01000193)
	}
	return hash >>> 0
}
