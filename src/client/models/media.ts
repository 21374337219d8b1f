/**
 * Media models: posts, reels and carousels, their comments, places and music, and the anonymous
 * profile with its recent posts.
 */
import { type Static, Type } from '@sinclair/typebox'
import { ImageVersion, Page } from './common'
import { Count, Id, Nullable } from './helpers'
import { User, UserShort } from './users'

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

/** A reply to a comment: shown under it (`preview_child_comments[]`), or all of them (`getCommentReplies`). */
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

/** `media.getInfoV2`: the media plus the v2 normalisation (docs/instagram.md, "Media"). */
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

/** Result of `media.like` / `media.unlike`. */
export const LikeResult = Type.Object({ media_pk: Id, has_liked: Type.Boolean() })

/** A page of comments with the media's totals. */
export const CommentPage = Type.Composite([
	Page(Comment),
	Type.Object({ total_count: Count, has_more: Type.Boolean() })
])

/** A page of a comment's replies, oldest first, with the comment's reply count. */
export const CommentReplyPage = Type.Composite([Page(CommentReply), Type.Object({ total_count: Count })])

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
export type LikeResult = Static<typeof LikeResult>
