/** `/api/friendships/*`: followers, following, friendship status, mutual followers, pending requests. */
import { Elysia, t } from 'elysia'
import { FriendshipStatus, UserShort } from '../../client/types'
import { Text } from '../../server/text-length'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { CountQuery, CursorQuery, ListQuery, singleQuery, UserPkParam } from './params'

const ByUser = t.Object({ user_pk: UserPkParam() })
/** Followers/following: 50 by default, up to 1000 (docs/api-contract.md, "Pagination"). */
const FollowQuery = t.Object({ count: CountQuery({ default: 50, maximum: 1000 }), cursor: CursorQuery })
/** Followers also take a search within the list. */
const FollowersQuery = t.Object({
	...FollowQuery.properties,
	q: t.Optional(
		Text({
			minLength: 1,
			maxLength: 100,
			pattern: '\\S',
			error: "Invalid query parameter 'q': expected 1-100 characters, not only spaces",
			description:
				'Only the followers whose username or full name contains this text (1-100 characters, not only spaces)'
		})
	)
})
const Users = t.Array(UserShort)

/** The friendships route group. */
export const friendshipsRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/friendships' })
		.get(
			'/followers/:user_pk',
			async ({ params: { user_pk }, query: { count, cursor, q } }) =>
				okPage(
					await ig.friendships.getFollowers(user_pk, { count, cursor, query: q }),
					(n) => `Followers of ${user_pk}${q === undefined ? '' : ` matching "${q}"`}: ${plural(n, 'user')}`
				),
			{
				params: ByUser,
				...singleQuery(FollowersQuery),
				...documented('Friendships', 'Followers', Users, { paginated: true })
			}
		)
		.get(
			'/following/:user_pk',
			async ({ params: { user_pk }, query: { count, cursor } }) =>
				okPage(
					await ig.friendships.getFollowing(user_pk, { count, cursor }),
					(n) => `Following of ${user_pk}: ${plural(n, 'user')}`
				),
			{
				params: ByUser,
				...singleQuery(FollowQuery),
				...documented('Friendships', 'Following', Users, { paginated: true })
			}
		)
		.get(
			'/status/:user_pk',
			async ({ params: { user_pk } }) =>
				ok(await ig.friendships.getStatus(user_pk), `Friendship status: ${user_pk}`),
			{ params: ByUser, ...documented('Friendships', 'Friendship status', FriendshipStatus) }
		)
		.get(
			'/mutual/:user_pk',
			async ({ params: { user_pk }, query }) =>
				okPage(
					await ig.friendships.getMutualFollowers(user_pk, query),
					(n) => `Mutual followers of ${user_pk}: ${n}`
				),
			{
				params: ByUser,
				...singleQuery(ListQuery),
				...documented('Friendships', 'Mutual followers', Users, { paginated: true })
			}
		)
		.get(
			'/pending',
			async ({ query }) =>
				okPage(await ig.friendships.getPendingRequests(query), (n) => `Pending requests: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Friendships', 'Pending follow requests', Users, { paginated: true })
			}
		)
