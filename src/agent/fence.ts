/**
 * Neutralises anything in untrusted text that a model could read as the data fence's own tag
 * (`<tool_output>` or `</tool_output>` for the agent), so Instagram data or run output cannot close the fence and
 * speak as instructions. Matching ignores case and catches look-alikes: other angle brackets
 * (full-width, small, guillemets, mathematical, tag characters, HTML and JavaScript escapes), other slashes,
 * spaces, invisible (default-ignorable) characters or combining marks inside the tag, any separator or none between the
 * two words, letters that look the same (full-width, mathematical, small capitals, tag characters, accented, Cyrillic and Greek
 * twins, 0 for o, 1 or I for l), and any character of the tag written as an escape (HTML entities,
 * `\u` and `\x` escapes, percent-encoding, `\/`). A matched tag's bracket becomes `[`, which no reader takes for a tag opener
 * (an escape such as `&lt;` would itself be one of the look-alikes), and the text stays readable.
 */

/** Openers of a tag, and the escapes that stand for one. */
const angleBracket =
	/<|＜|﹤|‹|«|〈|〈|⟨|《|˂|❮|⧼|ᐸ|\u{E003C}|&lt;?|&#0*60;?|&#x0*3c;?|\\u003c|\\u\{0*3c\}|\\x3c|%3c/giu

/** Characters a tag may carry between its bracket, slash and letters without changing how it reads. */
const ignorable = /^[\s_\-.·‐-―＿﹍﹎﹏\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}]$/u

/**
 * An escape that stands for one character (numeric and common named HTML entities, JavaScript's
 * `\u`, `\u{}` and `\x` escapes, percent-encoding); groups 1 to 6 hold its code or name.
 */
const escapedCharacter =
	/&#x([0-9a-f]{1,6});?|&#(\d{1,7});?|&([a-z]{2,8});|\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|(?:\\x|%)([0-9a-f]{2})/iy

/** Named HTML entities of the characters a tag is made of (slashes, separators, spaces). */
const namedEntities: Record<string, string> = {
	sol: '/',
	bsol: '\\',
	frasl: '⁄',
	lowbar: '_',
	underbar: '_',
	hyphen: '-',
	dash: '-',
	minus: '-',
	period: '.',
	nbsp: ' ',
	ensp: ' ',
	emsp: ' ',
	thinsp: ' ',
	shy: '\u00ad',
	zwj: '\u200d',
	zwnj: '\u200c'
}

/** The character at `position` (an escape read as what it stands for) and how long it is written. */
function characterAt(text: string, position: number): { character: string; length: number } {
	escapedCharacter.lastIndex = position
	const found = escapedCharacter.exec(text)
	if (found) {
		const [written, hex, decimal, name, braced, unicode, byte] = found
		const code = hex ?? braced ?? unicode ?? byte
		const point =
			code !== undefined ? Number.parseInt(code, 16) : decimal !== undefined ? Number(decimal) : undefined
		const character =
			point !== undefined && point <= 0x10ffff
				? String.fromCodePoint(point)
				: namedEntities[(name ?? '').toLowerCase()]
		if (character !== undefined) return { character, length: written.length }
	}
	const code = text.codePointAt(position) as number
	const written = String.fromCodePoint(code)
	// A tag character (U+E0020-E007E) spells its ASCII twin invisibly: read as that character.
	const character = code >= 0xe0020 && code <= 0xe007e ? String.fromCharCode(code - 0xe0000) : written
	return { character, length: written.length }
}

/** Slash look-alikes of a closing tag. */
const slash = /^[/／⁄∕⧸\\]$/u

/** Letters that look like the fence's letters, after case folding and removing accents. */
const lookAlikes: Record<string, string> = {
	т: 't',
	τ: 't',
	ᴛ: 't',
	ţ: 't',
	о: 'o',
	ο: 'o',
	օ: 'o',
	ᴏ: 'o',
	σ: 'o',
	'0': 'o',
	ӏ: 'l',
	ʟ: 'l',
	ɪ: 'l',
	ı: 'l',
	i: 'l',
	'1': 'l',
	'|': 'l',
	ǀ: 'l',
	υ: 'u',
	ս: 'u',
	ᴜ: 'u',
	µ: 'u',
	р: 'p',
	ρ: 'p',
	ᴘ: 'p',
	ⲣ: 'p'
}

/** The letter a character reads as, or the character itself when it is not one of ours. */
function readAs(character: string): string {
	const folded = character.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
	return lookAlikes[folded] ?? folded
}

/** The letters of a tag name as they are compared: lower case, separators removed. */
function lettersOf(name: string): string {
	return [...name]
		.map(readAs)
		.filter((letter) => !ignorable.test(letter))
		.join('')
}

/** Whether the text from `start` reads as `fenceLetters` (after an optional slash). */
function readsAsFenceName(text: string, start: number, fenceLetters: string): boolean {
	let matched = 0
	let position = start
	const limit = Math.min(text.length, start + 200)
	while (position < limit && matched < fenceLetters.length) {
		const { character, length } = characterAt(text, position)
		position += length
		if (ignorable.test(character)) continue
		// Before the name, any run of slashes: `</`, and `<\/` as JSON escapes it.
		if (matched === 0 && slash.test(character)) continue
		const letters = readAs(character)
		if (letters === '' || !fenceLetters.startsWith(letters, matched)) return false
		matched += letters.length
	}
	return matched === fenceLetters.length
}

/** `text` with every tag that reads as `<tag>` or `</tag>` opened with `[` instead of its bracket. */
export function neutraliseFenceTags(text: string, tag: string): string {
	const fenceLetters = lettersOf(tag)
	return text.replace(angleBracket, (bracket, offset: number) =>
		readsAsFenceName(text, offset + bracket.length, fenceLetters) ? '[' : bracket
	)
}
