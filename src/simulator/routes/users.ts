/**
 * Profiles: `GET /api/v1/users/web_profile_info/?username=` (also anonymous), `GET /api/v1/users/{pk}/info/`
 * and `GET /api/v1/users/search/?q=`.
 */
import { fail, ok, type Route, userNotFound } from '../http'
import { userInfo, userShort, webProfile } from '../views-user'
import { isReply, searchUsers, userParam } from './common'

/** Profile routes. */
export const usersRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/users/web_profile_info/',
		access: 'public',
		handle(context) {
			const username = context.query.get('username')?.trim() ?? ''
			if (username === '') return fail(400, 'username is required')
			const user = context.state.userByUsername(username)
			if (!user) return userNotFound()
			return ok({ data: { user: webProfile(context, user) } })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/users/:pk/info/',
		access: 'session',
		handle(context) {
			const user = userParam(context)
			return isReply(user) ? user : ok({ user: userInfo(context, user) })
		}
	},
	{
		method: 'GET',
		path: '/api/v1/users/search/',
		access: 'session',
		handle(context) {
			const users = searchUsers(context, context.query.get('q') ?? '', 30)
			return ok({
				num_results: users.length,
				users: users.map((user) => userShort(context, user)),
				has_more: false
			})
		}
	}
]
