/**
 * Instagram shortcode <-> media pk conversion (docs/instagram.md, "Media").
 *
 * A shortcode is the media pk written in base 64 with Instagram's URL-safe alphabet. Real pks are
 * about 3.8e18, so all arithmetic is `BigInt`; pks travel as decimal strings.
 */
import { IgArgumentError } from './errors'

/** Instagram's base-64 alphabet; a character's index is its digit value. */
export const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

const SHORTCODE_PATTERN = /^[A-Za-z0-9_-]+$/
const MEDIA_URL_PATTERN = /instagram\.com\/(?:[A-Za-z0-9_.]+\/)?(?:p|reel|reels|tv)\/([A-Za-z0-9_-]+)/

/** Decodes a shortcode (e.g. `DVUVYxwAOOz`) to the media pk as a decimal string. */
export function shortcodeToPk(shortcode: string): string {
	if (!SHORTCODE_PATTERN.test(shortcode)) throw new IgArgumentError(`Invalid shortcode: "${shortcode}"`)
	let pk = 0n
	for (const character of shortcode) pk = pk * 64n + BigInt(SHORTCODE_ALPHABET.indexOf(character))
	return pk.toString()
}

/**
 * Encodes a media pk (or an `"<pk>_<owner>"` media id) as a shortcode. Leading zero digits (`A`)
 * are not reproduced, so `ABC123xyz` re-encodes as `BC123xyz`.
 */
export function pkToShortcode(mediaPk: string | number | bigint): string {
	const text = String(mediaPk).split('_')[0] ?? ''
	if (!/^\d+$/.test(text)) throw new IgArgumentError(`Invalid media pk: "${String(mediaPk)}"`)
	let pk = BigInt(text)
	if (pk === 0n) return SHORTCODE_ALPHABET[0] as string
	let shortcode = ''
	while (pk > 0n) {
		shortcode = SHORTCODE_ALPHABET[Number(pk % 64n)] + shortcode
		pk /= 64n
	}
	return shortcode
}

/**
 * Extracts the shortcode from an Instagram post, reel or IGTV URL
 * (`https://www.instagram.com/p/DVUVYxwAOOz/`); throws `IgArgumentError` for anything else.
 */
export function shortcodeFromUrl(url: string): string {
	const match = MEDIA_URL_PATTERN.exec(url)
	if (!match?.[1]) throw new IgArgumentError(`Not an Instagram post URL: "${url}"`)
	return match[1]
}

/** Media pk from an `"<pk>_<owner>"` media id, a bare pk, or a number; throws on anything else. */
export function mediaPkFrom(value: string | number | bigint): string {
	const text = String(value).trim().split('_')[0] ?? ''
	if (!/^\d+$/.test(text)) throw new IgArgumentError(`Invalid media pk: "${String(value)}"`)
	return text
}
