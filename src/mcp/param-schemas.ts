/**
 * The bounds of the MCP tools' arguments: the playground's (src/playground/routes/params.ts and the
 * route schemas, which the layers keep this folder from importing) and the client's own checks
 * (src/client/api/base.ts). An argument outside them is a bad_request naming the field, answered
 * before Instagram is called and before the user is asked to approve a write: a 20,000-character
 * cursor never reaches Instagram, a 100,000-character comment is never shown in an approval.
 * A text limit counts characters (Unicode code points: an emoji is one), as JSON Schema's
 * `maxLength` and the client do: `Text` (server/text-length.ts), not TypeBox's UTF-16 count.
 */
import { type IntegerOptions, type TSchema, Type } from '@sinclair/typebox'
import { MAX_MEDIA_URL_LENGTH } from '../client/api/media'
import type { MethodParam, MethodSpec } from '../client/registry'
import { Text } from '../server/text-length'

/**
 * The largest whole number an id, limit or offset takes: 15 digits, every one exact in a JavaScript
 * number, as the playground's (docs/api-contract.md, "Data"). `1e300` or `9007199254740993` (read
 * as ...992) is refused, never stored or looked up.
 */
export const MAX_WHOLE_NUMBER = 999_999_999_999_999

/** The longest `cursor`: the playground's `cursor` query parameter. */
export const MAX_CURSOR_LENGTH = 2000
/** The longest search text: the playground's `q` of the search routes (and the client's). */
export const MAX_SEARCH_LENGTH = 200
/** The longest search within a follower list: the playground's `q` of the followers route. */
export const MAX_FOLLOWER_QUERY_LENGTH = 100

/**
 * The longest text of each write that takes one, as the client refuses it (src/client/api: a
 * comment 2200 characters, a direct message 1000).
 */
export const MAX_TEXT_LENGTH: Readonly<Record<string, number>> = {
	'media.comment': 2200,
	'direct.sendText': 1000
}

/** A whole number from `minimum` to at most 15 digits (or a smaller `maximum`). */
export function wholeNumber(options: IntegerOptions & { minimum: number; description: string }) {
	return Type.Integer({ maximum: MAX_WHOLE_NUMBER, ...options })
}

/**
 * The string parameters whose value has a fixed form, as the playground's path parameters: the
 * description says the form, since a value not matching its pattern is refused with it
 * ("expected <description>"). Spaces around an id are refused too, as the playground does.
 */
const patterned: Readonly<Record<string, { pattern: string; description: string }>> = {
	username: {
		pattern: '^@?[A-Za-z0-9._]{1,30}$',
		description: 'an Instagram username: letters, digits, . or _ (1-30 characters), with or without @'
	},
	userPk: {
		pattern: '^[0-9]{1,20}$',
		description: "a user's numeric id (pk) as a string of digits, nothing else"
	},
	mediaPk: {
		pattern: '^[0-9]{1,25}(_[0-9]{1,20})?$',
		description: 'a media pk as a string of digits (or a "<pk>_<owner pk>" id), nothing else'
	},
	commentPk: {
		pattern: '^[0-9]{1,25}$',
		description: "a comment's pk as a string of digits, nothing else"
	},
	tag: {
		// 1-100 characters, counting a character beyond U+FFFF (two UTF-16 units) once.
		pattern: '^#?(?:[^\\s#\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]){1,100}$',
		description: 'a hashtag name without #: letters, digits or _ (1-100 characters, no spaces)'
	}
}

/** Text that is not only spaces (the client trims it, and refuses what is left empty). */
const NOT_BLANK = '\\S'

/** The schema of one plain (string) parameter of `method`, with its bounds. */
export function stringParamSchema(method: MethodSpec, param: MethodParam): TSchema {
	const form = patterned[param.name]
	if (form) return Type.String(form)
	const longest = MAX_TEXT_LENGTH[method.path]
	if (param.name === 'text' && longest !== undefined)
		return Text({
			minLength: 1,
			maxLength: longest,
			pattern: NOT_BLANK,
			description: `${param.description}: 1-${longest} characters, not only spaces`
		})
	if (param.name === 'query')
		return Text({
			minLength: 1,
			maxLength: MAX_SEARCH_LENGTH,
			pattern: NOT_BLANK,
			description: `${param.description}: 1-${MAX_SEARCH_LENGTH} characters, not only spaces`
		})
	if (param.name === 'url')
		return Text({
			minLength: 1,
			maxLength: MAX_MEDIA_URL_LENGTH,
			description: `${param.description} (at most ${MAX_MEDIA_URL_LENGTH} characters)`
		})
	return Text({ minLength: 1, maxLength: MAX_CURSOR_LENGTH, description: param.description })
}

/** The `cursor` of a list tool. */
export const cursorSchema = Text({
	minLength: 1,
	maxLength: MAX_CURSOR_LENGTH,
	description: 'next_cursor of a previous call, to continue the list where it stopped'
})

/** The `query` option of the follower list (a search within it). */
export const followerQuerySchema = Text({
	minLength: 1,
	maxLength: MAX_FOLLOWER_QUERY_LENGTH,
	pattern: NOT_BLANK,
	description: `search text within the list (only the items whose username or full name contains it): 1-${MAX_FOLLOWER_QUERY_LENGTH} characters, not only spaces`
})
