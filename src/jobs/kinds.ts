/**
 * What each job kind collects and how: the target's upstream id and the list's size, one page
 * from a cursor, and the key that identifies a record. Pages come from the client's list methods,
 * so they follow the client's pagination rule; each asks for the largest page the upstream serves
 * (or one upstream page where Instagram fixes the size), so one job page is one upstream request,
 * except that a page of comments also fetches the replies its comments do not show.
 */

import type { TObject } from '@sinclair/typebox'
import { hashtagKey, quotedValue, requirePk, requireUsername } from '../client/api/base'
import type { InstagramClient } from '../client/client'
import { IgApiError, IgArgumentError } from '../client/errors'
import { ListStalledError } from '../client/list-walk'
import { Comment, Media } from '../client/models/media'
import { UserShort } from '../client/models/users'
import { mediaPkFrom, shortcodeFromUrl, shortcodeToPk } from '../client/shortcode'
import type { CommentReply, PageData } from '../client/types'
import type { JobKind } from './types'

/** The resolved target of a job. */
export interface ResolvedTarget {
	/** Upstream id the list is fetched by (user pk, media pk, hashtag name). */
	id: string
	/** The list's size when the upstream says. */
	total: number | null
}

/** How one kind collects. */
export interface KindSource {
	/** Checks and normalises what the user typed (throws IgArgumentError with a usable message). */
	normalizeTarget(target: string): string
	resolve(ig: InstagramClient, target: string, signal: AbortSignal): Promise<ResolvedTarget>
	page(
		ig: InstagramClient,
		id: string,
		cursor: string | null,
		signal: AbortSignal
	): Promise<PageData<unknown>>
	/** The record's identity: a record with the same key is the same record. */
	key(record: unknown): string
	/** The model of its records: the columns of a CSV of an empty list. */
	record: TObject
}

const keyOf = (record: unknown): string => String((record as { pk?: unknown }).pk ?? '')

/** Largest follower/following page the client asks for, and the largest user-feed page. */
const FRIENDSHIP_PAGE = 200
const FEED_PAGE = 33

/**
 * A media pk from a pk (or `pk_owner` media id), a post/reel URL or a bare shortcode. Every spelling
 * of one post (trailing slash or not, a query string, /reel/ for /p/, the owner's name in the path,
 * the shortcode alone) comes out as the same pk, so a rerun written differently continues the same
 * job instead of starting a second one. A shortcode is the pk in base 64, decoded exactly.
 */
function normalizeMedia(target: string): string {
	const text = target.trim()
	if (/^\d+(_\d+)?$/.test(text)) return mediaPkFrom(requirePk('media', text))
	if (/^(https?:\/\/)?([a-z0-9-]+\.)*instagram\.com\//i.test(text)) {
		if (!/\/(p|reel|reels|tv)\/[A-Za-z0-9_-]+/.test(text))
			throw new IgArgumentError(`Not a post or reel URL: "${quotedValue(text)}"`)
		return shortcodeToPk(shortcodeFromUrl(text))
	}
	if (/^https?:\/\//i.test(text))
		throw new IgArgumentError(`Not an instagram.com post URL: "${quotedValue(text)}"`)
	if (/^[A-Za-z0-9_-]{8,12}$/.test(text)) return shortcodeToPk(text)
	return requirePk('media', text)
}

/** The media of a target: a pk, or (jobs stored before targets were normalised) a post URL. */
async function resolveMedia(ig: InstagramClient, target: string, signal: AbortSignal) {
	return /^https?:\/\//i.test(target)
		? ig.media.getByUrl(target, { signal })
		: ig.media.getInfo(target, { signal })
}

const userSource = (
	fetch: (
		ig: InstagramClient,
		pk: string,
		cursor: string | null,
		signal: AbortSignal
	) => Promise<PageData<unknown>>,
	totalOf: (user: { follower_count: number; following_count: number; media_count: number }) => number
): KindSource => ({
	normalizeTarget: requireUsername,
	async resolve(ig, target, signal) {
		const user = await ig.users.getByUsername(target, { signal })
		return { id: user.pk, total: totalOf(user) }
	},
	page: fetch,
	key: keyOf,
	record: UserShort
})

const posts = {
	...userSource(
		(ig, pk, cursor, signal) => ig.feed.getUserFeed(pk, { count: FEED_PAGE, cursor, signal }),
		(user) => user.media_count
	),
	record: Media
}

/** Every kind's source. */
export const KIND_SOURCES: Record<JobKind, KindSource> = {
	followers: userSource(
		(ig, pk, cursor, signal) => ig.friendships.getFollowers(pk, { count: FRIENDSHIP_PAGE, cursor, signal }),
		(user) => user.follower_count
	),
	following: userSource(
		(ig, pk, cursor, signal) => ig.friendships.getFollowing(pk, { count: FRIENDSHIP_PAGE, cursor, signal }),
		(user) => user.following_count
	),
	posts,
	media: posts,
	tag: {
		normalizeTarget: hashtagKey,
		async resolve(ig, target, signal) {
			const info = await ig.hashtags.getInfo(target, { signal })
			return { id: info.name || target, total: info.media_count ?? null }
		},
		page: (ig, tag, cursor, signal) => ig.feed.getTagFeed(tag, { cursor, signal }),
		key: keyOf,
		record: Media
	},
	comments: {
		normalizeTarget: normalizeMedia,
		async resolve(ig, target, signal) {
			const media = await resolveMedia(ig, target, signal)
			return { id: media.pk, total: null }
		},
		page: commentsWithReplies,
		key: keyOf,
		record: Comment
	},
	likers: {
		normalizeTarget: normalizeMedia,
		async resolve(ig, target, signal) {
			const media = await resolveMedia(ig, target, signal)
			return { id: media.pk, total: null }
		},
		page: (ig, pk, cursor, signal) => ig.media.getLikers(pk, { cursor, signal }),
		key: keyOf,
		record: UserShort
	}
}

/**
 * A page of comments, each with every reply: Instagram shows at most two under a comment, so one
 * with more is completed from its reply pages before the page is returned. The job stores the page
 * whole or not at all, so a stop in between asks for the page and its replies again.
 */
async function commentsWithReplies(
	ig: InstagramClient,
	pk: string,
	cursor: string | null,
	signal: AbortSignal
): Promise<PageData<Comment>> {
	const page = await ig.media.getComments(pk, { cursor, signal })
	const items: Comment[] = []
	for (const comment of page.items) {
		if (comment.reply_count <= comment.replies.length) {
			items.push(comment)
			continue
		}
		items.push({ ...comment, replies: (await allReplies(ig, pk, comment.pk, signal)) ?? comment.replies })
	}
	return { items, next_cursor: page.next_cursor }
}

/**
 * Every reply to one comment; undefined when Instagram no longer knows the comment (deleted since
 * its page was listed): the comment keeps the replies it was listed with, and the job goes on.
 */
async function allReplies(
	ig: InstagramClient,
	pk: string,
	commentPk: string,
	signal: AbortSignal
): Promise<CommentReply[] | undefined> {
	const replies: CommentReply[] = []
	const seen = new Set<string>()
	let next: string | null = null
	try {
		do {
			const part = await ig.media.getCommentReplies(pk, commentPk, { cursor: next, signal })
			replies.push(...part.items)
			next = part.next_cursor
			// A cursor that comes back again (A, B, A) leads nowhere new, yet the replies have not
			// ended: the page is a stalled list, which the job asks again, then fails (never a comment
			// stored with part of its replies as if they were all).
			if (next !== null && seen.has(next)) throw new ListStalledError('repeated_cursor')
			if (next) seen.add(next)
		} while (next)
	} catch (error) {
		if (error instanceof IgApiError && error.kind === 'not_found') return undefined
		throw error
	}
	return replies
}

/** What TARGET means for each kind (help texts and error messages). */
export const TARGET_HINTS: Record<JobKind, string> = {
	followers: 'a username',
	following: 'a username',
	posts: 'a username',
	media: 'a username',
	tag: 'a hashtag',
	comments: 'a media pk, post URL or shortcode',
	likers: 'a media pk, post URL or shortcode'
}
