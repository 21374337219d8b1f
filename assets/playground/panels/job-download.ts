/**
 * A job's records downloaded from the Jobs panel (`GET /api/jobs/{id}/export`). The browser
 * fetches the file itself through a link, so it streams to disk: a job of millions of records
 * never sits in the page's memory. The page's access token, when it has one, goes in the link's
 * query, as in the page's own URL (the server drops it from history and logs).
 */
import { h } from '../../common/dom'
import { accessToken } from '../../common/request'
import { showToast } from '../components/toast'
import { apiGet } from '../lib/api'
import { formatCount } from '../lib/format'
import type { Job } from '../lib/jobs'

/** The export's URL for a link: the format, and the page's token when it has one. */
export function exportUrl(id: number, format: 'csv' | 'jsonl' | 'json', token = accessToken()): string {
	const query = new URLSearchParams({ format })
	if (token) query.set('token', token)
	return `/api/jobs/${id}/export?${query}`
}

/** Starts the download of the job's records in `format`; a job gone meanwhile is a toast, not a failed file. */
export async function downloadJob(job: Job, format: 'csv' | 'jsonl' | 'json'): Promise<void> {
	const current = await apiGet<Job>(`/api/jobs/${job.id}`)
	if (!current.ok || !current.envelope) {
		showToast(`Download failed: ${current.error} (${current.code})`, 'error')
		return
	}
	const link = h('a', { attrs: { href: exportUrl(job.id, format), download: '' } })
	document.body.append(link)
	link.click()
	link.remove()
	showToast(
		`Downloading ${formatCount(current.envelope.data.collected)} records of job ${job.id} as ${format.toUpperCase()}`,
		'success'
	)
}
