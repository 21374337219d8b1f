/**
 * Secrets stay redacted after Instagram rotates them: the values a session held before (still in
 * the environment file, used at the next start) are never shown in an error message either.
 */
import { afterAll, expect, test } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { startUpstream } from '../support/upstream'

const ORIGINAL = {
	sessionId: '1000000001%3AORIGINAL-SESSION-5d4c%3A12',
	csrfToken: 'ORIGINAL-CSRF-8e7f',
	dsUserId: '1000000001',
	rur: 'ORIGINAL-RUR-3a2b'
}
const ROTATED_SESSION = '1000000001%3AROTATED-SESSION-1f2e%3A12'
const ORIGINALS = [
	ORIGINAL.sessionId,
	decodeURIComponent(ORIGINAL.sessionId),
	ORIGINAL.csrfToken,
	ORIGINAL.rur
]

/** What Instagram echoes: every session value it was ever sent, outside any `sessionid=` form. */
let echoed = ''
const upstream = startUpstream({
	'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
	'/api/v1/users/web_profile_info/': () =>
		Response.json(
			{ data: { user: { id: '1', username: 'luna.explorer' } }, status: 'ok' },
			{
				headers: [
					['set-cookie', `sessionid=${ROTATED_SESSION}; Path=/; Secure`],
					['set-cookie', 'csrftoken=ROTATED-CSRF-4c3d; Path=/'],
					['set-cookie', 'rur="ROTATED-RUR-9a8b"; Path=/'],
					['x-ig-set-www-claim', 'hmac.ROTATED-CLAIM-77aa']
				]
			}
		),
	'/api/v1/news/inbox/': () =>
		Response.json({ message: `bad session ${echoed}`, status: 'fail' }, { status: 400 })
})
afterAll(() => upstream.stop(true))

test('values rotated away by Set-Cookie stay redacted in error messages, in every encoding', async () => {
	const ig = new InstagramClient({
		baseURL: upstream.url.href,
		credentials: { ...ORIGINAL },
		rateLimits: false,
		retryBaseDelayMs: 1
	})
	await ig.users.getByUsername('luna.explorer')
	echoed = [
		...ORIGINALS,
		encodeURIComponent(ORIGINAL.csrfToken),
		'ROTATED-CSRF-4c3d',
		'hmac.ROTATED-CLAIM-77aa'
	].join(' ')
	const error = (await ig.notifications.getActivity().catch((caught: unknown) => caught)) as Error
	expect(error.message).toContain('bad session')
	for (const secret of [...ORIGINALS, 'ROTATED-CSRF-4c3d', 'ROTATED-CLAIM', 'ORIGINAL-SESSION', 'ROTATED']) {
		expect({ secret, message: error.message }).toEqual({
			secret,
			message: expect.not.stringContaining(secret)
		})
	}
	// And in what the transport redacts for others (the agent's code runner).
	expect(ig.transport.redact(ORIGINALS.join(' '))).not.toMatch(/ORIGINAL/)
})

test('the values of a session replaced (a new login, a logout) stay redacted too', () => {
	const ig = new InstagramClient({
		baseURL: upstream.url.href,
		credentials: { ...ORIGINAL },
		rateLimits: false
	})
	ig.setCredentials({ sessionId: 'NEXT-SESSION-7b6a', csrfToken: 'NEXT-CSRF-2c1d', dsUserId: '1000000002' })
	ig.setCredentials(undefined)
	expect(ig.transport.redact(`${ORIGINALS.join(' ')} NEXT-SESSION-7b6a NEXT-CSRF-2c1d`)).not.toMatch(
		/ORIGINAL|NEXT/
	)
})

test('a secret that straddles the cut of a long message is redacted whole, not cut in two', async () => {
	const ig = new InstagramClient({
		baseURL: upstream.url.href,
		credentials: { ...ORIGINAL },
		rateLimits: false,
		retryBaseDelayMs: 1
	})
	// The message is cut at 200 characters: the session value starts at 190.
	echoed = `${'x'.repeat(190 - 'bad session '.length)}${decodeURIComponent(ORIGINAL.sessionId)} and more`
	const error = (await ig.notifications.getActivity().catch((caught: unknown) => caught)) as Error & {
		body?: unknown
	}
	expect(error.message).toContain('[redacted]')
	expect(error.message).not.toContain('1000000001:ORIG')
	expect(JSON.stringify(error.body)).not.toContain('ORIGINAL-SESSION')
})
