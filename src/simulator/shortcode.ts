/**
 * Instagram's media shortcode encoding and pk layout (docs/instagram.md, "Media"), in BigInt: pks
 * exceed 2^53.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** Instagram's id epoch (ms): media pks carry the milliseconds since it in their upper bits. */
export const INSTAGRAM_EPOCH_MS = 1314220021721n

/** The shortcode of a media pk (`3842790443716764595n` → `DVUVYxwAOOz`). */
export function encodeShortcode(pk: bigint): string {
	let rest = pk
	let code = ''
	while (rest > 0n) {
		code = ALPHABET[Number(rest % 64n)] + code
		rest /= 64n
	}
	return code || 'A'
}

/** The media pk of a shortcode, or null when a character is outside the alphabet. Leading `A`s are zeros. */
export function decodeShortcode(code: string): bigint | null {
	let pk = 0n
	for (const character of code) {
		const digit = ALPHABET.indexOf(character)
		if (digit < 0) return null
		pk = pk * 64n + BigInt(digit)
	}
	return pk
}

/** A media pk in Instagram's layout: milliseconds since the id epoch, then 23 bits of shard and sequence. */
export function mediaPkAt(epochMs: number, lowBits: number): bigint {
	return ((BigInt(epochMs) - INSTAGRAM_EPOCH_MS) << 23n) | BigInt(lowBits & 0x7fffff)
}

/** The unix time (seconds) a media pk was minted at. */
export function mediaPkTime(pk: bigint): number {
	return Math.floor(Number((pk >> 23n) + INSTAGRAM_EPOCH_MS) / 1000)
}
