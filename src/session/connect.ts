/**
 * Connecting an account from exported browser cookies, shared by `smkit login` and the
 * playground's Connect account dialog: read the cookies (cookies.ts), ask Instagram whether the
 * session works with one light authenticated call, and only then store it in the environment
 * file (env-file.ts). Nothing here returns or prints a cookie value.
 */
import { type ClientOptions, type Credentials, InstagramClient } from '../client/client'
import { importSession, type SessionImport } from '../client/cookies'
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
	return { imported, credentials, report }
}

/** Stores a checked session's variables in the environment file (mode 0600); resolves to the names written. */
export function storeSession(envPath: string, session: CheckedSession): Promise<string[]> {
	return storeSessionVariables(envPath, session.imported.variables)
}
