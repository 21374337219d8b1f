/** `/api/hashtags/*`: hashtag information. */
import { Elysia, t } from 'elysia'
import { Hashtag } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { HashtagParam } from './params'

/** The hashtags route group. */
export const hashtagsRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/hashtags' }).get(
		'/info/:tag',
		async ({ params: { tag } }) => ok(await ig.hashtags.getInfo(tag), `Hashtag: #${tag}`),
		{
			params: t.Object({ tag: HashtagParam('tag') }),
			...documented('Hashtags', 'Hashtag information', Hashtag)
		}
	)
