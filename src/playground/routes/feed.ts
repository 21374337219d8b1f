/** `/api/feed/*`: a user's posts, a hashtag feed, and the viewer's liked and saved posts. */
import { Elysia, t } from 'elysia'
import { Media, SavedCollection } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { documented } from './docs'
import { okPage, plural } from './list'
import { CountQuery, CursorQuery, HashtagParam, ListQuery, singleQuery, UserPkParam } from './params'

const MediaList = t.Array(Media)

/** The feed route group. */
export const feedRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/feed' })
		.get(
			'/user/:user_pk',
			async ({ params: { user_pk }, query: { count, cursor } }) =>
				okPage(
					await ig.feed.getUserFeed(user_pk, { count, cursor }),
					(n) => `Feed of ${user_pk}: ${plural(n, 'post')}`
				),
			{
				params: t.Object({ user_pk: UserPkParam() }),
				...singleQuery(t.Object({ count: CountQuery({ default: 12 }), cursor: CursorQuery })),
				...documented('Feed', "A user's posts", MediaList, { paginated: true })
			}
		)
		.get(
			'/tag/:hashtag',
			async ({ params: { hashtag }, query }) =>
				okPage(await ig.feed.getTagFeed(hashtag, query), (n) => `#${hashtag}: ${plural(n, 'post')}`),
			{
				params: t.Object({ hashtag: HashtagParam('hashtag') }),
				...singleQuery(ListQuery),
				...documented('Feed', 'Hashtag feed', MediaList, { paginated: true })
			}
		)
		.get('/liked', async ({ query }) => okPage(await ig.feed.getLiked(query), (n) => `Liked posts: ${n}`), {
			...singleQuery(ListQuery),
			...documented('Feed', "The viewer's liked posts", MediaList, { paginated: true })
		})
		.get(
			'/saved',
			async ({ query }) => okPage(await ig.feed.getSaved(query), (n) => `Saved collections: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Feed', "The viewer's saved collections", t.Array(SavedCollection), { paginated: true })
			}
		)
