/** Side-by-side rows of several profiles' analytics, with the best value of each row named. */
import type { Comparison, ComparisonRow, ProfileAnalytics } from '../types'

/** A compared figure: how to read it from an analysis, and whether a higher value is better. */
interface Metric {
	metric: string
	label: string
	value: (analytics: ProfileAnalytics) => number | null
	/** False for figures that are not better or worse when higher (following). */
	ranked: boolean
}

const METRICS: readonly Metric[] = [
	{ metric: 'follower_count', label: 'Followers', value: (a) => a.follower_count, ranked: true },
	{ metric: 'following_count', label: 'Following', value: (a) => a.following_count, ranked: false },
	{ metric: 'media_count', label: 'Posts (total)', value: (a) => a.media_count, ranked: true },
	{ metric: 'posts_analyzed', label: 'Posts analysed', value: (a) => a.posts_analyzed, ranked: false },
	{ metric: 'avg_likes', label: 'Average likes', value: (a) => a.avg_likes, ranked: true },
	{ metric: 'avg_comments', label: 'Average comments', value: (a) => a.avg_comments, ranked: true },
	{ metric: 'engagement_rate', label: 'Engagement rate (%)', value: (a) => a.engagement_rate, ranked: true },
	{ metric: 'posts_per_week', label: 'Posts per week', value: (a) => a.posts_per_week, ranked: true },
	{ metric: 'top_post', label: 'Best post (likes + comments)', value: topEngagement, ranked: true }
]

function topEngagement(analytics: ProfileAnalytics): number | null {
	return analytics.top_posts[0]?.engagement ?? null
}

/** The username with the single highest value, or null (a tie, no values, or an unranked figure). */
function bestOf(metric: Metric, values: (number | null)[], usernames: string[]): string | null {
	if (!metric.ranked) return null
	const present = values.filter((value): value is number => value !== null)
	if (present.length === 0) return null
	const highest = Math.max(...present)
	const winners = values.flatMap((value, index) => (value === highest ? [index] : []))
	return winners.length === 1 ? (usernames[winners[0] as number] as string) : null
}

/** Compares analyses (in the given order) figure by figure. */
export function compareAnalytics(accounts: ProfileAnalytics[]): Comparison {
	const usernames = accounts.map((account) => account.username)
	const rows: ComparisonRow[] = METRICS.map((metric) => {
		const values = accounts.map(metric.value)
		return { metric: metric.metric, label: metric.label, values, best: bestOf(metric, values, usernames) }
	})
	return { usernames, rows, accounts }
}
