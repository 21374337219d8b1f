/**
 * The names saved results go under (docs/api-contract.md, "Saving"): letters, marks and digits of
 * any script, `_` and `-`, in NFC, cut to fit a file name; and the `filename` pattern that admits
 * them.
 */
import { HttpError } from '../server/envelope'
import { wordCharacterClass } from './routes/params'

/** Longest saved name, without `.json`, in characters (code points). */
export const MAX_NAME_LENGTH = 100
/**
 * Longest saved name, without `.json`, in UTF-8 bytes. A file name may have 255 bytes (Linux, most
 * file systems) and a save first writes `.<name>.json.<pid>.<uuid>.tmp` (`writeExclusive`), 55
 * bytes more at most: 150 leaves room to spare. 100 characters of most scripts fit; 50 CJK do.
 */
export const MAX_NAME_BYTES = 150
/**
 * The `filename` path parameter: a saved name, with or without `.json`. A validator compiles it
 * without the `u` flag (no `\p{L}`), so the letters, marks and digits below U+FFFF are spelled out,
 * and any character beyond it is taken (a surrogate pair, or one code point with `u`). Its count
 * bound, 300, lets a decomposed (NFD) spelling through (it has at most 1.5 code points per byte of
 * the NFC name). The exact rule is `isSavedName`'s, which the store applies: the rest is a 400.
 */
export const FILENAME_PATTERN = `^(?:[${wordCharacterClass('-\u200c\u200d')}]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\u0000-\\uFFFF]){1,${2 * MAX_NAME_BYTES}}(?:\\.json)?$`

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')

/**
 * `name` cut to at most `maxLength` characters (code points) and `maxBytes` UTF-8 bytes, at a
 * character boundary: whole user-perceived characters (a letter with its combining marks, a
 * surrogate pair), or code points when even the first one is longer; then never ending in `_`
 * or `-`.
 */
export function cutName(name: string, maxLength: number, maxBytes: number): string {
	let cut = ''
	let length = 0
	let bytes = 0
	const take = (piece: string) => {
		const pieceLength = [...piece].length
		const pieceBytes = utf8Bytes(piece)
		if (length + pieceLength > maxLength || bytes + pieceBytes > maxBytes) return false
		cut += piece
		length += pieceLength
		bytes += pieceBytes
		return true
	}
	for (const { segment } of graphemes.segment(name)) {
		if (take(segment)) continue
		// A single huge cluster (a letter with scores of marks): its first code points.
		if (cut === '') for (const character of segment) if (!take(character)) break
		break
	}
	return cut.replace(/[_\-\u200c\u200d]+$/u, '')
}

/**
 * Turns a free-form name into letters, combining marks and digits of any script, `_` and `-` (and
 * the joiners ZWNJ and ZWJ between two letters, as Persian writes): it is normalised to NFC, a trailing `.json` is dropped, every run of other characters (with the marks
 * that follow them) becomes one `_`, a mark following `_`, `-` or nothing is dropped, `_` and `-`
 * are dropped from both ends, and the result is cut to 100 characters and 150 UTF-8 bytes at a
 * character boundary (never ending in `_` or `-`).
 * Returns undefined when nothing usable is left (no letter or digit).
 */
export function sanitizeName(raw: string): string | undefined {
	const reduced = raw
		.normalize('NFC')
		.trim()
		.replace(/\.json$/i, '')
		.replace(/(?:[^\p{L}\p{M}\p{N}_\-\u200c\u200d]\p{M}*)+/gu, '_')
		// A joiner (ZWNJ, ZWJ: Persian writes with them) is kept only between two letters.
		.replace(/(?<![\p{L}\p{M}])[\u200c\u200d]+|[\u200c\u200d]+(?![\p{L}\p{M}])/gu, '')
		// A mark with no letter or digit to sit on (after a separator, or first).
		.replace(/(^|[_-])\p{M}+/gu, '$1')
		.replace(/^[_-]+|[_-]+$/g, '')
	const name = cutName(reduced, MAX_NAME_LENGTH, MAX_NAME_BYTES)
	return name === '' ? undefined : name
}

/** Whether `name` (without `.json`) is one `sanitizeName` produces: exactly the names a save writes. */
export function isSavedName(name: string): boolean {
	return name !== '' && sanitizeName(name) === name
}

/** The name a file is saved under (`sanitizeName`); a 400 when nothing usable is left. */
export function savedName(raw: string): string {
	const name = sanitizeName(raw)
	if (name === undefined)
		throw new HttpError(
			'bad_request',
			'Invalid name: it needs a letter or a digit (the file name keeps letters and digits of any script, _ or -, at most 100 characters and 150 bytes)'
		)
	return name
}
