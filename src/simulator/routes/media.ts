/**
 * Posts: `/media/{pk}/info/`, `/likers/`, `/comments/` and a comment's replies,
 * `/comments/{comment}/child_comments/` (both paged with min_id), and the write actions like,
 * unlike and comment, under both Instagram's app paths (`/media/{pk}/like/`, `/media/{pk}/comment/`) and
 * its web paths (`/web/likes/{pk}/like/`, `/web/comments/{pk}/add/`).
 */
import { decodeCursor, encodeCursor, pageOf } from '../cursor'
import type { DemoMedia } from '../dataset-types'
import { fail, ok, type Reply, type Route, type RouteContext } from '../http'
import { commentView, mediaItem } from '../views-media'
import { userShort } from '../views-user'
import { isReply, mediaParam } from './common'

/** Comments per page, as Instagram's web client receives them. */
const COMMENT_PAGE = 15
const MAX_COMMENT_LENGTH = 2200

/** The offset in a `min_id`: Instagram's is a JSON text holding a `server_cursor`; a bare cursor works too. */
function commentOffset(minId: string | null): number | null {
	if (minId?.startsWith('{')) {
		try {
			const parsed = JSON.parse(minId) as { server_cursor?: unknown }
			return typeof parsed.server_cursor === 'string' ? decodeCursor('comments', parsed.server_cursor) : null
		} catch {
			return null
		}
	}
	return decodeCursor('comments', minId)
}

function comments(context: RouteContext): Reply {
	const media = mediaParam(context)
	if (isReply(media)) return media
	const offset = commentOffset(context.query.get('min_id'))
	if (offset === null) return fail(400, 'Invalid min_id')
	const all = context.state.commentsOf(media)
	const page = all.slice(offset, offset + COMMENT_PAGE)
	const end = offset + page.length
	const hasMore = end < all.length
	const caption = mediaItem(context, media).caption
	return ok({
		comments: page.map((comment) => commentView(context, comment, comment.likeCount >= 40)),
		comment_count: context.state.commentCount(media),
		caption,
		caption_is_edited: false,
		has_more_comments: hasMore,
		has_more_headload_comments: false,
		next_min_id: hasMore
			? JSON.stringify({ server_cursor: encodeCursor('comments', end), is_server_cursor_inverse: true })
			: undefined,
		threading_enabled: true,
		media_header_display: 'none',
		initiate_at_top: true,
		insert_new_comment_to_top: true,
		can_view_more_preview_comments: false
	})
}

/** Replies per page of `/comments/{pk}/child_comments/` (small, so the demo's threads page). */
const REPLY_PAGE = 2

/** All replies of one comment, oldest first, paged with `min_id` like the comments themselves. */
function childComments(context: RouteContext): Reply {
	const media = mediaParam(context)
	if (isReply(media)) return media
	const parent = context.state.commentsOf(media).find((comment) => comment.pk === context.params.comment)
	if (!parent) return fail(404, 'Comment not found')
	const offset = decodeCursor(`replies-${parent.pk}`, context.query.get('min_id'))
	if (offset === null) return fail(400, 'Invalid min_id')
	const { page, nextCursor } = pageOf(parent.replies, `replies-${parent.pk}`, offset, REPLY_PAGE)
	return ok({
		parent_comment: commentView(context, parent),
		child_comments: page.map((reply) => commentView(context, reply)),
		child_comment_count: parent.replies.length,
		has_more_head_child_comments: nextCursor !== null,
		next_min_child_cursor: nextCursor ?? undefined,
		has_more_tail_child_comments: false,
		num_head_child_comments: parent.replies.length - offset - page.length,
		num_tail_child_comments: 0
	})
}

/** Validates `comment_text` and adds the comment; the caller shapes the answer. */
function addComment(
	context: RouteContext,
	shape: (media: DemoMedia, reply: ReturnType<typeof commentView>) => Reply
) {
	const media = mediaParam(context)
	if (isReply(media)) return media
	const text = (context.form.get('comment_text') ?? '').trim()
	if (text === '') return fail(400, 'Comment text is empty')
	if ([...text].length > MAX_COMMENT_LENGTH) return fail(400, 'Comment is too long')
	const comment = context.state.addComment(media, text, context.now)
	return shape(media, commentView(context, comment))
}

function likeRoute(path: string, liked: boolean): Route {
	return {
		method: 'POST',
		path,
		access: 'session',
		handle(context) {
			const media = mediaParam(context)
			if (isReply(media)) return media
			if (liked) context.state.like(media)
			else context.state.unlike(media)
			return ok({})
		}
	}
}

/** Post routes, reads and writes. */
export const mediaRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/media/:pk/info/',
		access: 'session',
		handle(context) {
			const media = mediaParam(context)
			if (isReply(media)) return media
			return ok({
				items: [mediaItem(context, media)],
				num_results: 1,
				more_available: false,
				auto_load_more_enabled: false
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/media/:pk/likers/',
		access: 'session',
		handle(context) {
			const media = mediaParam(context)
			if (isReply(media)) return media
			const users = context.state.likersOf(media).flatMap((pk) => {
				const user = context.state.user(pk)
				return user ? [userShort(context, user)] : []
			})
			return ok({ users, user_count: users.length })
		}
	},
	{ method: 'GET', path: '/api/v1/media/:pk/comments/', access: 'session', handle: comments },
	{
		method: 'GET',
		path: '/api/v1/media/:pk/comments/:comment/child_comments/',
		access: 'session',
		handle: childComments
	},
	likeRoute('/api/v1/media/:pk/like/', true),
	likeRoute('/api/v1/media/:pk/unlike/', false),
	likeRoute('/api/v1/web/likes/:pk/like/', true),
	likeRoute('/api/v1/web/likes/:pk/unlike/', false),
	{
		method: 'POST',
		path: '/api/v1/media/:pk/comment/',
		access: 'session',
		handle: (context) => addComment(context, (_media, comment) => ok({ comment }))
	},
	{
		method: 'POST',
		path: '/api/v1/web/comments/:pk/add/',
		access: 'session',
		handle: (context) =>
			addComment(context, (_media, comment) => {
				const viewer = userShort(context, context.state.viewer)
				return ok({
					id: comment.pk,
					from: {
						id: viewer.pk,
						username: viewer.username,
						full_name: viewer.full_name,
						profile_pic_url: viewer.profile_pic_url
					},
					text: comment.text,
					created_time: comment.created_at
				})
			})
	}
]
