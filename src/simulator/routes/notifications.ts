/**
 * The activity feed: `POST /api/v1/news/inbox/` with `counts`, `new_stories`, `old_stories` and time-bucket
 * partitions. Story types as Instagram: 101 user_followed, 60 like, 13 comment_like, 12 comment.
 * Notifications come newest first in pages of {@link INBOX_PAGE}: a page that is not the last has
 * `is_last_page: false` and a `continuation_token`, which the next request sends in its form.
 */
import { decodeCursor, pageOf } from '../cursor'
import type { DemoNotification } from '../dataset-types'
import { fail, ok, type Route, type RouteContext } from '../http'
import { liveTime } from '../presets'
import { imageUrl } from '../views-media'
import { profilePicUrl } from '../views-user'

/** Notifications per inbox page (new and old together). */
const INBOX_PAGE = 11

const STORY_TYPES = { user_followed: 101, like: 60, comment_like: 13, comment: 12 } as const
const TYPES = { user_followed: 3, like: 1, comment_like: 1, comment: 1 } as const

function describe(notification: DemoNotification, username: string): string {
	switch (notification.kind) {
		case 'user_followed':
			return `${username} started following you.`
		case 'like':
			return `${username} liked your post.`
		case 'comment_like':
			return `${username} liked your comment: ${notification.commentText ?? ''}`
		case 'comment':
			return `${username} commented: ${notification.commentText ?? ''}`
	}
}

function storyOf(context: RouteContext, notification: DemoNotification) {
	const { state } = context
	const user = state.user(notification.userPk)
	const username = user?.username ?? 'someone'
	const media = notification.mediaPk ? state.media(notification.mediaPk) : undefined
	const text = describe(notification, username)
	return {
		pk: notification.pk,
		story_type: STORY_TYPES[notification.kind],
		notif_name: notification.kind,
		type: TYPES[notification.kind],
		args: {
			text,
			rich_text: text.replace(username, `{${username}|000000|1|user?id=${notification.userPk}}`),
			links: [{ start: 0, end: username.length, type: 'user', id: notification.userPk, username }],
			profile_id: notification.userPk,
			profile_name: username,
			profile_image: user ? profilePicUrl(context.origin, user) : '',
			destination: media ? `media?id=${media.id}` : `user?username=${username}`,
			timestamp: liveTime(notification.timestamp, context.now),
			tuuid: notification.pk,
			media: media
				? [{ id: media.id, image: imageUrl(context.origin, media.code, 150, 150), shortcode: media.code }]
				: undefined,
			inline_follow:
				notification.kind === 'user_followed' && user
					? {
							user_info: {
								pk: user.pk,
								username: user.username,
								full_name: user.fullName,
								is_private: user.isPrivate,
								profile_pic_url: profilePicUrl(context.origin, user)
							},
							following: state.isFollowing(user.pk),
							outgoing_request: state.hasOutgoingRequest(user.pk),
							incoming_request: false
						}
					: undefined,
			extra_actions: []
		}
	}
}

/** Counts by kind among the new notifications. */
function counts(fresh: readonly DemoNotification[], requests: number) {
	const count = (kind: DemoNotification['kind']) =>
		fresh.filter((notification) => notification.kind === kind).length
	return {
		likes: count('like'),
		comments: count('comment'),
		comment_likes: count('comment_like'),
		relationships: count('user_followed'),
		usertags: 0,
		photos_of_you: 0,
		requests,
		new_posts: 0,
		media_to_approve: 0,
		promotional: 0,
		fundraiser: 0,
		shopping_notification: 0,
		campaign_notification: 0,
		activity_feed_dot_badge: fresh.length > 0 ? 1 : 0,
		activity_feed_dot_badge_only: 0
	}
}

/** Notification routes. */
export const notificationsRoutes: readonly Route[] = [
	{
		method: 'POST',
		path: '/api/v1/news/inbox/',
		access: 'session',
		handle(context) {
			const all = context.state.data.viewer.notifications
			const fresh = all.filter((notification) => notification.isNew)
			const token = context.form.get('continuation_token') ?? context.query.get('continuation_token')
			const offset = decodeCursor('inbox-news', token)
			if (offset === null) return fail(400, 'Invalid continuation_token')
			// New notifications lead, then the old ones, as the app shows them.
			const ordered = [...fresh, ...all.filter((notification) => !notification.isNew)]
			const { page, nextCursor } = pageOf(ordered, 'inbox-news', offset, INBOX_PAGE)
			const old = page.filter((notification) => !notification.isNew)
			const newest = all[0]?.timestamp ?? context.now
			const bucket = (days: number) =>
				old.findIndex((notification) => notification.timestamp < newest - days * 86400)
			const indices = [0, bucket(1), bucket(7), bucket(30)].map((index) => (index < 0 ? old.length : index))
			return ok({
				counts: counts(fresh, context.state.data.graph.pendingRequests.length),
				last_checked: liveTime(fresh.at(-1)?.timestamp ?? newest, context.now),
				new_stories: page
					.filter((notification) => notification.isNew)
					.map((notification) => storyOf(context, notification)),
				old_stories: old.map((notification) => storyOf(context, notification)),
				is_last_page: nextCursor === null,
				continuation_token: nextCursor ?? 0,
				subscription: null,
				partition: { time_bucket: { headers: ['Today', 'This week', 'This month', 'Earlier'], indices } }
			})
		}
	}
]
