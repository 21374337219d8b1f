/**
 * `/api/analytics/profile/{username}` (a profile's figures from its recent posts) and `/api/compare`
 * (two to five profiles side by side, the best value of each row named).
 */
import { Elysia, t } from 'elysia'
import {
	Analytics,
	COMPARE_MAX,
	COMPARE_MIN,
	DEFAULT_ANALYTICS_POSTS,
	MAX_ANALYTICS_POSTS
} from '../../client/tools/analytics'
import { Comparison, ProfileAnalytics } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { documented } from './docs'
import { DecimalInteger, singleQuery, UsernameParam } from './params'

/** Query `posts`: how many recent posts the figures come from. */
export const PostsQuery = t.Optional(
	DecimalInteger({
		minimum: 1,
		maximum: MAX_ANALYTICS_POSTS,
		default: DEFAULT_ANALYTICS_POSTS,
		error: `Invalid query parameter 'posts': expected an integer from 1 to ${MAX_ANALYTICS_POSTS}`,
		description: `How many recent posts to analyse (1-${MAX_ANALYTICS_POSTS})`
	})
)

const usernamePattern = new RegExp(UsernameParam.pattern as string)

/** The accounts of `?users=a,b,c`: 2-5 distinct valid usernames (a leading @ is dropped). */
export function parseUsernames(value: string): string[] {
	const names = [
		...new Set(
			value
				.split(',')
				.map((name) => name.trim().replace(/^@/, '').toLowerCase())
				.filter((name) => name !== '')
		)
	]
	const invalid = names.find((name) => !usernamePattern.test(name))
	if (invalid !== undefined) {
		throw new HttpError('bad_request', `Invalid query parameter 'users': '${invalid}' is not a username`)
	}
	if (names.length < COMPARE_MIN || names.length > COMPARE_MAX) {
		throw new HttpError(
			'bad_request',
			`Invalid query parameter 'users': give ${COMPARE_MIN} to ${COMPARE_MAX} different usernames, comma-separated`
		)
	}
	return names
}

/** The analytics and compare routes. */
export const analyticsRoutes = (context: PlaygroundContext) => {
	const analytics = new Analytics(context.ig)
	return new Elysia({ prefix: '/api' })
		.get(
			'/analytics/profile/:username',
			async ({ params: { username }, query: { posts } }) => {
				const figures = await analytics.profile(username, { posts })
				return ok(figures, `Analytics of @${figures.username}: ${figures.posts_analyzed} posts`)
			},
			{
				params: t.Object({ username: UsernameParam }),
				...singleQuery(t.Object({ posts: PostsQuery })),
				...documented('Analytics', 'Profile analytics from recent posts', ProfileAnalytics, {
					anonymous: true,
					description:
						"A profile's figures from its recent posts. Without Instagram credentials the public profile and posts are used."
				})
			}
		)
		.get(
			'/compare',
			async ({ query }) => {
				const usernames = parseUsernames(query.users)
				const comparison = await analytics.compare(usernames, { posts: query.posts })
				return ok(comparison, `Compared ${usernames.map((name) => `@${name}`).join(', ')}`)
			},
			{
				...singleQuery(
					t.Object({
						users: t.String({
							minLength: 1,
							maxLength: 200,
							error: `Invalid query parameter 'users': give ${COMPARE_MIN} to ${COMPARE_MAX} usernames, comma-separated`,
							description: `${COMPARE_MIN} to ${COMPARE_MAX} different usernames, comma-separated (a list: GET /api/lists/{name}/compare)`,
							examples: ['luna.explorer,xss.payload']
						}),
						posts: PostsQuery
					})
				),
				...documented('Analytics', 'Compare 2-5 profiles', Comparison, {
					anonymous: true,
					description:
						'The figures of 2-5 profiles side by side. Without Instagram credentials the public profiles and posts are used.'
				})
			}
		)
}
