/** `/api/stories/*`: a user's active stories, highlights, and the viewer's stories tray. */
import { Elysia, t } from 'elysia'
import { Highlight, ReelTrayItem, Story } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { documented } from './docs'
import { okPage, plural } from './list'
import { ListQuery, singleQuery, UserPkParam } from './params'

const ByUser = t.Object({ user_pk: UserPkParam() })

/** The stories route group. */
export const storiesRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/stories' })
		.get(
			'/user/:user_pk',
			async ({ params: { user_pk }, query }) =>
				okPage(
					await ig.stories.getUserStories(user_pk, query),
					(n) => `Stories of ${user_pk}: ${plural(n, 'story', 'stories')}`
				),
			{
				params: ByUser,
				...singleQuery(ListQuery),
				...documented('Stories', "A user's active stories", t.Array(Story), { paginated: true })
			}
		)
		.get(
			'/highlights/:user_pk',
			async ({ params: { user_pk }, query }) =>
				okPage(
					await ig.stories.getHighlights(user_pk, query),
					(n) => `Highlights of ${user_pk}: ${plural(n, 'highlight')}`
				),
			{
				params: ByUser,
				...singleQuery(ListQuery),
				...documented('Stories', "A user's highlights tray", t.Array(Highlight), { paginated: true })
			}
		)
		.get(
			'/tray',
			async ({ query }) =>
				okPage(await ig.stories.getTray(query), (n) => `Stories tray: ${plural(n, 'reel')}`),
			{
				...singleQuery(ListQuery),
				...documented('Stories', "The viewer's stories tray", t.Array(ReelTrayItem), { paginated: true })
			}
		)
