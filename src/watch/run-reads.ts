/**
 * What a watch run reads of Instagram besides follower lists: an account's profile counts, a
 * hashtag's media count and its pool of recent posts. A snapshot stores Instagram's word only: a
 * profile answer without its counts, or a pool cut short, fails the run (`upstream_error`, as a
 * malformed answer does; the next run reads again) rather than being stored as 0, or as the pool.
 */
import { malformedAnswer } from '../client/api/base'
import type { InstagramClient } from '../client/client'
import { IgApiError } from '../client/errors'
import { countsGiven } from '../client/normalize/user'
import type { Hashtag, Media, PageData } from '../client/types'
import type { AccountCounts, Watch } from './types'

/**
 * The top posts are picked from the tag's this-many most recent posts, collected across pages: a
 * fixed pool, whatever the page size of the endpoint that answers (Instagram's GraphQL query and its
 * REST fallback give pages of different sizes), so a post enters or leaves the top by its likes and
 * comments, not by which endpoint answered, and the top is more than the newest page reordered.
 */
export const HASHTAG_CANDIDATE_POSTS = 45

/**
 * The account's profile counts now. A profile answer without them (a malformed 200, which the
 * client's `User` holds as 0: `countsGiven`) fails the run.
 */
export async function profileCounts(
	ig: InstagramClient,
	watch: Watch,
	signal: AbortSignal
): Promise<AccountCounts> {
	const user = await ig.users.getByUsername(watch.target, { signal })
	if (!countsGiven(user))
		throw malformedAnswer(
			'GET /api/v1/users/web_profile_info/',
			`the follower, following and post counts of @${watch.target}`
		)
	return { followers: user.follower_count, following: user.following_count, posts: user.media_count }
}

/**
 * The hashtag's info and its candidate pool (`HASHTAG_CANDIDATE_POSTS`), both null for a hashtag
 * nobody has used yet (a campaign's: not found), whose snapshot holds no posts.
 */
export async function hashtagReading(
	ig: InstagramClient,
	watch: Watch,
	signal: AbortSignal
): Promise<{ info: Hashtag | null; page: PageData<Media> | null }> {
	const info = await ig.hashtags.getInfo(watch.target, { signal }).catch((error: unknown) => {
		if (error instanceof IgApiError && error.kind === 'not_found') return null
		throw error
	})
	if (info === null) return { info, page: null }
	const page = await ig.feed.getTagFeed(watch.target, { count: HASHTAG_CANDIDATE_POSTS, signal })
	requireWholePool(watch, page)
	return { info, page }
}

/**
 * Throws unless the tag feed `page` holds the whole candidate pool: `HASHTAG_CANDIDATE_POSTS`
 * posts, or fewer at the feed's end (no next cursor). A walk that stopped early (Instagram gave a
 * page again under new cursors, or a cursor again: src/client/pagination.ts) holds the newest posts
 * only, and their top would read as posts that entered and left the top.
 */
function requireWholePool(watch: Watch, page: PageData<Media>): void {
	if (page.items.length >= HASHTAG_CANDIDATE_POSTS || page.next_cursor === null) return
	throw new IgApiError(
		'upstream_error',
		`Instagram: the feed of #${watch.target} stopped early, after ${page.items.length} of the ${HASHTAG_CANDIDATE_POSTS} most recent posts its top posts are picked from (a page given again): nothing stored, the next run reads it again`,
		{ upstreamStatus: 200, endpoint: `the feed of #${watch.target}` }
	)
}
