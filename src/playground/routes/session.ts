/**
 * The Instagram session from the browser: `POST /api/session/check` asks Instagram now,
 * `POST /api/session {cookies}` connects an account from exported cookies (the Connect account
 * dialog: a pasted Cookie header, cookies.txt or JSON export), `DELETE /api/session` disconnects.
 * A connected session is checked first, then stored in the environment file (mode 0600) and used
 * at once. No response, history entry or log line carries a cookie value.
 */
import { basename } from 'node:path'
import { Elysia, t } from 'elysia'
import { CookieImportError, SESSION_VARIABLES } from '../../client/cookies'
import { envFileProblem, removeSessionVariables } from '../../client/env-file'
import { FileWriteError } from '../../client/file-write-error'
import { CHALLENGE_HINT, RECONNECT_HINT } from '../../client/session-health'
import { checkImportedSession, refusalMessage, storeSession } from '../../session/connect'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { documented } from './docs'
import { objectBody } from './params'

/** What Instagram last said about the session. */
export const SessionData = t.Object({
	session: t.Union(
		['valid', 'expired', 'challenge', 'unchecked', 'none'].map((state) => t.Literal(state)),
		{ description: 'From the last answer of Instagram to an authenticated request' }
	),
	username: t.Union([t.String(), t.Null()], { description: 'The account, when valid and known' }),
	checked_at: t.Union([t.String({ format: 'date-time' }), t.Null()])
})

const ConnectData = t.Composite([
	SessionData,
	t.Object({ stored: t.Array(t.String(), { description: 'Variables written to the environment file' }) })
])

const DEMO_REFUSAL =
	'Demo mode uses the built-in demo account: start the playground without --demo to connect an Instagram account'

/** The longest cookie export `POST /api/session` takes, in characters (256 KB). */
const MAX_COOKIES_LENGTH = 262_144

/** Refuses, before anything is asked or changed, an environment file that cannot be written (no path in the message: it stays on the server). */
function checkEnvFile(envPath: string, problems: readonly string[]): void {
	const problem = envFileProblem(envPath)
	if (problem === 'folder' && problems.includes(problem))
		throw new HttpError(
			'bad_request',
			"This playground's --env names a folder, not a file: restart it with --env naming the environment file (e.g. .env in that folder)"
		)
	if (problem === 'missing-folder' && problems.includes(problem))
		throw new HttpError(
			'bad_request',
			"The folder of this playground's --env file does not exist: create it, or restart the playground with another --env"
		)
}

/**
 * A note for variables also set in the server's process environment, which wins over the file
 * when the playground starts again (names only, never values); empty when there are none.
 */
function shadowNote(names: readonly string[], effect: string): string {
	const shadowed = names.filter((name) => process.env[name])
	if (shadowed.length === 0) return ''
	return `; note: ${shadowed.join(', ')} ${shadowed.length > 1 ? 'are' : 'is'} also set in the server's process environment, which wins over the environment file: at the next start ${shadowed.length > 1 ? 'they' : 'it'} will ${effect}`
}

/** How long `POST /api/session/check` waits for Instagram, retries included. */
export const SESSION_CHECK_TIMEOUT_MS = 20_000

/** The session route group. */
export const sessionRoutes = ({ ig, deps }: PlaygroundContext) =>
	new Elysia({ prefix: '/api' })
		.post(
			'/session/check',
			async () => {
				const timeoutMs = deps.sessionCheckTimeoutMs ?? SESSION_CHECK_TIMEOUT_MS
				const deadline = AbortSignal.timeout(timeoutMs)
				const report = await ig.checkSession({ signal: deadline }).catch((error: unknown) => {
					// The deadline can fire while the client waits out a rate limit: its abort reason is no client error.
					if (!deadline.aborted) throw error
					throw new HttpError(
						'upstream_timeout',
						`Instagram did not confirm the session within ${timeoutMs / 1000} s (rate limited or slow); the session state is unchanged, try again later`
					)
				})
				const message = {
					valid: `Session valid${report.username ? `: @${report.username}` : ''}`,
					none: 'Session none: no Instagram session to check; connect an account first (Connect account, or smkit login --cookies FILE)',
					expired: `Session expired: to reconnect, ${RECONNECT_HINT}`,
					challenge: `Session challenge: ${CHALLENGE_HINT}`,
					unchecked: 'Session unchecked'
				}[report.session]
				return ok(report, message)
			},
			documented('System', 'Ask Instagram now whether the session works (one light call)', SessionData, {
				description:
					'Asks Instagram now whether the session works (one light call). A rate limit, a server error or no answer says nothing about the session: it is answered as that failure and the state stays as it was.',
				errors: ['rate_limited', 'upstream_error', 'upstream_timeout']
			})
		)
		.post(
			'/session',
			async ({ body }) => {
				if (deps.demo) throw new HttpError('bad_request', DEMO_REFUSAL)
				if (!deps.envPath)
					throw new HttpError('bad_request', 'This playground has no environment file to store a session in')
				checkEnvFile(deps.envPath, ['folder', 'missing-folder'])
				const checked = await checkImportedSession(body.cookies, {
					baseURL: ig.baseURL,
					proxies: ig.proxies
				}).catch((error: unknown) => {
					if (error instanceof CookieImportError) throw new HttpError('bad_request', error.message)
					throw error
				})
				const refusal = refusalMessage(checked.report)
				if (refusal)
					throw new HttpError(
						checked.report.session === 'challenge' ? 'challenge_required' : 'login_required',
						refusal
					)
				const stored = await storeSession(deps.envPath, checked).catch((error: unknown) => {
					// Said plainly, without the file's path on the server (which may be absolute).
					if (!(error instanceof FileWriteError)) throw error
					throw new HttpError(
						'internal_error',
						`The session is valid but could not be stored: the environment file ${basename(error.file)} cannot be written (${error.code}); check that smkit may write it and its folder, then connect again`
					)
				})
				ig.setCredentials(checked.credentials)
				ig.session.recordSuccess(checked.report.username ?? undefined)
				return ok(
					{ ...ig.session.report(), stored },
					`Connected as @${checked.report.username ?? 'unknown'}; ${stored.length} variables stored${shadowNote(stored, 'replace the stored ones')}`
				)
			},
			{
				...objectBody(
					t.Object({
						cookies: t.String({
							minLength: 1,
							maxLength: MAX_COOKIES_LENGTH,
							description: 'A Cookie header, a Netscape cookies.txt or a JSON cookie export',
							error: `Invalid body field 'cookies': expected a Cookie header, cookies.txt or JSON cookie export as text of at most ${MAX_COOKIES_LENGTH / 1024} KB; for a larger export of every site's cookies, export only instagram.com's or paste the Cookie header`,
							examples: [
								'sessionid=1234567890%3Aabc%3A1%3Axyz; csrftoken=abcdef123456; ds_user_id=1234567890'
							]
						})
					})
				),
				...documented('System', 'Connect an Instagram account from exported browser cookies', ConnectData, {
					description:
						'Checks the session with Instagram, then stores it in the environment file. Refused (400) in demo mode and for cookies without a session; 401 or 403 when Instagram does not accept it.',
					errors: [
						'login_required',
						'challenge_required',
						'rate_limited',
						'upstream_error',
						'upstream_timeout'
					]
				})
			}
		)
		.delete(
			'/session',
			async () => {
				if (deps.demo) throw new HttpError('bad_request', DEMO_REFUSAL)
				// A missing folder holds no session to remove; a folder cannot be read as the file.
				if (deps.envPath) checkEnvFile(deps.envPath, ['folder'])
				const removed = deps.envPath ? await removeSessionVariables(deps.envPath) : []
				ig.setCredentials(undefined)
				const note = shadowNote(SESSION_VARIABLES, 'bring it back')
				return ok(
					{ ...ig.session.report(), removed },
					note
						? `Disconnected: the session is no longer used${note}`
						: 'Disconnected: the session is no longer used or stored'
				)
			},
			documented(
				'System',
				'Disconnect: stop using the session and remove it from the environment file',
				t.Composite([SessionData, t.Object({ removed: t.Array(t.String()) })]),
				{
					errors: ['bad_request'],
					description:
						'Stops using the session and removes it from the environment file. Refused (400) in demo mode.'
				}
			)
		)
