/**
 * `/api/public/*`: anonymous endpoints that work without an Instagram login (docs/instagram.md,
 * "Public (anonymous)"). They send no cookie, so Instagram's `login_required` to them is a refusal
 * of a logged-out visitor, not an expired session: answered 401 `login_required` saying so and
 * naming the logged-in route to use instead, never "reconnect"; the session state stays as it was.
 */
import { Elysia, t } from 'elysia'
import type { InstagramClient } from '../../client/client'
import { IgError } from '../../client/errors'
import { anonymousRefusalAdvice } from '../../client/session-health'
import { Media, PublicProfile } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { CountQuery, CursorQuery, singleQuery, UsernameParam } from './params'

const ByUsername = t.Object({ username: UsernameParam })

/**
 * Rethrows `error`, a `login_required` Instagram answered to an anonymous request as the refusal of
 * a logged-out visitor with `loggedInEquivalent`, the route that asks with the session.
 */
function refusedAnonymously(ig: InstagramClient, loggedInEquivalent: string) {
	return (error: unknown): never => {
		if (!(error instanceof IgError) || error.kind !== 'login_required') throw error
		throw new HttpError(
			'login_required',
			`${ig.transport.redact(error.message)}. ${anonymousRefusalAdvice(loggedInEquivalent, ig.loggedIn)}`
		)
	}
}

/** The public route group. */
export const publicRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/public' })
		.get(
			'/profile/:username',
			async ({ params: { username } }) => {
				const name = username.toLowerCase()
				const profile = await ig.public
					.getProfile(username)
					.catch(refusedAnonymously(ig, `GET /api/users/username/${name}`))
				return ok(profile, `Public profile: @${name}`)
			},
			{ params: ByUsername, ...documented('Public', 'Public profile (no login)', PublicProfile) }
		)
		.get(
			'/posts/:username',
			async ({ params: { username }, query: { count, cursor } }) => {
				const name = username.toLowerCase()
				const page = await ig.public
					.getPosts(username, { count, cursor })
					.catch(
						refusedAnonymously(
							ig,
							`GET /api/feed/user/{user_pk}, with the pk from GET /api/users/username/${name}`
						)
					)
				return okPage(page, (n) => `Public posts of @${name}: ${plural(n, 'post')}`)
			},
			{
				params: ByUsername,
				...singleQuery(t.Object({ count: CountQuery({ default: 12 }), cursor: CursorQuery })),
				...documented('Public', 'Public posts (no login)', t.Array(Media), { paginated: true })
			}
		)
