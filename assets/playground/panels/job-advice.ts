/**
 * What the Jobs panel tells the user about a job that waits, paused or failed: the server's message
 * plus the next step for its error code (unless the message says it already), and the next step
 * after a refused start.
 */
import { type Job, SOURCE_NAMES } from '../lib/jobs'

/** What the user can do about an error code, beyond the server's message. */
export const NEXT_STEP: Record<string, string> = {
	not_found: 'Check the spelling of the target, then start a new job.',
	private_account: 'The account is private: follow it from the logged-in account, then press Resume.',
	login_required: 'Connect the account again (Connect account, at the top), then press Resume.',
	challenge_required:
		'Complete the security check on instagram.com in the same browser session, then press Resume.',
	bad_request: 'Correct the target and start again.'
}

/** The field a refusal names ("Invalid body field 'limit': ..."), as the start form calls it. */
const FIELD_NAMES: Record<string, string> = { kind: 'kind of list', target: 'target', limit: 'limit' }

/**
 * The next step after the server refused to start a job: a refused field is the one to correct
 * (named as the server named it), not always the target.
 */
export function startAdvice(code: string | undefined, error: string | undefined): string {
	const field = /Invalid body field '([^']+)'/.exec(error ?? '')?.[1]
	if (code === 'bad_request' && field) return `Correct the ${FIELD_NAMES[field] ?? field} and start again.`
	return NEXT_STEP[code ?? ''] ?? ''
}

/** A job that failed on its target (missing, malformed): resuming would fail the same way. */
export const needsNewJob = (job: Job) =>
	job.status === 'failed' && (job.error_code === 'not_found' || job.error_code === 'bad_request')

/**
 * A job of `smkit collect` or the MCP server: its process runs it, so the next step is there (the
 * server's message says how a stopped one continues).
 */
function outsideAdvice(job: Job): string | null {
	const who = SOURCE_NAMES[job.source]
	if (job.status === 'queued' || job.status === 'running' || job.status === 'waiting')
		return `Collected by ${who}${job.source === 'cli' ? ' in a terminal: pause or stop it there' : ''}. Its progress shows here; its records download here.`
	if (job.status === 'paused' || job.status === 'failed')
		return `${job.error ?? `The job ${job.status === 'paused' ? 'was stopped' : 'failed'}.`}${job.source === 'cli' && job.status === 'failed' ? ' Running the same smkit collect command again continues from the last stored page.' : ''}`
	return null
}

/**
 * A waiting job's message with its retry counted down: "…; trying again in 5 s" says the time left
 * (`retryInMs`), then "trying again now".
 */
function retryNote(message: string, retryInMs: number | undefined): string {
	if (retryInMs === undefined) return message
	const when = retryInMs > 0 ? `trying again in ${Math.ceil(retryInMs / 1000)} s` : 'trying again now'
	return message.replace(/trying again in \d+ s/, when)
}

/**
 * The sentence under a job's bar: why it waits, paused or failed, and what to do. `retryInMs`: the
 * time left before a waiting job tries again, when the card knows it (from the job's wait event).
 */
export function advice(job: Job, retryInMs?: number): string | null {
	if (job.source !== 'playground') return outsideAdvice(job)
	if (job.status === 'waiting') {
		const why = retryNote(job.error ?? 'Waiting for Instagram.', retryInMs)
		return `${why} Nothing to do: the job continues by itself.`
	}
	// A pause on an error: the server's message says what to do already (reconnect, then resume the
	// job: src/jobs/run-errors.ts), so no next step is added to say it twice.
	if (job.status === 'paused')
		return job.error_code && job.error ? job.error : 'Paused. Press Resume to continue where it stopped.'
	if (job.status === 'failed')
		return `${job.error ?? 'The job failed.'} ${NEXT_STEP[job.error_code ?? ''] ?? 'Press Resume to try again from the last stored page.'}`
	return null
}
