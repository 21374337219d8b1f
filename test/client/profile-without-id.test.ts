/**
 * A profile answer whose user carries no id (no `pk`, `pk_id`, `id` or `user_id`) is an answer
 * Instagram did not mean: `upstream_error`, not a user with an empty pk that every later call
 * (followers, feed, a job) would then address as ''.
 */
import { afterAll, expect, test } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { startUpstream } from '../support/upstream'

const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	'/api/v1/users/web_profile_info/': (request: Request) => {
		const username = new URL(request.url).searchParams.get('username')
		const user = username === 'with.id' ? { id: '1000000002', username } : { username, full_name: 'No Id' }
		return Response.json({ data: { user }, status: 'ok' })
	},
	'/api/v1/users/:pk/info/': () => Response.json({ user: { username: 'no.id' }, status: 'ok' }),
	'/graphql/query/': () => Response.json({ data: { user: null }, status: 'ok' })
})
afterAll(() => upstream.stop(true))

const client = new InstagramClient({
	baseURL: upstream.url.href,
	credentials: { sessionId: 'session', csrfToken: 'csrf', dsUserId: '1' },
	rateLimits: false,
	maxRetries: 0
})

test('a web profile without an id is an upstream_error naming the account', async () => {
	const failure = await client.users.getByUsername('no.id').catch((error: unknown) => error)
	expect(failure).toBeInstanceOf(IgApiError)
	expect((failure as IgApiError).kind).toBe('upstream_error')
	expect((failure as IgApiError).message).toContain('@no.id')
	expect((await client.users.getByUsername('with.id')).pk).toBe('1000000002')
})

test('a profile by id whose answer has no id is an upstream_error too', async () => {
	const failure = await client.users.getById('123').catch((error: unknown) => error)
	expect(failure).toBeInstanceOf(IgApiError)
	expect((failure as IgApiError).kind).toBe('upstream_error')
})
