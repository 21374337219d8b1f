/**
 * `ig.media`: media details, likers, comments, and the like/unlike/comment writes (docs/instagram.md,
 * "Media").
 */

import { normalizeMedia, toMediaV2 } from '../normalize/media'
import { normalizeComment, normalizeCommentReply } from '../normalize/social'
import { normalizeUser, normalizeUserShort } from '../normalize/user'
import { asArray, asObject, count, flag, text } from '../normalize/values'
import { type ListOptions, type Page, paginate, paginateWhole, withFields } from '../pagination'
import { mediaPkFrom, shortcodeFromUrl, shortcodeToPk } from '../shortcode'
import type {
	Comment,
	CommentReply,
	LikeResult,
	MediaFull,
	Media as MediaModel,
	MediaV2,
	UserShort
} from '../types'
import {
	ApiGroup,
	call,
	holdsObject,
	isFatal,
	malformedAnswer,
	notFound,
	type RequestOptions,
	requirePk,
	requireText
} from './base'
import { userInfo } from './users'

/** A comments page with the media's totals. */
export type CommentPage = Page<Comment> & { total_count: number; has_more: boolean }
/** A page of one comment's replies with its reply count. */
export type CommentReplyPage = Page<CommentReply> & { total_count: number }

/** Media details and actions. Pks are strings (`"3842790443716764595"`), or `"<pk>_<owner>"` ids. */
/** The longest media URL taken, in characters (a post URL with its tracking parameters fits). */
export const MAX_MEDIA_URL_LENGTH = 2048

export class Media extends ApiGroup {
	/**
	 * Media details: `GET /api/v1/media/{pk}/info/` → `items[0]` [get_default]. An empty `items` is a
	 * media not found; an answer without `items` is malformed (upstream_error).
	 */
	async getInfo(mediaPk: string, options: RequestOptions = {}): Promise<MediaModel> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		const body = await call(this.client, '/api/v1/media/{pk}/info/', {
			params: { pk },
			list: 'items',
			category: 'get_default',
			signal: options.signal
		})
		const item = asArray(body.items)[0]
		if (!item) throw notFound(`Media ${pk}`, 'GET /api/v1/media/{pk}/info/')
		return normalizeMedia(item)
	}

	/**
	 * Media details plus the owner's full profile, the first comments and the likers (four requests;
	 * the three extras are best effort and come back empty when they fail).
	 */
	async getFullInfo(mediaPk: string, options: RequestOptions = {}): Promise<MediaFull> {
		const media = await this.getInfo(mediaPk, options)
		const [owner, comments, likers] = await Promise.allSettled([
			userInfo(this.client, media.user.pk, options.signal).then(normalizeUser),
			this.getComments(media.pk, { signal: options.signal }),
			this.#likers(media.pk, options.signal)
		])
		for (const result of [owner, comments, likers])
			if (result.status === 'rejected' && isFatal(result.reason)) throw result.reason
		return {
			...media,
			owner: owner.status === 'fulfilled' ? owner.value : null,
			comments_preview: comments.status === 'fulfilled' ? comments.value.items : [],
			likers_count: likers.status === 'fulfilled' ? likers.value.total : null,
			likers_preview: likers.status === 'fulfilled' ? likers.value.users.slice(0, 20) : []
		}
	}

	/** Media details in the v2 normalisation (shortcode, type name, reel flag, images, videos). */
	async getInfoV2(mediaPk: string, options: RequestOptions = {}): Promise<MediaV2> {
		return toMediaV2(await this.getInfo(mediaPk, options))
	}

	/** Media by post/reel/tv URL: the shortcode is decoded to the pk locally, then `getInfo`. */
	async getByUrl(url: string, options: RequestOptions = {}): Promise<MediaModel> {
		return this.getInfo(
			shortcodeToPk(shortcodeFromUrl(requireText('url', url, MAX_MEDIA_URL_LENGTH))),
			options
		)
	}

	/** Users who liked the media: `GET /api/v1/media/{pk}/likers/` → `users[]` (Instagram sends them in one piece). */
	async getLikers(mediaPk: string, options: ListOptions = {}): Promise<Page<UserShort>> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		return paginateWhole(async () => (await this.#likers(pk, options.signal)).users, options)
	}

	/**
	 * Comments, newest page first: `GET /api/v1/media/{pk}/comments/?can_support_threading=true&
	 * permalink_enabled=false[&min_id=<cursor>]`. Adds `total_count` (the media's comment count) and
	 * `has_more` (true while `next_cursor` leads to more comments).
	 */
	async getComments(mediaPk: string, options: ListOptions = {}): Promise<CommentPage> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		let total = 0
		const page = await paginate(async (cursor) => {
			const body = await call(this.client, '/api/v1/media/{pk}/comments/', {
				params: { pk },
				query: { can_support_threading: 'true', permalink_enabled: 'false', min_id: cursor },
				list: 'comments|comments_disabled',
				category: 'get_default',
				signal: options.signal
			})
			total = count(body.comment_count)
			const more = flag(body.has_more_comments) || flag(body.has_more_headload_comments)
			const next = text(body.next_min_id)
			return { items: asArray(body.comments).map(normalizeComment), next_cursor: more && next ? next : null }
		}, options)
		return withFields(page, { total_count: total, has_more: page.next_cursor !== null })
	}

	/**
	 * Every reply to one comment, oldest first (a comment shows at most two):
	 * `GET /api/v1/media/{pk}/comments/{comment}/child_comments/[?min_id=<cursor>]` →
	 * `child_comments[]` [get_default]. Adds `total_count` (the comment's reply count).
	 */
	async getCommentReplies(
		mediaPk: string,
		commentPk: string,
		options: ListOptions = {}
	): Promise<CommentReplyPage> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		const comment = requirePk('commentPk', commentPk)
		let total = 0
		const page = await paginate(async (cursor) => {
			const body = await call(this.client, '/api/v1/media/{pk}/comments/{comment}/child_comments/', {
				params: { pk, comment },
				query: { min_id: cursor },
				list: 'child_comments',
				category: 'get_default',
				signal: options.signal
			})
			total = count(body.child_comment_count)
			const next = text(body.next_min_child_cursor)
			return {
				items: asArray(body.child_comments).map(normalizeCommentReply),
				next_cursor: flag(body.has_more_head_child_comments) && next ? next : null
			}
		}, options)
		return withFields(page, { total_count: total })
	}

	/** Likes the media as the viewer: `POST /api/v1/web/likes/{pk}/like/` [post_like]. */
	async like(mediaPk: string, options: RequestOptions = {}): Promise<LikeResult> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		await call(this.client, '/api/v1/web/likes/{pk}/like/', {
			method: 'POST',
			params: { pk },
			category: 'post_like',
			signal: options.signal
		})
		return { media_pk: pk, has_liked: true }
	}

	/** Removes the viewer's like: `POST /api/v1/web/likes/{pk}/unlike/` [post_like]. */
	async unlike(mediaPk: string, options: RequestOptions = {}): Promise<LikeResult> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		await call(this.client, '/api/v1/web/likes/{pk}/unlike/', {
			method: 'POST',
			params: { pk },
			category: 'post_like',
			signal: options.signal
		})
		return { media_pk: pk, has_liked: false }
	}

	/** Comments as the viewer: `POST /api/v1/web/comments/{pk}/add/` with `comment_text` [post_comment]. */
	async comment(mediaPk: string, text: string, options: RequestOptions = {}): Promise<Comment> {
		const pk = mediaPkFrom(requirePk('mediaPk', mediaPk))
		const body = await call(this.client, '/api/v1/web/comments/{pk}/add/', {
			method: 'POST',
			params: { pk },
			form: { comment_text: requireText('text', text, 2200) },
			category: 'post_comment',
			signal: options.signal
		})
		// The web endpoint answers `{id, text, from, created_time}`; the app endpoint `{comment: {...}}`.
		// An answer with neither is malformed (upstream_error), not a comment made of defaults.
		if (!holdsObject(body, 'comment') && !body.id)
			throw malformedAnswer(`POST /api/v1/web/comments/${pk}/add/`, 'its comment (id, comment)', true)
		const raw = asObject(body.comment ?? body)
		return normalizeComment({
			...raw,
			pk: raw.pk ?? raw.id,
			user: raw.user ?? raw.from,
			created_at: raw.created_at ?? raw.created_time
		})
	}

	/** Likers page of a media and the upstream total. */
	async #likers(pk: string, signal?: AbortSignal): Promise<{ users: UserShort[]; total: number }> {
		const body = await call(this.client, '/api/v1/media/{pk}/likers/', {
			params: { pk },
			list: 'users',
			category: 'get_default',
			signal
		})
		const users = asArray(body.users).map(normalizeUserShort)
		return { users, total: count(body.user_count ?? users.length) }
	}
}
