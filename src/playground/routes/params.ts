/**
 * Path, query and body schemas shared by the route groups. Path parameters are checked before
 * anything reaches the client (docs/api-contract.md, "Security"): Instagram's own character sets,
 * bounded lengths. A text limit counts characters (Unicode code points: an emoji is one), as
 * JSON Schema's `maxLength` does: `Text` (server/text-length.ts), not TypeBox's UTF-16 count.
 * Each schema carries an `error` text naming the field, because Elysia reports a
 * coerced query number without its name. A JSON body is an object (`objectBody`).
 */
import type { IntegerOptions, TObject } from '@sinclair/typebox'
import { t } from 'elysia'
import { urlOf } from '../../server/request-url'
import { Text } from '../../server/text-length'
import { HttpError } from '../envelope'

/** Plain decimal digits, at most 15 (every such number is exact in a JavaScript number). */
const DECIMAL_DIGITS = '^[0-9]{1,15}$'

/** The largest whole number of at most 15 digits (docs/api-contract.md, "Data"). */
export const MAX_DECIMAL_INTEGER = 999_999_999_999_999

/**
 * A whole number in a path, query or body field, written in plain decimal digits. Elysia's own
 * integer accepts any text JavaScript reads as one (`0x10`, `1e3`, ` 7`, `+7`, `1.0`): a path or
 * query value with anything but digits is a 400 naming the field (its `error`) rather than read as
 * another number. A JSON body may send the number itself or its digits as a string. The bound
 * `maximum` (default {@link MAX_DECIMAL_INTEGER}) holds for the number too: JSON reads `1e20` or
 * `1234567890123456` as whole numbers, which would otherwise pass where their digits do not.
 */
export function DecimalInteger(options: IntegerOptions & { error: string }) {
	// Elysia checks the decoded number against these options, so the bound covers both spellings.
	const schema = t.Integer({ maximum: MAX_DECIMAL_INTEGER, ...options })
	for (const branch of schema.anyOf) if (branch.type === 'string') branch.pattern = DECIMAL_DIGITS
	return schema
}

/** Whether a parsed JSON body is an object (not an array, a string, a number or null). */
const isJsonObject = (body: unknown) => typeof body === 'object' && body !== null && !Array.isArray(body)

/**
 * Route options for a JSON body validated by the object schema `body`: anything but a JSON object
 * (`42`, `"text"`, `[1, 2]`, `null`, an empty body) is a 400. Elysia lets such a body through when
 * none of the schema's fields is required (it fills the defaults into an empty object instead), so
 * it is refused at the transform step, before the fields are validated. `{}` takes the defaults.
 */
export function objectBody<Body extends TObject>(body: Body) {
	return {
		parse: 'json' as const,
		body,
		transform({ body: parsed }: { body: unknown }) {
			if (!isJsonObject(parsed)) throw new HttpError('bad_request', 'Invalid body: expected a JSON object')
		}
	}
}

/** An Instagram username: letters, digits, `.` and `_`, 1-30 characters. */
export const UsernameParam = t.String({
	pattern: '^[A-Za-z0-9._]{1,30}$',
	error: "Invalid path parameter 'username': use letters, digits, . or _ (1-30 characters)",
	description: 'Instagram username, without @',
	examples: ['luna.explorer']
})

/** A numeric user pk (Instagram ids are 64-bit: kept as strings). */
export const UserPkParam = (name = 'user_pk') =>
	t.String({
		pattern: '^[0-9]{1,20}$',
		error: `Invalid path parameter '${name}': expected a numeric id`,
		description: "The user's numeric id (pk), as a decimal string",
		examples: ['1000000002']
	})

/** A media pk, or a full media id `<pk>_<owner pk>`. */
export const MediaPkParam = t.String({
	pattern: '^[0-9]{1,25}(_[0-9]{1,20})?$',
	error: "Invalid path parameter 'media_pk': expected a numeric media id",
	description: 'The media pk, or its full id `<pk>_<owner pk>`',
	examples: ['3842790443716764595']
})

/** A character of the Basic Multilingual Plane in a pattern: itself if ASCII `\w`, else `\uXXXX`. */
const escaped = (code: number) =>
	/^\w$/.test(String.fromCharCode(code))
		? String.fromCharCode(code)
		: `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The characters below U+FFFF of a word of any script as the ranges of a regex class: `_` and every
 * letter, mark and digit of any script (Unicode L, M, N), plus the characters of `extra` (`-` for
 * a saved file name). Without `extra`, the characters of a hashtag, those the client's `requireTag`
 * takes. Spelled out because the validator compiles patterns without the `u` flag (no `\p{L}`),
 * and so do many JSON Schema tools; read from this runtime's Unicode tables, as `requireTag`'s are.
 */
export function wordCharacterClass(extra = ''): string {
	const word = /^[\p{L}\p{M}\p{N}_]$/u
	const ranges: [number, number][] = []
	for (let code = 0; code <= 0xffff; code++) {
		// Surrogates come in pairs, matched by the patterns using the class.
		if (code >= 0xd800 && code <= 0xdfff) continue
		const character = String.fromCharCode(code)
		if (!word.test(character) && !extra.includes(character)) continue
		const last = ranges.at(-1)
		if (last && last[1] === code - 1) last[1] = code
		else ranges.push([code, code])
	}
	return ranges
		.map(([from, to]) => (from === to ? escaped(from) : `${escaped(from)}-${escaped(to)}`))
		.join('')
}

/**
 * A hashtag as the server takes it, 1-100 characters: `wordCharacterClass()`, or a character beyond
 * U+FFFF (a surrogate pair to a validator reading UTF-16 units, one code point to one using `u`).
 * The class is exact; beyond U+FFFF the client's check still refuses what is no letter, mark or
 * digit (an emoji), which the description says.
 */
const HASHTAG_PATTERN = `^(?:[${wordCharacterClass()}]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\u0000-\\uFFFF]){1,100}$`

/**
 * A hashtag without `#`: letters, marks and digits of any script and `_` (Unicode L, M, N), 1-100
 * characters; no separators, punctuation, symbols or format characters (U+202E), no `%` or `#`.
 */
export const HashtagParam = (name: string) =>
	t.String({
		pattern: HASHTAG_PATTERN,
		error: `Invalid path parameter '${name}': a hashtag is letters, digits or _ of any script (1-100 characters, no #)`,
		description:
			'Hashtag name, without #: letters, combining marks and digits of any script, or _ (Unicode categories L, M and N), 1-100 characters. ' +
			'The pattern lists them up to U+FFFF; beyond it, only letters, marks and digits are taken too (an emoji is a 400).',
		examples: ['sunset']
	})

/** Query `q` of the search endpoints. */
export const SearchQuery = t.Object({
	q: Text({
		minLength: 1,
		maxLength: 200,
		pattern: '\\S',
		error: "Invalid query parameter 'q': expected 1-200 characters, not only spaces",
		description: 'Search text (1-200 characters)',
		examples: ['luna']
	})
})

/** Query `cursor`: a previous page's `next_cursor`. */
export const CursorQuery = t.Optional(
	Text({
		minLength: 1,
		maxLength: 2000,
		error: "Invalid query parameter 'cursor': expected a next_cursor value",
		description: 'Resume after a previous page: its next_cursor'
	})
)

/**
 * Query `count` with its bounds (docs/api-contract.md, "Pagination") (1-200, 1-1000 for followers/following). Always optional:
 * with a default Elysia fills it in; without one the client's own page size applies.
 */
export const CountQuery = (options: { default?: number; maximum?: number } = {}) => {
	const maximum = options.maximum ?? 200
	const schema = DecimalInteger({
		minimum: 1,
		maximum,
		error: `Invalid query parameter 'count': expected an integer from 1 to ${maximum}`,
		description: `How many records (1-${maximum}); the server pages upstream until it has them`,
		...(options.default === undefined ? {} : { default: options.default })
	})
	// Optional either way: with a default, Elysia fills it in (and OpenAPI shows it as not required).
	return t.Optional(schema)
}

/** Query of a list endpoint without its own count default: optional `count` (1-200) and `cursor`. */
export const ListQuery = t.Object({ count: CountQuery(), cursor: CursorQuery })

/** `ListQuery` plus the search text `q`. */
export const SearchListQuery = t.Object({
	q: SearchQuery.properties.q,
	count: CountQuery(),
	cursor: CursorQuery
})

/**
 * Route options declaring the query schema `query` and refusing any of its parameters given more
 * than once (`count=5&count=6`): Elysia keeps one of the values without a word, so the request
 * is a 400 naming the parameter instead. Checked at Elysia's transform step, before the values are
 * validated. Parameters the schema does not name stay ignored, repeated or not.
 */
export function singleQuery<Query extends TObject>(query: Query) {
	const names = Object.keys(query.properties)
	return {
		query,
		transform({ request }: { request: Request }) {
			// Two parameters need a '&': most requests end here.
			if (!request.url.includes('&')) return
			const parameters = urlOf(request).searchParams
			for (const name of names)
				if (parameters.getAll(name).length > 1)
					throw new HttpError(
						'bad_request',
						`Invalid query parameter '${name}': given more than once; give it once`
					)
		}
	}
}
