/** Stories, highlights, hashtags, search, friendships, notifications and direct messages. */
import { type Static, Type } from '@sinclair/typebox'
import { ImageVersion } from './common'
import { Count, Id, Nullable } from './helpers'
import { Place, UserRef } from './media'
import { UserShort } from './users'

/** A story item. */
export const Story = Type.Object({
	pk: Id,
	id: Type.String(),
	media_type: Type.Integer(),
	taken_at: Type.Integer(),
	expiring_at: Nullable(Type.Integer()),
	video_duration: Nullable(Type.Number()),
	thumbnail_url: Nullable(Type.String()),
	image_versions: Type.Array(ImageVersion),
	video_versions: Type.Array(ImageVersion),
	user: Nullable(UserRef),
	mentions: Type.Array(Type.String()),
	hashtags: Type.Array(Type.String()),
	locations: Type.Array(Place),
	links: Type.Array(Type.String()),
	polls: Type.Array(Type.Object({ question: Type.String(), options: Type.Array(Type.String()) })),
	viewer_count: Nullable(Count)
})

/** A story highlight (`id` keeps Instagram's `highlight:<pk>` form). */
export const Highlight = Type.Object({
	id: Type.String(),
	pk: Id,
	title: Type.String(),
	media_count: Count,
	created_at: Nullable(Type.Integer()),
	updated_at: Nullable(Type.Integer()),
	is_pinned: Type.Boolean(),
	cover_url: Nullable(Type.String())
})

/** One account in the stories tray. */
export const ReelTrayItem = Type.Object({
	id: Id,
	user: UserShort,
	latest_reel_media: Nullable(Type.Integer()),
	seen: Type.Boolean(),
	media_count: Count,
	has_besties_media: Type.Boolean()
})

/** A hashtag. */
export const Hashtag = Type.Object({
	id: Id,
	name: Type.String(),
	media_count: Count,
	following: Nullable(Type.Boolean()),
	profile_pic_url: Nullable(Type.String()),
	subtitle: Nullable(Type.String())
})

/** `search.top`: blended results. */
export const TopSearch = Type.Object({
	users: Type.Array(UserShort),
	hashtags: Type.Array(Hashtag),
	places: Type.Array(Place)
})

/** The viewer's relationship with a user (`/friendships/show/{pk}/`). */
export const FriendshipStatus = Type.Object({
	user_pk: Id,
	following: Type.Boolean(),
	followed_by: Type.Boolean(),
	blocking: Type.Boolean(),
	muting: Type.Boolean(),
	is_private: Type.Boolean(),
	incoming_request: Type.Boolean(),
	outgoing_request: Type.Boolean(),
	is_bestie: Type.Boolean(),
	is_restricted: Type.Boolean()
})

/** A saved-posts collection (the saved tab lists collections, not posts). */
export const SavedCollection = Type.Object({
	collection_id: Id,
	collection_name: Type.String(),
	collection_media_count: Count,
	cover_urls: Type.Array(Type.String())
})

/** An activity-feed notification with `args` flattened in (`section`: new or old stories). */
export const Notification = Type.Object({
	pk: Type.String(),
	section: Type.Union([Type.Literal('new'), Type.Literal('old')]),
	story_type: Type.Integer(),
	notif_name: Type.String(),
	type: Nullable(Type.Integer()),
	text: Type.String(),
	timestamp: Nullable(Type.Number()),
	profile_id: Nullable(Id),
	profile_name: Nullable(Type.String()),
	profile_image: Nullable(Type.String()),
	destination: Nullable(Type.String()),
	media: Type.Array(
		Type.Object({ id: Type.String(), image: Nullable(Type.String()), shortcode: Nullable(Type.String()) })
	),
	inline_follow: Nullable(
		Type.Object({
			user: UserShort,
			following: Type.Boolean(),
			outgoing_request: Type.Boolean(),
			incoming_request: Type.Boolean()
		})
	)
})

/** Activity-feed counters (`likes`, `comments`, `relationships`, ...). */
export const NotificationCounts = Type.Record(Type.String(), Type.Number())

/** `notifications.getActivity`: the whole activity inbox. */
export const Activity = Type.Object({
	counts: NotificationCounts,
	last_checked: Nullable(Type.Number()),
	new_stories: Type.Array(Notification),
	old_stories: Type.Array(Notification),
	is_last_page: Type.Boolean(),
	continuation_token: Nullable(Type.String())
})

/** One direct message. `timestamp` is unix seconds (Instagram sends microseconds). */
export const DirectMessage = Type.Object({
	item_id: Id,
	user_id: Id,
	timestamp: Type.Number(),
	item_type: Type.String(),
	text: Nullable(Type.String())
})

/** A direct-message thread. */
export const DirectThread = Type.Object({
	thread_id: Id,
	thread_title: Type.String(),
	is_group: Type.Boolean(),
	muted: Type.Boolean(),
	has_older: Type.Boolean(),
	last_activity_at: Nullable(Type.Number()),
	users: Type.Array(UserShort),
	items: Type.Array(DirectMessage),
	last_message: Nullable(Type.String())
})

/** Result of `direct.sendText`. */
export const DirectSendResult = Type.Object({
	thread_id: Id,
	item_id: Id,
	timestamp: Nullable(Type.Number())
})

export type Story = Static<typeof Story>
export type Highlight = Static<typeof Highlight>
export type ReelTrayItem = Static<typeof ReelTrayItem>
export type Hashtag = Static<typeof Hashtag>
export type TopSearch = Static<typeof TopSearch>
export type FriendshipStatus = Static<typeof FriendshipStatus>
export type SavedCollection = Static<typeof SavedCollection>
export type Notification = Static<typeof Notification>
export type NotificationCounts = Static<typeof NotificationCounts>
export type Activity = Static<typeof Activity>
export type DirectMessage = Static<typeof DirectMessage>
export type DirectThread = Static<typeof DirectThread>
export type DirectSendResult = Static<typeof DirectSendResult>
