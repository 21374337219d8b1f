/** A job's records downloaded from the Jobs panel (`GET /api/jobs/{id}/export`), as a file the browser saves. */
import { h } from '../../common/dom'
import { formatBytes } from '../../common/format'
import { showToast } from '../components/toast'
import { apiDownload } from '../lib/api'
import type { Job } from '../lib/jobs'

/** Downloads the job's records in `format`; a toast says what came or what failed. */
export async function downloadJob(job: Job, format: 'csv' | 'jsonl' | 'json'): Promise<void> {
	const answer = await apiDownload(
		`/api/jobs/${job.id}/export?format=${format}`,
		undefined,
		`job-${job.id}.${format}`
	)
	if (!('blob' in answer)) {
		showToast(`Download failed: ${answer.error} (${answer.code})`, 'error')
		return
	}
	const url = URL.createObjectURL(answer.blob)
	const link = h('a', { attrs: { href: url, download: answer.fileName } })
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 10_000)
	showToast(`Downloaded ${answer.fileName} (${formatBytes(answer.blob.size)})`, 'success')
}
