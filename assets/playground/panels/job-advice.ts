/**
 * What the Jobs panel tells the user about a job that waits, paused or failed: the server's message
 * plus the next step for its error code.
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

/** The sentence under a job's bar: why it waits, paused or failed, and what to do. */
export function advice(job: Job): string | null {
	if (job.source !== 'playground') return outsideAdvice(job)
	if (job.status === 'waiting')
		return `${job.error ?? 'Waiting for Instagram.'} Nothing to do: the job continues by itself.`
	if (job.status === 'paused')
		return job.error_code && job.error
			? `${job.error} ${NEXT_STEP[job.error_code] ?? ''}`.trim()
			: 'Paused. Press Resume to continue where it stopped.'
	if (job.status === 'failed')
		return `${job.error ?? 'The job failed.'} ${NEXT_STEP[job.error_code ?? ''] ?? 'Press Resume to try again from the last stored page.'}`
	return null
}
