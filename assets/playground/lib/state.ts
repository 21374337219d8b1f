/** What the whole page knows about the server: the latest `/api/status` data, shared by every panel. */

/** The session states `/api/status` reports. */
export type SessionState = 'valid' | 'expired' | 'challenge' | 'unchecked' | 'none'

/** `/api/status` data (docs/api-contract.md, "System endpoints"); every field may be missing on an older server. */
export interface ServerStatus {
	status?: string
	version?: string
	uptime_seconds?: number
	total_requests?: number
	total_errors?: number
	client_ready?: boolean
	logged_in?: boolean
	/** What Instagram last said about the session. */
	session?: SessionState
	/** The account, when the session is valid. */
	username?: string | null
	session_checked_at?: string | null
	/** safe, normal, fast or unlimited. */
	speed?: string
	proxies?: { mode?: string; total?: number; available?: number } | null
	demo?: boolean
	/** Demo mode: the origin serving the simulated pictures now. */
	demo_pictures?: string | null
	ai_available?: boolean
	ai_provider?: string | null
	ai_model?: string | null
}

type StatusListener = (status: ServerStatus | null) => void

let currentStatus: ServerStatus | null = null
const listeners = new Set<StatusListener>()

/** The most recent status, or null before the first answer. */
export function getStatus(): ServerStatus | null {
	return currentStatus
}

/** Stores a new status and tells every listener. */
export function setStatus(status: ServerStatus | null): void {
	currentStatus = status
	for (const listener of listeners) listener(status)
}

/** Calls `listener` now and on every status change; returns the unsubscribe function. */
export function onStatus(listener: StatusListener): () => void {
	listeners.add(listener)
	listener(currentStatus)
	return () => listeners.delete(listener)
}

/**
 * Whether a job or watch with this `demo` comes from the other Instagram than this playground's
 * (demo or real); false while the status is not known yet (the rows are shown again once it is).
 */
export function fromOtherMode(demo: boolean | null | undefined): boolean {
	const known = currentStatus?.demo
	return typeof known === 'boolean' && typeof demo === 'boolean' && demo !== known
}
