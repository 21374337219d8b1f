/**
 * Biography parsing (docs/instagram.md, "Users"): mentions, hashtags, URLs, e-mails and phone numbers from
 * the text, plus the structured entities and links Instagram sends beside it.
 *
 * The original used Python regexes, whose `\w` is Unicode-aware; here `[\p{L}\p{N}_]` with the `u`
 * flag plays that role so `@café_été` or `#東京` parse as on Instagram. Hashtags also take the
 * combining marks (`\p{M}`) that `\w` misses, so `#भारत` or `#กรุงเทพ` are not cut at a vowel sign.
 */
import type { BioEntity, BioLink, ParsedBio } from './types'

/** A mention not preceded by a word character, so the `@` inside an e-mail address is skipped. */
const MENTION = /(?<![\p{L}\p{N}_.])@([\p{L}\p{N}_.]+)/gu
const HASHTAG = /#([\p{L}\p{M}\p{N}_]+)/gu
const URL = /https?:\/\/[^\s<>"]+|www\.[^\s<>"]+/gu
const EMAIL = /[\p{L}\p{N}_.+-]+@[\p{L}\p{N}_-]+\.[\p{L}\p{N}_.-]+/gu
const PHONE = /\+?[(\d][\d\s\-().]{7,}\d/gu

/**
 * The longest biography text parsed. Instagram allows 150 characters; the patterns above backtrack
 * quadratically over a long run of one character (a 40,000-character biography of `(` held the
 * event loop for a second, a megabyte would hold it for minutes), so a longer text, which only a
 * forged answer can carry, is parsed up to here: 2,200 characters, Instagram's longest text (a caption).
 */
export const MAX_PARSED_BIO_CHARS = 2200

/** Distinct values in first-seen order. */
function unique(values: string[]): string[] {
	return [...new Set(values)]
}

/** Every capture (or whole match) of a global regex, with trailing sentence punctuation removed. */
function matches(pattern: RegExp, text: string, group = 0): string[] {
	return [...text.matchAll(pattern)].map((match) => (match[group] ?? '').replace(/[.,;:!?)]+$/u, ''))
}

/** Mentions, hashtags, URLs, e-mails and phone numbers found in a biography text (its first 2,200 characters). */
export function parseBioText(
	biography: string
): Pick<ParsedBio, 'bio_mentions' | 'bio_hashtags' | 'bio_urls' | 'bio_emails' | 'bio_phones'> {
	const text = biography.slice(0, MAX_PARSED_BIO_CHARS)
	const emails = matches(EMAIL, text).filter((email) => (email.split('@')[1] ?? '').includes('.'))
	return {
		bio_mentions: unique(matches(MENTION, text, 1).filter(Boolean)),
		bio_hashtags: unique(matches(HASHTAG, text, 1)),
		bio_urls: unique(matches(URL, text)),
		bio_emails: unique(emails),
		bio_phones: unique(matches(PHONE, text).map((phone) => phone.trim()))
	}
}

/** Structured mention/hashtag entities from `biography_with_entities.entities[]`. */
export function bioEntities(raw: unknown): BioEntity[] {
	const entities = (raw as { entities?: unknown } | null | undefined)?.entities
	if (!Array.isArray(entities)) return []
	const result: BioEntity[] = []
	for (const entity of entities as Record<string, any>[]) {
		if (typeof entity?.user?.username === 'string')
			result.push({ type: 'mention', username: entity.user.username })
		else if (typeof entity?.hashtag?.name === 'string')
			result.push({ type: 'hashtag', name: entity.hashtag.name })
	}
	return result
}

/** Link-in-bio entries (`bio_links[]`), kept as Instagram gives them. */
export function bioLinks(raw: unknown): BioLink[] {
	if (!Array.isArray(raw)) return []
	return (raw as Record<string, unknown>[]).map((link) => ({
		title: typeof link?.title === 'string' ? link.title : '',
		url: typeof link?.url === 'string' ? link.url : '',
		lynx_url: typeof link?.lynx_url === 'string' ? link.lynx_url : null,
		link_type: typeof link?.link_type === 'string' ? link.link_type : null
	}))
}

/** @mentions in a text (comments, captions). */
export function extractMentions(text: string): string[] {
	return unique(matches(MENTION, text, 1).filter(Boolean))
}

/** #hashtags in a text (comments, captions). */
export function extractHashtags(text: string): string[] {
	return unique(matches(HASHTAG, text, 1))
}
