/** `/api/account/*`: the logged-in account (profile, info, blocked, restricted, logins, privacy). */
import { Elysia, t } from 'elysia'
import { RawObject, User, UserShort } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage } from './list'
import { ListQuery, singleQuery } from './params'

/** The account route group. */
export const accountRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/account' })
		.get(
			'/me',
			async () => {
				const user = await ig.account.getCurrentUser()
				return ok(user, `Current user: @${user.username}`)
			},
			documented('Account', 'Current user profile', User)
		)
		.get(
			'/blocked',
			async ({ query }) => okPage(await ig.account.getBlockedUsers(query), (n) => `Blocked users: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Account', 'Blocked users', t.Array(UserShort), { paginated: true })
			}
		)
		.get(
			'/restricted',
			async ({ query }) =>
				okPage(await ig.account.getRestrictedUsers(query), (n) => `Restricted users: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Account', 'Restricted users', t.Array(UserShort), { paginated: true })
			}
		)
		.get('/login-activity', async () => ok(await ig.account.getLoginActivity(), 'Login activity'), {
			...documented('Account', 'Login activity', RawObject)
		})
		.get('/privacy', async () => ok(await ig.account.getPrivacySettings(), 'Privacy settings'), {
			...documented('Account', 'Privacy settings', RawObject)
		})
		.get('/info', async () => ok(await ig.account.getAccountInfo(), 'Account info'), {
			...documented('Account', 'Account info', RawObject)
		})
