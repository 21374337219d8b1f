/**
 * The client's models, declared once as TypeBox schemas (they also feed the playground's OpenAPI).
 *
 * Field names mirror Instagram's snake_case. Every id (`pk`, `id`, `*_id`) is a decimal string
 * because media pks exceed 2^53. Times are Instagram's unix seconds. Fields a source may lack are
 * present as `null` rather than missing, so records keep the same columns (CSV export).
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox'

const Id = Type.String({ description: '64-bit Instagram id as a decimal string' })
const Nullable = <Schema extends TSchema>(schema: Schema) => Type.Union([schema, Type.Null()])
const Count = Type.Integer({ minimum: 0 })

/** One rendition of an image or video. */
export const ImageVersion = Type.Object({ width: Type.Integer(), height: Type.Integer(), url: Type.String() })

/** The short user record of lists (followers, likers, search results). */
export const UserShort = Type.Object({
	pk: Id,
	username: Type.String(),
	full_name: Type.String(),
	is_private: Type.Boolean(),
	is_verified: Type.Boolean(),
	profile_pic_url: Type.String()
})

/** A link-in-bio entry (`bio_links[]`). */
export const BioLink = Type.Object({
	title: Type.String(),
	url: Type.String(),
	lynx_url: Nullable(Type.String()),
	link_type: Nullable(Type.String())
})

/** A structured mention or hashtag from `biography_with_entities`. */
export const BioEntity = Type.Union([
	Type.Object({ type: Type.Literal('mention'), username: Type.String() }),
	Type.Object({ type: Type.Literal('hashtag'), name: Type.String() })
])

/** Public business contact details (user info endpoint only). */
export const Contact = Type.Object({
	email: Nullable(Type.String()),
	phone: Nullable(Type.String()),
	phone_country_code: Nullable(Type.String()),
	city: Nullable(Type.String()),
	address: Nullable(Type.String())
})

/** A full user profile, normalised from web_profile_info or `/users/{pk}/info/`. */
export const User = Type.Object({
	pk: Id,
	username: Type.String(),
	full_name: Type.String(),
	is_private: Type.Boolean(),
	is_verified: Type.Boolean(),
	profile_pic_url: Type.String(),
	profile_pic_url_hd: Nullable(Type.String()),
	biography: Type.String(),
	external_url: Nullable(Type.String()),
	follower_count: Count,
	following_count: Count,
	media_count: Count,
	is_business: Type.Boolean(),
	is_professional_account: Nullable(Type.Boolean()),
	category: Nullable(Type.String()),
	highlight_count: Nullable(Count),
	mutual_followers_count: Nullable(Count),
	total_clips_count: Nullable(Count),
	is_threads_user: Nullable(Type.Boolean()),
	pronouns: Type.Array(Type.String()),
	fbid: Nullable(Id),
	contact: Contact,
	bio_links: Type.Array(BioLink),
	bio_entities: Type.Array(BioEntity)
})

/** Everything found in a biography (`users.parseBio`). */
export const ParsedBio = Type.Object({
	pk: Id,
	username: Type.String(),
	biography: Type.String(),
	bio_mentions: Type.Array(Type.String()),
	bio_hashtags: Type.Array(Type.String()),
	bio_urls: Type.Array(Type.String()),
	bio_emails: Type.Array(Type.String()),
	bio_phones: Type.Array(Type.String()),
	bio_links: Type.Array(BioLink),
	bio_entities: Type.Array(BioEntity)
})

/** `users.getFullProfile`: web profile merged with user info (web values win) plus bio parsing. */
export const FullProfile = Type.Composite([
	User,
	Type.Omit(ParsedBio, ['pk', 'username', 'biography', 'bio_links', 'bio_entities']),
	Type.Object({ sources: Type.Array(Type.String({ description: 'upstream sources that answered' })) })
])

/** A place or media location. */
export const Place = Type.Object({
	pk: Id,
	name: Type.String(),
	title: Nullable(Type.String()),
	subtitle: Nullable(Type.String()),
	address: Nullable(Type.String()),
	city: Nullable(Type.String()),
	short_name: Nullable(Type.String()),
	lat: Nullable(Type.Number()),
	lng: Nullable(Type.Number()),
	facebook_places_id: Nullable(Id)
})

/** Music attached to a post or reel. */
export const Music = Type.Object({
	id: Nullable(Id),
	title: Nullable(Type.String()),
	artist: Nullable(Type.String()),
	duration_ms: Nullable(Count),
	cover_url: Nullable(Type.String())
})

/** A reference to a user inside another record (tags, coauthors). */
export const UserRef = Type.Object({ pk: Id, username: Type.String() })

/** One slide of a carousel post. */
export const CarouselItem = Type.Object({
	pk: Id,
	id: Type.String(),
	media_type: Type.Integer(),
	thumbnail_url: Nullable(Type.String()),
	image_versions: Type.Array(ImageVersion),
	video_versions: Type.Array(ImageVersion)
})

/** A post, reel or carousel. `media_type`: 1 photo, 2 video, 8 carousel. */
export const Media = Type.Object({
	pk: Id,
	id: Type.String({ description: '"<pk>_<owner pk>"' }),
	code: Type.String({ description: 'shortcode' }),
	media_type: Type.Integer(),
	product_type: Nullable(Type.String()),
	taken_at: Type.Integer(),
	caption_text: Type.String(),
	like_count: Count,
	comment_count: Count,
	play_count: Nullable(Count),
	view_count: Nullable(Count),
	reshare_count: Nullable(Count),
	user: UserShort,
	thumbnail_url: Nullable(Type.String()),
	image_versions: Type.Array(ImageVersion),
	video_versions: Type.Array(ImageVersion),
	carousel_media_count: Nullable(Count),
	carousel: Type.Array(CarouselItem),
	location: Nullable(Place),
	music: Nullable(Music),
	has_liked: Nullable(Type.Boolean()),
	has_saved: Nullable(Type.Boolean()),
	accessibility_caption: Nullable(Type.String()),
	is_paid_partnership: Type.Boolean(),
	tagged_users: Type.Array(UserRef),
	coauthors: Type.Array(UserRef),
	top_likers: Type.Array(Type.String())
})

const CommentFields = {
	pk: Id,
	text: Type.String(),
	created_at: Type.Integer(),
	user: UserShort,
	like_count: Count,
	reply_count: Count,
	is_ranked: Type.Boolean(),
	is_edited: Type.Boolean(),
	mentions: Type.Array(Type.String()),
	hashtags: Type.Array(Type.String())
}

/** A reply shown under a comment (`preview_child_comments[]`). */
export const CommentReply = Type.Object(CommentFields)

/** `public.getProfile`: a `User` read anonymously, with its recent posts and the strategy that answered. */
export const PublicProfile = Type.Composite([
	User,
	Type.Object({
		recent_posts: Type.Array(Media),
		source: Type.Union([Type.Literal('web_profile_info'), Type.Literal('graphql'), Type.Literal('html')])
	})
])

/** A comment with its preview replies. */
export const Comment = Type.Object({ ...CommentFields, replies: Type.Array(CommentReply) })

/** `media.getFullInfo`: the media plus its owner's profile, first comments and likers. */
export const MediaFull = Type.Composite([
	Media,
	Type.Object({
		owner: Nullable(User),
		comments_preview: Type.Array(Comment),
		likers_count: Nullable(Count),
		likers_preview: Type.Array(UserShort)
	})
])

/** `media.getInfoV2`: the media plus the v2 normalisation (upstream-facts 2.2). */
export const MediaV2 = Type.Composite([
	Media,
	Type.Object({
		shortcode: Type.String(),
		media_type_name: Type.Union([
			Type.Literal('photo'),
			Type.Literal('video'),
			Type.Literal('reel'),
			Type.Literal('carousel')
		]),
		is_reel: Type.Boolean(),
		images: Type.Array(ImageVersion),
		videos: Type.Array(ImageVersion)
	})
])

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

/** Result of `media.like` / `media.unlike`. */
export const LikeResult = Type.Object({ media_pk: Id, has_liked: Type.Boolean() })

/** A raw upstream object passed through (account settings, login activity, privacy). */
export const RawObject = Type.Record(Type.String(), Type.Unknown())

/** A page of a list: the items and the cursor of the next page (`null` at the end). */
export const Page = <Item extends TSchema>(item: Item) =>
	Type.Object({ items: Type.Array(item), next_cursor: Nullable(Type.String()) })

/** A page of comments with the media's totals. */
export const CommentPage = Type.Composite([
	Page(Comment),
	Type.Object({ total_count: Count, has_more: Type.Boolean() })
])

export type ImageVersion = Static<typeof ImageVersion>
export type UserShort = Static<typeof UserShort>
export type BioLink = Static<typeof BioLink>
export type BioEntity = Static<typeof BioEntity>
export type Contact = Static<typeof Contact>
export type User = Static<typeof User>
export type ParsedBio = Static<typeof ParsedBio>
export type FullProfile = Static<typeof FullProfile>
export type Place = Static<typeof Place>
export type Music = Static<typeof Music>
export type UserRef = Static<typeof UserRef>
export type CarouselItem = Static<typeof CarouselItem>
export type Media = Static<typeof Media>
export type PublicProfile = Static<typeof PublicProfile>
export type CommentReply = Static<typeof CommentReply>
export type Comment = Static<typeof Comment>
export type MediaFull = Static<typeof MediaFull>
export type MediaV2 = Static<typeof MediaV2>
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
export type LikeResult = Static<typeof LikeResult>
export type RawObject = Static<typeof RawObject>
/** Plain page data (what JSON serialisation of a `Page` yields). */
export type PageData<Item> = { items: Item[]; next_cursor: string | null }
