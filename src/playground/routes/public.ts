/** `/api/public/*`: anonymous endpoints that work without an Instagram login (docs/instagram.md, "Public (anonymous)"). */
import { Elysia, t } from 'elysia'
import { Media, PublicProfile } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { CountQuery, CursorQuery, singleQuery, UsernameParam } from './params'

const ByUsername = t.Object({ username: UsernameParam })

/** The public route group. */
export const publicRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/public' })
		.get(
			'/profile/:username',
			async ({ params: { username } }) =>
				ok(await ig.public.getProfile(username), `Public profile: @${username.toLowerCase()}`),
			{ params: ByUsername, ...documented('Public', 'Public profile (no login)', PublicProfile) }
		)
		.get(
			'/posts/:username',
			async ({ params: { username }, query: { count, cursor } }) =>
				okPage(
					await ig.public.getPosts(username, { count, cursor }),
					(n) => `Public posts of @${username.toLowerCase()}: ${plural(n, 'post')}`
				),
			{
				params: ByUsername,
				...singleQuery(t.Object({ count: CountQuery({ default: 12 }), cursor: CursorQuery })),
				...documented('Public', 'Public posts (no login)', t.Array(Media), { paginated: true })
			}
		)
