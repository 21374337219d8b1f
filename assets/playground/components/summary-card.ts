/**
 * A readable card above the raw data for the two records people look at most: a user (picture,
 * names, badges, bio, counts) and a post (thumbnail, caption, counts). A record gets a card only
 * when it has a picture and counts to show (a parsed bio or the account's settings get none, rather
 * than dashes and a letter avatar), and a count it lacks is left out. Bios and captions come from
 * Instagram users and are shown as plain text, line breaks kept by CSS.
 */
import { externalLink, h, safeLinkUrl } from '../../common/dom'
import { formatCount, formatTime } from '../lib/format'
import { dataImage } from '../lib/images'

type Record_ = Record<string, unknown>

function isRecord(value: unknown): value is Record_ {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
}

const USER_COUNTS = [
	['media_count', 'posts'],
	['follower_count', 'followers'],
	['following_count', 'following']
] as const
const MEDIA_COUNTS = [
	['like_count', 'likes'],
	['comment_count', 'comments']
] as const

const isPicture = (value: unknown) => typeof value === 'string' && value !== ''
const hasCount = (record: Record_, counts: readonly (readonly [string, string])[]) =>
	counts.some(([field]) => typeof record[field] === 'number')

function isUser(value: unknown): value is Record_ {
	return (
		isRecord(value) &&
		typeof value.username === 'string' &&
		(isPicture(value.profile_pic_url) || isPicture(value.profile_pic_url_hd)) &&
		hasCount(value, USER_COUNTS)
	)
}

function isMedia(value: unknown): value is Record_ {
	return (
		isRecord(value) &&
		typeof value.code === 'string' &&
		(isPicture(value.thumbnail_url) || isPicture(value.display_url)) &&
		hasCount(value, MEDIA_COUNTS)
	)
}

/** The counts a record has, each as "value label". */
function stats(record: Record_, counts: readonly (readonly [string, string])[]): HTMLElement {
	return h(
		'div',
		{ className: 'card-stats' },
		...counts
			.filter(([field]) => typeof record[field] === 'number')
			.map(([field, label]) =>
				h(
					'div',
					{ className: 'stat' },
					h('strong', { text: formatCount(record[field]) }),
					h('span', { text: label })
				)
			)
	)
}

function userCard(user: Record_): HTMLElement {
	const username = String(user.username)
	const badges = h('span', { className: 'card-badges' })
	if (user.is_verified === true) badges.append(h('span', { className: 'tag tag-accent', text: 'verified' }))
	if (user.is_private === true) badges.append(h('span', { className: 'tag', text: 'private' }))
	const link = safeLinkUrl(user.external_url)
	return h(
		'article',
		{ className: 'summary-card', attrs: { 'aria-label': `Profile of ${username}` } },
		dataImage(user.profile_pic_url_hd ?? user.profile_pic_url, username, 'avatar'),
		h(
			'div',
			{ className: 'card-body' },
			h(
				'div',
				{ className: 'card-title' },
				h('strong', {
					className: 'card-name',
					text: typeof user.full_name === 'string' && user.full_name !== '' ? user.full_name : username
				}),
				badges
			),
			h('div', {
				className: 'card-subtitle',
				text: `@${username}${user.pk !== undefined ? ` · pk ${String(user.pk)}` : ''}`
			}),
			typeof user.biography === 'string' && user.biography !== ''
				? h('p', { className: 'card-text', text: user.biography })
				: null,
			link ? h('p', { className: 'card-link' }, externalLink(link, link)) : null,
			stats(user, USER_COUNTS)
		)
	)
}

function mediaCard(media: Record_): HTMLElement {
	const owner =
		isRecord(media.user) && typeof media.user.username === 'string' ? `@${media.user.username}` : ''
	return h(
		'article',
		{ className: 'summary-card', attrs: { 'aria-label': `Post ${String(media.code)}` } },
		dataImage(media.thumbnail_url ?? media.display_url, String(media.code), 'thumb thumb-card'),
		h(
			'div',
			{ className: 'card-body' },
			h(
				'div',
				{ className: 'card-title' },
				h('strong', { className: 'card-name', text: String(media.code) })
			),
			h('div', {
				className: 'card-subtitle',
				text: [owner, formatTime(media.taken_at)].filter((part) => part && part !== '—').join(' · ')
			}),
			typeof media.caption_text === 'string' && media.caption_text !== ''
				? h('p', { className: 'card-text', text: media.caption_text })
				: null,
			stats(media, MEDIA_COUNTS)
		)
	)
}

/** A card for a user or post result (or a result holding one under `user`), or null. */
export function summaryCard(data: unknown): HTMLElement | null {
	if (isUser(data)) return userCard(data)
	if (isMedia(data)) return mediaCard(data)
	if (isRecord(data) && isUser(data.user)) return userCard(data.user)
	if (isRecord(data) && isMedia(data.media)) return mediaCard(data.media)
	return null
}
