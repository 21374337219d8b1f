/**
 * Analytics models: the figures of one profile computed from its recent posts, and the comparison of
 * several profiles on the same figures.
 */
import { type Static, Type } from '@sinclair/typebox'
import { Count, Id, Nullable } from './helpers'

/** A post as the figures used it. */
export const AnalyzedPost = Type.Object({
	pk: Id,
	code: Type.String(),
	taken_at: Type.Integer(),
	media_type: Type.Integer({ description: '1 photo, 2 video, 8 carousel' }),
	product_type: Nullable(Type.String()),
	like_count: Count,
	comment_count: Count
})

/** One of the best-performing posts (likes plus comments). */
export const TopPost = Type.Composite([
	AnalyzedPost,
	Type.Object({
		url: Type.String(),
		thumbnail_url: Nullable(Type.String()),
		caption_text: Type.String({ description: 'the caption, cut at 200 characters' }),
		engagement: Count
	})
])

/** A hashtag or mention and in how many of the posts it appears. */
export const TermCount = Type.Object({ term: Type.String(), posts: Count })

/** How the posts divide into photos, videos, reels and carousels. */
export const MediaMix = Type.Object({ photo: Count, video: Count, reel: Count, carousel: Count })

/**
 * The figures of one profile from its most recent posts. Averages are per post; the engagement rate
 * is (average likes + average comments) / followers, as a percentage. Times are UTC.
 */
export const ProfileAnalytics = Type.Object({
	pk: Id,
	username: Type.String(),
	full_name: Type.String(),
	profile_pic_url: Type.String(),
	is_private: Type.Boolean(),
	is_verified: Type.Boolean(),
	follower_count: Count,
	following_count: Count,
	media_count: Count,
	posts_requested: Count,
	posts_analyzed: Count,
	first_post_at: Nullable(Type.Integer({ description: 'oldest analysed post (unix seconds)' })),
	last_post_at: Nullable(Type.Integer({ description: 'newest analysed post (unix seconds)' })),
	avg_likes: Nullable(Type.Number({ description: 'rounded to 2 decimals; null without posts' })),
	avg_comments: Nullable(Type.Number({ description: 'rounded to 2 decimals; null without posts' })),
	engagement_rate: Nullable(
		Type.Number({
			description:
				'(average likes + comments) / followers, percent, rounded to 3 decimals; null without posts or followers'
		})
	),
	posts_per_week: Nullable(
		Type.Number({
			description:
				'(posts - 1) / weeks between the oldest and the newest post, 2 decimals; null under 2 posts'
		})
	),
	by_weekday: Type.Array(Count, { description: 'posts per UTC weekday, Monday first (7 values)' }),
	by_hour: Type.Array(Count, { description: 'posts per UTC hour of day (24 values)' }),
	heatmap: Type.Array(Type.Array(Count), {
		description: 'posts per weekday (Monday first) and hour, 7 x 24'
	}),
	top_posts: Type.Array(TopPost, { description: 'up to 5, most likes plus comments first' }),
	top_hashtags: Type.Array(TermCount, { description: 'up to 10, lower-case, without #' }),
	top_mentions: Type.Array(TermCount, { description: 'up to 10 usernames mentioned in captions, without @' }),
	media_mix: MediaMix,
	posts: Type.Array(AnalyzedPost, { description: 'the posts the figures come from, newest first' })
})

/** One compared figure: a value per account, and which account has the best one (when higher is better). */
export const ComparisonRow = Type.Object({
	metric: Type.String(),
	label: Type.String(),
	values: Type.Array(Nullable(Type.Number())),
	best: Nullable(Type.String({ description: 'username with the highest value; null on a tie or no ranking' }))
})

/** Two to five profiles side by side. */
export const Comparison = Type.Object({
	usernames: Type.Array(Type.String()),
	rows: Type.Array(ComparisonRow),
	accounts: Type.Array(ProfileAnalytics)
})

export type AnalyzedPost = Static<typeof AnalyzedPost>
export type TopPost = Static<typeof TopPost>
export type TermCount = Static<typeof TermCount>
export type MediaMix = Static<typeof MediaMix>
export type ProfileAnalytics = Static<typeof ProfileAnalytics>
export type ComparisonRow = Static<typeof ComparisonRow>
export type Comparison = Static<typeof Comparison>
