/**
 * Reading a profile from Instagram's HTML page (docs/instagram.md, "Public (anonymous)": the third
 * strategy), in order:
 * `window._sharedData`, JSON-LD, then the meta tags (`<title>`, `og:description` counts, `og:image`).
 * A page with `LoginAndSignupPage` or `login/?next=` is a login wall and yields nothing.
 */
import { asciiLowerCase, openingTags, scriptBlocks } from '../html-scan'
import { parseUpstreamJson } from '../json'
import { asArray, asObject, type Raw, text } from '../normalize/values'

/** What the HTML page yielded: a user object in web_profile_info's shape, a login wall, or nothing. */
export type HtmlProfile = { kind: 'profile'; user: Raw } | { kind: 'login_wall' } | { kind: 'none' }

/** Named entities Instagram's titles and meta tags use; numeric entities are decoded generically. */
const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
	bull: '•',
	middot: '·',
	hellip: '…',
	ndash: '–',
	mdash: '—',
	eacute: 'é',
	egrave: 'è',
	agrave: 'à',
	aacute: 'á',
	ccedil: 'ç',
	ntilde: 'ñ',
	ouml: 'ö',
	uuml: 'ü',
	auml: 'ä',
	oacute: 'ó',
	iacute: 'í',
	uacute: 'ú'
}

/** A numeric reference's character; U+FFFD beyond Unicode, as browsers do (fromCodePoint would throw). */
function codePointText(codePoint: number): string {
	return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '\ufffd'
}

/** Decodes the HTML entities found in attribute values and titles. */
export function decodeEntities(value: string): string {
	return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (match, entity: string) => {
		if (ENTITIES[entity]) return ENTITIES[entity] as string
		if (/^#x/i.test(entity)) return codePointText(Number.parseInt(entity.slice(2), 16))
		if (/^#\d/.test(entity)) return codePointText(Number(entity.slice(1)))
		return match
	})
}

/** "1,234", "12.5K", "3M" → 1234, 12500, 3000000. */
export function parseCount(value: string): number {
	const match = /^([\d.,]+)\s*([KkMmBb]?)$/.exec(value.trim())
	if (!match) return 0
	const digits = match[1] ?? ''
	const multiplier = { k: 1e3, m: 1e6, b: 1e9 }[(match[2] ?? '').toLowerCase()]
	// Without a suffix, separators group thousands; with one, the separator is a decimal point.
	if (!multiplier) return Number(digits.replace(/[.,]/g, ''))
	return Math.round(Number(digits.replace(',', '.')) * multiplier)
}

/** The decoded `content` of the first meta tag whose `property` or `name` is `property`. */
function metaContent(metas: readonly Map<string, string>[], property: string): string | undefined {
	for (const attributes of metas) {
		const named = [attributes.get('property'), attributes.get('name')]
		if (!named.some((value) => value !== undefined && asciiLowerCase(value) === property)) continue
		const content = attributes.get('content')
		if (content !== undefined) return decodeEntities(content)
	}
	return undefined
}

const SHARED_DATA = 'window._sharedData'

/** `window._sharedData = {...};</script>`: the JSON between the `=` and the `;` before the first `</script>`. */
function sharedDataJson(html: string): string | undefined {
	const marker = html.indexOf(SHARED_DATA)
	if (marker === -1) return undefined
	const close = html.indexOf('</script>', marker)
	if (close === -1) return undefined
	const assignment = html.slice(marker + SHARED_DATA.length, close).trim()
	if (!assignment.startsWith('=') || !assignment.endsWith(';')) return undefined
	const json = assignment.slice(1, -1).trim()
	return json.startsWith('{') && json.endsWith('}') ? json : undefined
}

function fromSharedData(html: string): Raw | undefined {
	const json = sharedDataJson(html)
	if (json === undefined) return undefined
	try {
		const data = asObject(parseUpstreamJson(json))
		const user = asObject(asObject(asArray(asObject(data.entry_data).ProfilePage)[0]).graphql).user
		return user ? asObject(user) : undefined
	} catch {
		return undefined
	}
}

function fromJsonLd(html: string, username: string): Raw | undefined {
	for (const script of scriptBlocks(html)) {
		if (asciiLowerCase(script.attributes.get('type') ?? '') !== 'application/ld+json') continue
		try {
			const parsed = parseUpstreamJson(script.content)
			for (const entry of Array.isArray(parsed) ? parsed : [parsed]) {
				const object = asObject(entry)
				const person = asObject(object['@type'] === 'ProfilePage' ? object.mainEntity : object)
				if (person['@type'] !== 'Person') continue
				const statistic = (kind: string) =>
					asArray(person.interactionStatistic).find((item) => text(item.interactionType).includes(kind))
						?.userInteractionCount
				return {
					id: asObject(person.identifier).value ?? person.identifier,
					username: text(person.alternateName, username).replace(/^@/, ''),
					full_name: text(person.name),
					biography: text(person.description),
					profile_pic_url: text(person.image),
					external_url: asArray(person.sameAs)[0] ?? null,
					follower_count: statistic('FollowAction'),
					media_count: statistic('WriteAction')
				}
			}
		} catch {
			// Malformed JSON-LD: try the next block, then the meta tags.
		}
	}
	return undefined
}

/**
 * The longest title and description read: Instagram's are under 200 characters, and the patterns
 * below backtrack quadratically over a long run of digits or spaces.
 */
const MAX_META_TEXT = 1000

function fromMeta(html: string, username: string): Raw | undefined {
	const metas = openingTags(html, 'meta')
	const description = (metaContent(metas, 'og:description') ?? metaContent(metas, 'description') ?? '').slice(
		0,
		MAX_META_TEXT
	)
	const counts =
		/([\d.,]+[KkMmBb]?)\s+Followers?,\s*([\d.,]+[KkMmBb]?)\s+Following,\s*([\d.,]+[KkMmBb]?)\s+Posts?/i.exec(
			description
		)
	const title = decodeEntities(/<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? '').slice(0, MAX_META_TEXT)
	const titleMatch = /^(.*?)\s*\(@([\w.]+)\)/.exec(title.trim())
	if (!counts && !titleMatch) return undefined
	const id = /"profile_id":"(\d+)"/.exec(html)?.[1] ?? /"user_id":"(\d+)"/.exec(html)?.[1]
	return {
		id,
		username: titleMatch?.[2] ?? username,
		full_name: titleMatch?.[1] ?? '',
		profile_pic_url: metaContent(metas, 'og:image') ?? '',
		follower_count: counts ? parseCount(counts[1] ?? '') : undefined,
		following_count: counts ? parseCount(counts[2] ?? '') : undefined,
		media_count: counts ? parseCount(counts[3] ?? '') : undefined
	}
}

/** Reads a profile from the page HTML of `username`. */
export function parseProfileHtml(html: string, username: string): HtmlProfile {
	if (html.includes('LoginAndSignupPage') || html.includes('login/?next=')) return { kind: 'login_wall' }
	const user = fromSharedData(html) ?? fromJsonLd(html, username) ?? fromMeta(html, username)
	return user ? { kind: 'profile', user } : { kind: 'none' }
}
