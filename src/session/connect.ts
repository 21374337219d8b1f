/**
 * Connecting an account from exported browser cookies, shared by `smkit login` and the
 * playground's Connect account dialog: read the cookies (cookies.ts), ask Instagram whether the
 * session works with one light authenticated call, and only then store it in the environment
 * file (env-file.ts) with the values Instagram set while answering (Set-Cookie) in place of the
 * exported ones. Nothing here returns or prints a cookie value.
 */
import { type ClientOptions, type Credentials, InstagramClient } from '../client/client'
import { importSession, isUsableValue, type SessionImport } from '../client/cookies'
import { credentialsFromEnv } from '../client/env'
import { storeSessionVariables } from '../client/env-file'
import { RECONNECT_HINT, type SessionReport } from '../client/session-health'

export { RECONNECT_HINT }

/** An import read and checked against Instagram. */
export interface CheckedSession {
	imported: SessionImport
	credentials: Credentials
	/** `valid`, `expired` or `challenge` (or `unchecked` when the check was skipped). */
	report: SessionReport
}

/** Why Instagram refused an imported session, or undefined when it did not. */
export function refusalMessage(report: SessionReport): string | undefined {
	if (report.session === 'expired')
		return `Instagram does not accept this session (login_required): it expired or was logged out. To reconnect, ${RECONNECT_HINT}`
	if (report.session === 'challenge')
		return 'Instagram asks this session to pass a challenge: open instagram.com in the browser, complete it, then export the cookies again'
	return undefined
}

/**
 * Reads exported cookies and checks the session with the given upstream settings (`baseURL`,
 * `proxies`). Throws CookieImportError for unusable cookies and the client's error when Instagram
 * could not be asked (rate limit, no connection); a refusal comes back in `report`.
 */
export async function checkImportedSession(
	text: string,
	upstream: Pick<ClientOptions, 'baseURL' | 'proxies' | 'fetch'> = {},
	options: { skipCheck?: boolean; signal?: AbortSignal } = {}
): Promise<CheckedSession> {
	const imported = importSession(text)
	const credentials = credentialsFromEnv(imported.variables) as Credentials
	const probe = new InstagramClient({ ...upstream, credentials, rateLimits: false, maxRetries: 1 })
	const report = options.skipCheck
		? probe.session.report()
		: await probe.checkSession({ signal: options.signal })
	const updated = withSessionUpdates(imported, probe.transport.currentSession())
	return { imported: updated, credentials: credentialsFromEnv(updated.variables) as Credentials, report }
}

/** Cookie → variable of the values Instagram may set while answering the check. */
const UPDATED_VARIABLES = {
	sessionId: 'SESSION_ID',
	csrfToken: 'CSRF_TOKEN',
	dsUserId: 'DS_USER_ID',
	mid: 'MID',
	igDid: 'IG_DID',
	datr: 'DATR',
	rur: 'RUR'
} as const

/**
 * The import with the cookie values Instagram set while answering the check (`Set-Cookie`, which
 * replaces the session's values after every answer, docs/instagram.md, "Session updates") in place
 * of the exported ones: what the client then uses and what is stored are the values Instagram
 * gave last, as a browser would keep them. A value the environment file could not hold verbatim
 * keeps the exported one.
 */
function withSessionUpdates(
	imported: SessionImport,
	session: Partial<Credentials> | undefined
): SessionImport {
	const variables = { ...imported.variables }
	for (const [field, variable] of Object.entries(UPDATED_VARIABLES)) {
		const value = session?.[field as keyof typeof UPDATED_VARIABLES]
		if (value !== undefined && isUsableValue(value)) variables[variable] = value
	}
	return { ...imported, variables }
}

/** Stores a checked session's variables in the environment file (mode 0600); resolves to the names written. */
export function storeSession(envPath: string, session: CheckedSession): Promise<string[]> {
	return storeSessionVariables(envPath, session.imported.variables)
}
