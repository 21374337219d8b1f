/**
 * Which columns a result table shows. Records of a known kind (posts, users, comments, stories,
 * hashtags, places, notifications, threads, highlights) open with a few readable columns in a
 * useful order; every other column stays one click away in the "Columns" menu, and the choice is
 * remembered per kind while the page is open. Posts also get two derived columns, `type` and
 * `link`. Columns are also classified for display: times, ids, long text, pictures.
 */

type Row = Record<string, unknown>

/** A kind of record and the columns it opens with (those present in the data, in this order). */
interface RecordKind {
	name: string
	matches(row: Row): boolean
	columns: string[]
}

const has = (row: Row, ...keys: string[]) => keys.every((key) => key in row)

const KINDS: RecordKind[] = [
	{
		name: 'post',
		matches: (row) => has(row, 'code') && ('media_type' in row || 'like_count' in row),
		columns: ['thumbnail_url', 'taken_at', 'caption_text', 'like_count', 'comment_count', 'type', 'link']
	},
	{
		name: 'story',
		matches: (row) => has(row, 'expiring_at', 'media_type'),
		columns: [
			'thumbnail_url',
			'user.username',
			'taken_at',
			'expiring_at',
			'media_type',
			'mentions',
			'hashtags'
		]
	},
	{
		name: 'comment',
		matches: (row) => has(row, 'text', 'created_at') && ('user.username' in row || 'user_id' in row),
		columns: ['user.username', 'text', 'like_count', 'reply_count', 'created_at']
	},
	{
		name: 'notification',
		matches: (row) => has(row, 'notif_name', 'text'),
		columns: ['profile_image', 'text', 'timestamp', 'notif_name']
	},
	{
		name: 'thread',
		matches: (row) => has(row, 'thread_id'),
		columns: ['thread_title', 'last_activity_at', 'is_group', 'muted']
	},
	{
		name: 'highlight',
		matches: (row) => has(row, 'cover_url', 'title'),
		columns: ['cover_url', 'title', 'media_count', 'created_at', 'updated_at']
	},
	{
		name: 'place',
		matches: (row) => has(row, 'lat', 'lng'),
		columns: ['name', 'city', 'address', 'lat', 'lng']
	},
	{
		name: 'hashtag',
		matches: (row) => has(row, 'name', 'media_count') && !('username' in row),
		columns: ['name', 'media_count', 'subtitle']
	},
	{
		name: 'user',
		matches: (row) => has(row, 'username') && ('full_name' in row || 'profile_pic_url' in row),
		columns: [
			'profile_pic_url',
			'username',
			'full_name',
			'follower_count',
			'following_count',
			'media_count',
			'is_verified',
			'is_private'
		]
	}
]

/** Headers of the columns people read most; the raw name stays in the header's tooltip. */
const LABELS: Record<string, string> = {
	thumbnail_url: 'picture',
	profile_pic_url: 'picture',
	profile_image: 'picture',
	cover_url: 'cover',
	taken_at: 'date',
	created_at: 'date',
	timestamp: 'date',
	last_activity_at: 'last activity',
	expiring_at: 'expires',
	updated_at: 'updated',
	caption_text: 'caption',
	like_count: 'likes',
	comment_count: 'comments',
	reply_count: 'replies',
	media_count: 'posts',
	follower_count: 'followers',
	following_count: 'following',
	full_name: 'name',
	is_verified: 'verified',
	is_private: 'private',
	is_group: 'group',
	thread_title: 'thread',
	notif_name: 'kind',
	'user.username': 'user'
}

/** The header text of a column. */
export function columnLabel(column: string): string {
	return LABELS[column] ?? column
}

/** The kind of a list of records (the kind most of them match), or null. */
export function recordKind(rows: readonly Row[]): string | null {
	if (rows.length === 0) return null
	for (const kind of KINDS) {
		const matching = rows.filter((row) => kind.matches(row)).length
		if (matching * 2 > rows.length) return kind.name
	}
	return null
}

const MEDIA_TYPES: Record<string, string> = { '1': 'photo', '2': 'video', '8': 'carousel' }

/** Adds the derived columns of a post: `type` (photo, video, reel, carousel) and `link`. */
export function withDerivedColumns(kind: string | null, row: Row): Row {
	if (kind !== 'post') return row
	const type = row.product_type === 'clips' ? 'reel' : MEDIA_TYPES[String(row.media_type)]
	const code = typeof row.code === 'string' && /^[\w-]{1,64}$/.test(row.code) ? row.code : null
	return {
		...row,
		...(type ? { type } : {}),
		...(code ? { link: `https://www.instagram.com/p/${code}/` } : {})
	}
}

/** Columns shown by default: the kind's columns that the data has, or every column for other data. */
export function defaultColumns(kind: string | null, columns: readonly string[]): string[] {
	const spec = KINDS.find((candidate) => candidate.name === kind)
	if (!spec) return [...columns]
	const shown = spec.columns.filter((column) => columns.includes(column))
	return shown.length ? shown : [...columns]
}

/** Every column in menu order: the default ones first (in their order), then the rest. */
export function menuOrder(shownByDefault: readonly string[], columns: readonly string[]): string[] {
	return [...shownByDefault, ...columns.filter((column) => !shownByDefault.includes(column))]
}

/** Columns chosen in the menu, per kind, while the page is open. */
const chosen = new Map<string, string[]>()

/** The columns to show: the person's choice for this kind (those still present), else the defaults. */
export function visibleColumns(kind: string | null, columns: readonly string[]): string[] {
	const choice = kind ? chosen.get(kind)?.filter((column) => columns.includes(column)) : undefined
	return choice?.length ? choice : defaultColumns(kind, columns)
}

/** Remembers the person's choice of columns for a kind. */
export function chooseColumns(kind: string | null, columns: readonly string[]): void {
	if (kind) chosen.set(kind, [...columns])
}

const TIME_COLUMN =
	/(^|\.)(taken_at|created_at|updated_at|expiring_at|timestamp|last_activity_at|date_joined|last_checked|device_timestamp|[a-z_]+_at)$/
const ID_COLUMN = /(^|\.)(pk|id|code|shortcode|[a-z_]+_id|[a-z_]+_pk)$/
const TEXT_COLUMN = /(^|\.)(caption_text|text|biography|title|subtitle|thread_title|accessibility_caption)$/
const IMAGE_COLUMN =
	/(^|\.)(profile_pic_url(_hd)?|thumbnail_url|display_url|image_url|thumbnail_src|profile_image|cover_url)$/

/** How a column's cells are shown. */
export type ColumnRole = 'time' | 'id' | 'text' | 'image' | 'plain'

/** The role of a column, from its name. */
export function columnRole(column: string): ColumnRole {
	if (IMAGE_COLUMN.test(column)) return 'image'
	if (TIME_COLUMN.test(column)) return 'time'
	if (ID_COLUMN.test(column)) return 'id'
	if (TEXT_COLUMN.test(column)) return 'text'
	return 'plain'
}

/**
 * A time value as a local date and time, or null when it is not one: Unix seconds, milliseconds or
 * microseconds (Instagram uses all three) between 2001 and 2100, or an ISO 8601 text.
 */
export function localTime(value: unknown): string | null {
	let milliseconds: number | null = null
	if (typeof value === 'number' && Number.isFinite(value)) {
		if (value >= 1e9 && value < 4.2e9) milliseconds = value * 1000
		else if (value >= 1e12 && value < 4.2e12) milliseconds = value
		else if (value >= 1e15 && value < 4.2e15) milliseconds = value / 1000
	} else if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) {
		milliseconds = Date.parse(value)
	} else if (typeof value === 'string' && /^\d{10}(\d{3}(\d{3})?)?$/.test(value)) {
		return localTime(Number(value))
	}
	if (milliseconds === null || Number.isNaN(milliseconds)) return null
	return new Date(milliseconds).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })
}
