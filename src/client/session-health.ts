/**
 * Session health: what Instagram last said about the client's session, so a server can tell a
 * working session from an expired one before the user runs into 401s.
 *
 * - `none`: no credentials configured.
 * - `unchecked`: credentials set, no authenticated answer yet.
 * - `valid`: the last authenticated answer succeeded (the username is known after a check).
 * - `expired`: Instagram answered `login_required` (or redirected to the login page).
 * - `challenge`: Instagram asked for a challenge or checkpoint, to be solved in the browser.
 *
 * The transport reports every authenticated answer here; rate limits, server errors and network
 * failures say nothing about the session and leave the state as it was.
 */
import { IgApiError, type IgErrorKind } from './errors'

/** How to get a fresh session, for messages after an expiry (servers, the CLI and the UI say the same). */
export const RECONNECT_HINT =
	'log in to instagram.com in the browser, export its cookies (cookies.txt or JSON), then run smkit login --cookies FILE or use Connect account in the playground'

/** What to do about a challenge, for messages after one (servers and the UI say the same). */
export const CHALLENGE_HINT =
	'Instagram asks this session to pass a challenge: open instagram.com in the browser and complete it, then check the session again (or reconnect with fresh cookies)'

/** What to do without a session, for messages to someone who never logged in (the CLI says the same). */
export const LOGIN_HINT =
	'connect an account with smkit login --cookies cookies.txt (cookies exported from a browser logged in to instagram.com), or use --demo for demo data'

/**
 * What to say when Instagram answered an anonymous (logged-out) request, one that carries no
 * cookie, with `login_required`: Instagram often turns logged-out visitors away, which says nothing
 * about the session, so there is nothing to reconnect. Names `loggedInEquivalent`, the way to ask
 * with the session (with how to connect one first when `loggedIn` is false).
 */
export function anonymousRefusalAdvice(loggedInEquivalent: string, loggedIn: boolean): string {
	const next = loggedIn
		? `Ask with the session instead: ${loggedInEquivalent}`
		: `The logged-in equivalent, ${loggedInEquivalent}, needs an account: ${LOGIN_HINT}`
	return `${ANONYMOUS_REFUSAL}. ${next}`
}

/** What a `login_required` answered to an anonymous request (`IgApiError.anonymous`) means. */
export const ANONYMOUS_REFUSAL =
	'Instagram refused an anonymous (logged-out) request, as it often does to logged-out visitors: this says nothing about the session'

/** The advice for a `login_required` answered to an anonymous request; none for other kinds. */
function anonymousAdvice(kind: string, loggedIn: boolean): string | undefined {
	if (kind !== 'login_required') return undefined
	return `${ANONYMOUS_REFUSAL}; ${loggedIn ? 'the logged-in requests ask with the session' : `the logged-in requests need an account: ${LOGIN_HINT}`}`
}

/**
 * A session error Instagram answered (`login_required`, `challenge_required`) as the same error
 * with what to do added to its message, as the servers' answers have it: a command line reporting
 * Instagram's bare 'login_required' leaves a cron job's reader without a next step. `loggedIn`
 * false (the client has no session) makes a `login_required` "not logged in" with how to log in,
 * never "the session has expired". A missing session refused by the transport before any request
 * (upstream status 0) has that advice already and comes back as it is, as does any other error.
 */
export function withSessionAdvice(error: unknown, loggedIn = true): unknown {
	if (!(error instanceof IgApiError) || error.upstreamStatus === 0) return error
	const advice = error.anonymous
		? anonymousAdvice(error.kind, loggedIn)
		: error.kind === 'login_required'
			? loggedIn
				? `The session has expired: to reconnect, ${RECONNECT_HINT}`
				: `Not logged in: ${LOGIN_HINT}`
			: error.kind === 'challenge_required'
				? CHALLENGE_HINT
				: undefined
	if (advice === undefined) return error
	return new IgApiError(error.kind, `${error.message}. ${advice}`, {
		upstreamStatus: error.upstreamStatus,
		body: error.body,
		endpoint: error.endpoint,
		retryAfter: error.retryAfter,
		challengeUrl: error.challengeUrl
	})
}

/** One of the five states above. */
export type SessionState = 'none' | 'unchecked' | 'valid' | 'expired' | 'challenge'

/** What servers report (`GET /api/status`). */
export interface SessionReport {
	session: SessionState
	/** The account's username, when `valid` and known from a check. */
	username: string | null
	/** ISO 8601 time of the answer the state comes from, or null before any. */
	checked_at: string | null
}

/** The session state of one client. */
export class SessionHealth {
	#state: SessionState
	#username: string | null = null
	#checkedAt: Date | null = null
	/** An answer emptied the session cookie: Instagram ended it, whatever later answers say. */
	#ended = false
	readonly #listeners = new Set<(report: SessionReport) => void>()

	constructor(hasCredentials: boolean) {
		this.#state = hasCredentials ? 'unchecked' : 'none'
	}

	/** The current state. */
	get state(): SessionState {
		return this.#state
	}

	/** A JSON-safe copy for status endpoints. */
	report(): SessionReport {
		return {
			session: this.#state,
			username: this.#state === 'valid' ? this.#username : null,
			checked_at: this.#checkedAt?.toISOString() ?? null
		}
	}

	/** New credentials (or none): the state starts over. */
	reset(hasCredentials: boolean): void {
		this.#ended = false
		this.#username = null
		this.#checkedAt = null
		this.#set(hasCredentials ? 'unchecked' : 'none')
	}

	/** An authenticated request succeeded; `username` when the answer named the account. */
	recordSuccess(username?: string): void {
		// After the session was ended, Instagram answers some calls as to an anonymous visitor.
		if (this.#state === 'none' || this.#ended) return
		if (username) this.#username = username
		this.#checkedAt = new Date()
		this.#set('valid')
	}

	/** An authenticated request failed with `kind`; only session verdicts change the state. */
	recordFailure(kind: IgErrorKind): void {
		if (this.#state === 'none') return
		const next =
			kind === 'login_required' ? 'expired' : kind === 'challenge_required' ? 'challenge' : undefined
		if (!next) return
		this.#checkedAt = new Date()
		this.#set(next)
	}

	/**
	 * An answer emptied the session cookie: the session is expired until new credentials come
	 * (`reset`); successful answers after it (anonymous ones) do not make it valid again.
	 */
	recordEnded(): void {
		if (this.#state === 'none') return
		this.#ended = true
		this.recordFailure('login_required')
	}

	/** Marks the session valid for `username` without a round trip (demo mode's built-in session). */
	assumeValid(username: string): void {
		this.#username = username
		this.#set('valid')
	}

	/** Calls `listener` on every change of state; returns the unsubscribe function. */
	onChange(listener: (report: SessionReport) => void): () => void {
		this.#listeners.add(listener)
		return () => this.#listeners.delete(listener)
	}

	#set(state: SessionState): void {
		const changed = state !== this.#state
		this.#state = state
		if (changed) for (const listener of this.#listeners) listener(this.report())
	}
}
