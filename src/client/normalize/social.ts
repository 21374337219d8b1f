/**
 * Comments, friendship status, notifications and direct threads (docs/instagram.md, "Media",
 * "Friendships", "Hashtags, notifications, direct").
 */
import { extractHashtags, extractMentions } from '../bio'
import { toId } from '../json'
import type {
	Comment,
	CommentReply,
	DirectMessage,
	DirectThread,
	FriendshipStatus,
	Notification
} from '../types'
import { normalizeUserShort } from './user'
import { asArray, asObject, count, flag, idOrNull, numberOrNull, text, textOrNull } from './values'

/** A reply to a comment (also the fields every comment has). */
export function normalizeCommentReply(value: unknown): CommentReply {
	const raw = asObject(value)
	const body = text(raw.text)
	return {
		pk: toId(raw.pk ?? raw.id),
		text: body,
		created_at: count(raw.created_at ?? raw.created_at_utc),
		user: normalizeUserShort(raw.user),
		like_count: count(raw.comment_like_count ?? raw.like_count),
		reply_count: count(raw.child_comment_count),
		is_ranked: flag(raw.is_ranked_comment),
		is_edited: flag(raw.is_edited),
		mentions: extractMentions(body),
		hashtags: extractHashtags(body)
	}
}

/** A `Comment` with its preview replies. */
export function normalizeComment(value: unknown): Comment {
	return {
		...normalizeCommentReply(value),
		replies: asArray(asObject(value).preview_child_comments).map(normalizeCommentReply)
	}
}

/** The viewer's relationship with `userPk`. */
export function normalizeFriendshipStatus(value: unknown, userPk: string): FriendshipStatus {
	const raw = asObject(value)
	return {
		user_pk: userPk,
		following: flag(raw.following),
		followed_by: flag(raw.followed_by),
		blocking: flag(raw.blocking),
		muting: flag(raw.muting),
		is_private: flag(raw.is_private),
		incoming_request: flag(raw.incoming_request),
		outgoing_request: flag(raw.outgoing_request),
		is_bestie: flag(raw.is_bestie),
		is_restricted: flag(raw.is_restricted)
	}
}

/** A `Notification` with `args` flattened in. */
export function normalizeNotification(value: unknown, section: 'new' | 'old'): Notification {
	const raw = asObject(value)
	const args = asObject(raw.args)
	const inline = args.inline_follow ? asObject(args.inline_follow) : undefined
	return {
		pk: text(raw.pk),
		section,
		story_type: count(raw.story_type),
		notif_name: text(raw.notif_name),
		type: numberOrNull(raw.type),
		text: text(args.text ?? args.rich_text),
		timestamp: numberOrNull(args.timestamp),
		profile_id: idOrNull(args.profile_id),
		profile_name: textOrNull(args.profile_name),
		profile_image: textOrNull(args.profile_image),
		destination: textOrNull(args.destination),
		media: asArray(args.media).map((media) => ({
			id: toId(media.id),
			image: textOrNull(media.image),
			shortcode: textOrNull(media.shortcode)
		})),
		inline_follow: inline
			? {
					user: normalizeUserShort(inline.user_info),
					following: flag(inline.following),
					outgoing_request: flag(inline.outgoing_request),
					incoming_request: flag(inline.incoming_request)
				}
			: null
	}
}

/** Instagram direct timestamps are microseconds; the models use unix seconds. */
function microsToSeconds(value: unknown): number | null {
	const micros = numberOrNull(value)
	return micros === null ? null : Math.floor(micros / 1_000_000)
}

function directMessage(value: unknown): DirectMessage {
	const raw = asObject(value)
	return {
		item_id: toId(raw.item_id),
		user_id: toId(raw.user_id),
		timestamp: microsToSeconds(raw.timestamp) ?? 0,
		item_type: text(raw.item_type),
		text: textOrNull(raw.text)
	}
}

/** A `DirectThread` from the inbox. */
export function normalizeThread(value: unknown): DirectThread {
	const raw = asObject(value)
	const items = asArray(raw.items).map(directMessage)
	const last = asObject(raw.last_permanent_item)
	return {
		thread_id: toId(raw.thread_id),
		thread_title: text(raw.thread_title),
		is_group: flag(raw.is_group),
		muted: flag(raw.muted),
		has_older: flag(raw.has_older),
		last_activity_at: microsToSeconds(raw.last_activity_at),
		users: asArray(raw.users).map(normalizeUserShort),
		items,
		last_message: textOrNull(last.text) ?? items[0]?.text ?? null
	}
}
