/**
 * What the page's answers say about the Instagram session, for the shell to follow at once rather
 * than at the next status poll: a refused or ended session (`onSessionRefused`), and a session
 * working again while the status shown says it ended (`onSessionWorks`). api.ts reports both; the
 * Jobs panel reports a job paused on a refused session (`jobStoppedOnSession`).
 */
import { fromOtherMode, getStatus, type ServerStatus } from './state'

const sessionListeners = new Set<(code: string) => void>()

/** Calls `listener` whenever an answer says Instagram refused or ended the session (login or challenge required). */
export function onSessionRefused(listener: (code: string) => void): void {
	sessionListeners.add(listener)
}

const recoveryListeners = new Set<() => void>()
/** The status shown when a data answer last said the session works again (asked once per status). */
let recoveryAskedFor: ServerStatus | null = null

/**
 * Calls `listener` when a successful data answer comes without `X-Smkit-Session` while the status
 * shown says the session expired or awaits a challenge: the server sets that header on every such
 * answer while the session is ended, so the session works again and the status is stale. Once per
 * status shown: the status read again ends it.
 */
export function onSessionWorks(listener: () => void): void {
	recoveryListeners.add(listener)
}

/** A successful data answer came without `X-Smkit-Session` (see `onSessionWorks`). */
export function sessionWorks(): void {
	const shown = getStatus()
	if (shown === null || shown === recoveryAskedFor) return
	if (shown.session !== 'expired' && shown.session !== 'challenge') return
	recoveryAskedFor = shown
	for (const listener of recoveryListeners) listener()
}

/** An answer said Instagram refused or ended the session (`code`: login_required, challenge_required). */
export function sessionRefused(code: string): void {
	for (const listener of sessionListeners) listener(code)
}

/** The session state the status shows once Instagram refused the session with `code`. */
const SESSION_AFTER = new Map([
	['login_required', 'expired'],
	['challenge_required', 'challenge']
])

/** The pauses told already, by job and time: each once, not at every look at the job list. */
const toldPauses = new Set<string>()

/**
 * A job paused because Instagram refused the session (login or challenge required) says what a
 * refused answer says: told as `sessionRefused`, once per pause, unless the status shown says so
 * already. Jobs of the other Instagram (demo or real) say nothing of this playground's session.
 */
export function jobStoppedOnSession(job: {
	id: number
	status: string
	error_code: string | null
	updated_at: string
	demo?: boolean | null
}): void {
	const code = job.error_code ?? ''
	const after = SESSION_AFTER.get(code)
	if (job.status !== 'paused' || after === undefined || fromOtherMode(job.demo)) return
	const pause = `${job.id} ${job.updated_at}`
	if (toldPauses.has(pause)) return
	toldPauses.add(pause)
	if (getStatus()?.session !== after) sessionRefused(code)
}
