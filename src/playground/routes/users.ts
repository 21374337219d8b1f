/** `/api/users/*`: profiles by username or id, user search, full profiles, parsed bios. */
import { Elysia, t } from 'elysia'
import { FullProfile, ParsedBio, User, UserShort } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { SearchListQuery, singleQuery, UsernameParam, UserPkParam } from './params'

const ByUsername = t.Object({ username: UsernameParam })

/** The users route group. */
export const usersRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/users' })
		.get(
			'/username/:username',
			async ({ params: { username } }) =>
				ok(await ig.users.getByUsername(username), `Profile: @${username.toLowerCase()}`),
			{ params: ByUsername, ...documented('Users', 'User by username', User) }
		)
		.get(
			'/id/:user_id',
			async ({ params: { user_id } }) => {
				const user = await ig.users.getById(user_id)
				return ok(user, `Profile: @${user.username}`)
			},
			{ params: t.Object({ user_id: UserPkParam('user_id') }), ...documented('Users', 'User by id', User) }
		)
		.get(
			'/search',
			async ({ query: { q, ...list } }) =>
				okPage(await ig.users.search(q, list), (count) => `User search "${q}": ${plural(count, 'result')}`),
			{
				...singleQuery(SearchListQuery),
				...documented('Users', 'Search users', t.Array(UserShort), { paginated: true })
			}
		)
		.get(
			'/full/:username',
			async ({ params: { username } }) =>
				ok(await ig.users.getFullProfile(username), `Full profile: @${username.toLowerCase()}`),
			{ params: ByUsername, ...documented('Users', 'Full profile (posts and followers)', FullProfile) }
		)
		.get(
			'/bio/:username',
			async ({ params: { username } }) =>
				ok(await ig.users.parseBio(username), `Bio: @${username.toLowerCase()}`),
			{ params: ByUsername, ...documented('Users', 'Parsed bio (emails, phones, links)', ParsedBio) }
		)
