/** `/api/search/*`: top results, users, hashtags, places, and the explore page. */
import { Elysia, t } from 'elysia'
import { Hashtag, Media, Place, TopSearch, UserShort } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { SearchQuery } from './params'

/** The search route group. */
export const searchRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/search' })
		.get('/top', async ({ query: { q } }) => ok(await ig.search.top(q), `Top results: "${q}"`), {
			query: SearchQuery,
			...documented('Search', 'Mixed top results', TopSearch)
		})
		.get(
			'/users',
			async ({ query: { q } }) =>
				okPage(await ig.search.users(q), (n) => `Users matching "${q}": ${plural(n, 'result')}`),
			{ query: SearchQuery, ...documented('Search', 'Users only', t.Array(UserShort), { paginated: true }) }
		)
		.get(
			'/hashtags',
			async ({ query: { q } }) =>
				okPage(await ig.search.hashtags(q), (n) => `Hashtags matching "${q}": ${plural(n, 'result')}`),
			{ query: SearchQuery, ...documented('Search', 'Hashtags', t.Array(Hashtag), { paginated: true }) }
		)
		.get(
			'/places',
			async ({ query: { q } }) =>
				okPage(await ig.search.places(q), (n) => `Places matching "${q}": ${plural(n, 'result')}`),
			{ query: SearchQuery, ...documented('Search', 'Places', t.Array(Place), { paginated: true }) }
		)
		.get('/explore', async () => okPage(await ig.search.explore(), (n) => `Explore: ${plural(n, 'post')}`), {
			...documented('Search', 'Explore page content', t.Array(Media), { paginated: true })
		})
