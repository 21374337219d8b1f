/**
 * Profile analytics, a composite of the `users`, `feed` and `public` groups: the figures of a
 * profile from its most recent posts (averages, engagement rate, posting cadence, top posts, hashtags
 * and mentions, media-type mix), and the comparison of several profiles on the same figures.
 */
import type { Feed } from '../api/feed'
import type { Public } from '../api/public'
import type { Users } from '../api/users'
import { IgApiError, IgArgumentError } from '../errors'
import type { AnalyzedPost, Media, MediaMix, ProfileAnalytics, TermCount, TopPost, User } from '../types'
import { compareAnalytics } from './compare'

/** Posts analysed when the caller does not say. */
export const DEFAULT_ANALYTICS_POSTS = 30
/** The most posts one analysis reads. */
export const MAX_ANALYTICS_POSTS = 200
/** How many accounts one comparison takes. */
export const COMPARE_MIN = 2
export const COMPARE_MAX = 5

const round = (value: number, decimals: number) => {
	const factor = 10 ** decimals
	return Math.round(value * factor) / factor
}

/**
 * Hashtags of a caption, lower-case, each once. Digits alone are no hashtag: Instagram links
 * neither `#1` nor `#2024` (docs/instagram.md, "Hashtags, notifications, direct"), so "we are #1" counts nothing.
 */
export function captionHashtags(caption: string): string[] {
	const tags = [...caption.matchAll(/#([\p{L}\p{M}\p{N}_]+)/gu)].map((match) =>
		(match[1] as string).toLowerCase()
	)
	return [...new Set(tags.filter((tag) => !/^\p{N}+$/u.test(tag)))]
}

/** Usernames mentioned in a caption (`@name`), lower-case, each once; trailing dots are punctuation. */
export function captionMentions(caption: string): string[] {
	const names = [...caption.matchAll(/(?:^|[^\w.@])@([A-Za-z0-9._]{1,30})/g)].map((match) =>
		(match[1] as string).replace(/\.+$/, '').toLowerCase()
	)
	return [...new Set(names.filter((name) => name !== ''))]
}

/** The ten terms found in the most posts (ties: alphabetical). */
function topTerms(lists: string[][]): TermCount[] {
	const counts = new Map<string, number>()
	for (const list of lists) for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1)
	return [...counts]
		.map(([term, posts]) => ({ term, posts }))
		.sort((left, right) => right.posts - left.posts || (left.term < right.term ? -1 : 1))
		.slice(0, 10)
}

/** Which bucket of the media-type mix a post falls in. */
function mediaKind(media: Pick<Media, 'media_type' | 'product_type'>): keyof MediaMix {
	if (media.media_type === 8) return 'carousel'
	if (media.media_type === 2) return media.product_type === 'clips' ? 'reel' : 'video'
	return 'photo'
}

/** Weekday of a unix time in UTC, Monday = 0. */
const weekdayOf = (time: number) => (new Date(time * 1000).getUTCDay() + 6) % 7
const hourOf = (time: number) => new Date(time * 1000).getUTCHours()

const analyzed = (media: Media): AnalyzedPost => ({
	pk: media.pk,
	code: media.code,
	taken_at: media.taken_at,
	media_type: media.media_type,
	product_type: media.product_type,
	like_count: media.like_count,
	comment_count: media.comment_count
})

/** The `count` posts with the most likes plus comments, best first (ties: the order given). */
export function topPosts(posts: readonly Media[], count: number): TopPost[] {
	const engagement = (media: Media) => media.like_count + media.comment_count
	return posts
		.map((media, index) => ({ media, index }))
		.sort((left, right) => engagement(right.media) - engagement(left.media) || left.index - right.index)
		.slice(0, count)
		.map(({ media }) => ({
			...analyzed(media),
			url: `https://www.instagram.com/p/${media.code}/`,
			thumbnail_url: media.thumbnail_url,
			// 200 characters, not UTF-16 units: an emoji at the cut is kept whole or left out.
			caption_text: Array.from(media.caption_text).slice(0, 200).join(''),
			engagement: engagement(media)
		}))
}

/** The figures of `profile` from `posts` (newest first, as feeds list them). Pure: no request. */
export function analyzePosts(profile: User, posts: readonly Media[], requested: number): ProfileAnalytics {
	const count = posts.length
	const totalLikes = posts.reduce((sum, media) => sum + media.like_count, 0)
	const totalComments = posts.reduce((sum, media) => sum + media.comment_count, 0)
	const avgLikes = count ? totalLikes / count : 0
	const avgComments = count ? totalComments / count : 0
	const times = posts.map((media) => media.taken_at)
	const first = count ? Math.min(...times) : null
	const last = count ? Math.max(...times) : null
	const spanWeeks = first !== null && last !== null ? (last - first) / (7 * 86400) : 0
	const heatmap = Array.from({ length: 7 }, () => Array<number>(24).fill(0))
	const mix: MediaMix = { photo: 0, video: 0, reel: 0, carousel: 0 }
	for (const media of posts) {
		;(heatmap[weekdayOf(media.taken_at)] as number[])[hourOf(media.taken_at)]! += 1
		mix[mediaKind(media)] += 1
	}
	const top = topPosts(posts, 5)
	return {
		pk: profile.pk,
		username: profile.username,
		full_name: profile.full_name,
		profile_pic_url: profile.profile_pic_url,
		is_private: profile.is_private,
		is_verified: profile.is_verified,
		follower_count: profile.follower_count,
		following_count: profile.following_count,
		media_count: profile.media_count,
		posts_requested: requested,
		posts_analyzed: count,
		first_post_at: first,
		last_post_at: last,
		// Without posts there is no average, and without followers no rate: null, as posts_per_week
		// and the best post are, rather than a 0 that reads as a measured figure and ranks in compare.
		avg_likes: count ? round(avgLikes, 2) : null,
		avg_comments: count ? round(avgComments, 2) : null,
		engagement_rate:
			count && profile.follower_count
				? round(((avgLikes + avgComments) / profile.follower_count) * 100, 3)
				: null,
		posts_per_week: count >= 2 && spanWeeks > 0 ? round((count - 1) / spanWeeks, 2) : null,
		by_weekday: heatmap.map((hours) => hours.reduce((sum, value) => sum + value, 0)),
		by_hour: Array.from({ length: 24 }, (_, hour) =>
			heatmap.reduce((sum, hours) => sum + (hours[hour] ?? 0), 0)
		),
		heatmap,
		top_posts: top,
		top_hashtags: topTerms(posts.map((media) => captionHashtags(media.caption_text))),
		top_mentions: topTerms(posts.map((media) => captionMentions(media.caption_text))),
		media_mix: mix,
		posts: posts.map(analyzed)
	}
}

/** Validates a `posts` count: a whole number from 1 to {@link MAX_ANALYTICS_POSTS}. */
function checkPostCount(posts: number): number {
	if (!Number.isInteger(posts) || posts < 1 || posts > MAX_ANALYTICS_POSTS) {
		throw new IgArgumentError(`posts must be a whole number from 1 to ${MAX_ANALYTICS_POSTS}, got ${posts}`)
	}
	return posts
}

/** Options of {@link Analytics.profile} and {@link Analytics.compare}. */
export interface AnalyticsOptions {
	/** How many recent posts to read (default 30, at most 200). */
	posts?: number
	signal?: AbortSignal
}

/** The groups analytics reads through, and whether the client has a session. */
export interface AnalyticsSources {
	users: Users
	feed: Feed
	public: Public
	readonly loggedIn: boolean
}

/** Analytics over a client: `new Analytics(ig).profile('luna.explorer')`. */
export class Analytics {
	constructor(private readonly sources: AnalyticsSources) {}

	/**
	 * The figures of a profile from its `posts` most recent posts. With a session: the profile
	 * (web_profile_info) and the user feed; without one: the anonymous profile and posts.
	 */
	async profile(username: string, options: AnalyticsOptions = {}): Promise<ProfileAnalytics> {
		const requested = checkPostCount(options.posts ?? DEFAULT_ANALYTICS_POSTS)
		const { signal } = options
		if (this.sources.loggedIn) {
			const profile = await this.sources.users.getByUsername(username, { signal })
			const page = await this.sources.feed.getUserFeed(profile.pk, { count: requested, signal })
			return analyzePosts(profile, page.items.slice(0, requested), requested)
		}
		const profile = await this.sources.public.getProfile(username, { signal })
		const page = await this.sources.public.getPosts(username, { count: requested, signal })
		return analyzePosts(profile, page.items.slice(0, requested), requested)
	}

	/** Two to five profiles on the same figures, one after the other (budgets stay per request). */
	async compare(usernames: readonly string[], options: AnalyticsOptions = {}) {
		const unique = [...new Set(usernames.map((name) => name.replace(/^@/, '').toLowerCase()))]
		if (unique.length < COMPARE_MIN || unique.length > COMPARE_MAX) {
			throw new IgArgumentError(
				`compare takes ${COMPARE_MIN} to ${COMPARE_MAX} different accounts, got ${unique.length}`
			)
		}
		const accounts: ProfileAnalytics[] = []
		for (const username of unique) {
			try {
				accounts.push(await this.profile(username, options))
			} catch (error) {
				throw namingTheAccount(error, username)
			}
		}
		return compareAnalytics(accounts)
	}
}

/**
 * A compared account that is missing or private, as an error that names it: Instagram's answer
 * ("User not found") does not say which of the accounts it was.
 */
function namingTheAccount(error: unknown, username: string): unknown {
	if (!(error instanceof IgApiError) || (error.kind !== 'not_found' && error.kind !== 'private_account'))
		return error
	return new IgApiError(error.kind, `@${username}: ${error.message}`, {
		upstreamStatus: error.upstreamStatus,
		body: error.body,
		endpoint: error.endpoint,
		retryAfter: error.retryAfter,
		challengeUrl: error.challengeUrl
	})
}
