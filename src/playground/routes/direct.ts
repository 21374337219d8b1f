/** `/api/direct/*`: the direct-message inbox (reading only; sending is an agent write). */
import { Elysia, t } from 'elysia'
import { DirectThread } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { documented } from './docs'
import { okPage, plural } from './list'
import { ListQuery, singleQuery } from './params'

/** The direct route group. */
export const directRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/direct' }).get(
		'/inbox',
		async ({ query }) => okPage(await ig.direct.getInbox(query), (n) => `Inbox: ${plural(n, 'thread')}`),
		{
			...singleQuery(ListQuery),
			...documented('Direct', 'Inbox', t.Array(DirectThread), { paginated: true })
		}
	)
