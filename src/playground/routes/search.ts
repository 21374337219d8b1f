/** `/api/search/*`: top results, users, hashtags, places, and the explore page. */
import { Elysia, t } from 'elysia'
import { Hashtag, Media, Place, TopSearch, UserShort } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { ListQuery, SearchListQuery, SearchQuery, singleQuery } from './params'

/** The search route group. */
export const searchRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/search' })
		.get('/top', async ({ query: { q } }) => ok(await ig.search.top(q), `Top results: "${q}"`), {
			...singleQuery(SearchQuery),
			...documented('Search', 'Mixed top results', TopSearch)
		})
		.get(
			'/users',
			async ({ query: { q, ...list } }) =>
				okPage(await ig.search.users(q, list), (n) => `Users matching "${q}": ${plural(n, 'result')}`),
			{
				...singleQuery(SearchListQuery),
				...documented('Search', 'Users only', t.Array(UserShort), { paginated: true })
			}
		)
		.get(
			'/hashtags',
			async ({ query: { q, ...list } }) =>
				okPage(await ig.search.hashtags(q, list), (n) => `Hashtags matching "${q}": ${plural(n, 'result')}`),
			{
				...singleQuery(SearchListQuery),
				...documented('Search', 'Hashtags', t.Array(Hashtag), { paginated: true })
			}
		)
		.get(
			'/places',
			async ({ query: { q, ...list } }) =>
				okPage(await ig.search.places(q, list), (n) => `Places matching "${q}": ${plural(n, 'result')}`),
			{
				...singleQuery(SearchListQuery),
				...documented('Search', 'Places', t.Array(Place), { paginated: true })
			}
		)
		.get(
			'/explore',
			async ({ query }) => okPage(await ig.search.explore(query), (n) => `Explore: ${plural(n, 'post')}`),
			{
				...singleQuery(ListQuery),
				...documented('Search', 'Explore page content', t.Array(Media), { paginated: true })
			}
		)
