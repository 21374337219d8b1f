/**
 * The jobs API as the page uses it (`/api/jobs`): the job record, starting a job, following one's
 * server-sent progress events, and which list results a job can collect whole ("Collect all").
 */

import type { JobKind, Job as StoredJob, JobEvent as StoredJobEvent } from '../../../src/jobs/types'
import { parseEventBlock } from '../../common/chat/api'
import { confirmAction } from '../components/dialogs'
import { type ApiResult, apiGet, apiRequest, pollHeaders } from './api'
import { formatQuantity } from './format'

/** The kinds in the order the Jobs form offers them. */
export const JOB_KINDS = [
	'followers',
	'following',
	'posts',
	'media',
	'tag',
	'comments',
	'likers'
] as const satisfies readonly JobKind[]

export type { JobKind }

/** A job as `/api/jobs` shows it: `source` says who runs it (the playground, `smkit collect`, the MCP server). */
export type Job = Omit<StoredJob, 'owner'> & { source: 'playground' | 'cli' | 'mcp' }
export type JobEvent = Omit<StoredJobEvent, 'job'> & { job: Job }

/** Who runs a job of another process, as the panel names it. */
export const SOURCE_NAMES: Record<Job['source'], string> = {
	playground: 'the playground',
	cli: 'smkit collect',
	mcp: 'the MCP server'
}

/** Statuses in which a job still changes by itself. */
export const isActive = (job: Job): boolean => ['queued', 'running', 'waiting'].includes(job.status)

/** A job started outside the Jobs panel ("Collect all") whose card the panel focuses when it shows next. */
let jobToFocus: number | null = null

/** Asks the Jobs panel to give job `id`'s card the focus when it shows next (lib/focus.ts: created, focused). */
export function focusJobWhenShown(id: number): void {
	jobToFocus = id
}

/** The job the Jobs panel is to focus now that it shows (asked once: cleared on reading), or null. */
export function takeJobToFocus(): number | null {
	const id = jobToFocus
	jobToFocus = null
	return id
}

/** Starts a job. */
export function startJob(kind: JobKind, target: string, limit: number | null): Promise<ApiResult<Job>> {
	return apiRequest<Job>('POST', '/api/jobs', { kind, target, ...(limit ? { limit } : {}) })
}

/**
 * Reads a job's event stream until it ends (the job settled), fails or `signal` aborts; each event
 * goes to `onEvent` as it arrives. Resolves to true when the stream ended normally. A poll: the
 * Jobs panel follows its active jobs by itself, each time it shows (lib/api.ts, pollHeaders).
 */
export async function followJob(
	id: number,
	onEvent: (event: JobEvent) => void,
	signal: AbortSignal
): Promise<boolean> {
	let response: Response
	try {
		response = await fetch(`/api/jobs/${id}/events`, {
			headers: pollHeaders(),
			cache: 'no-store',
			signal
		})
	} catch {
		return false
	}
	if (!response.ok || !response.body) return false
	const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
	let buffer = ''
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) return true
			buffer += value
			let boundary = /\r?\n\r?\n/.exec(buffer)
			while (boundary) {
				const event = parseEventBlock(buffer.slice(0, boundary.index)) as JobEvent | null
				buffer = buffer.slice(boundary.index + boundary[0].length)
				if (event?.job) onEvent(event)
				boundary = /\r?\n\r?\n/.exec(buffer)
			}
		}
	} catch {
		return false
	}
}

/** A list result a job can collect whole: the job's kind and how to find its target. */
export interface Collectable {
	kind: JobKind
	/** The target as the path has it. */
	value: string
	/** The path names the user by pk: the job needs the username, looked up first. */
	byUserPk: boolean
	/** The search the list was shown with (followers' `q`), if any: no job applies it. */
	search?: string
}

/** A post's comments (`/api/media/comments/{media_pk}`), not one comment's replies (`.../replies/{comment_pk}`). */
export const POST_COMMENTS_PATH = /^\/api\/media\/comments\/([^/?]+)(?:\?|$)/

const COLLECTABLE: [RegExp, JobKind, boolean][] = [
	[/^\/api\/friendships\/followers\/([^/?]+)/, 'followers', true],
	[/^\/api\/friendships\/following\/([^/?]+)/, 'following', true],
	[/^\/api\/feed\/user\/([^/?]+)/, 'posts', true],
	[/^\/api\/public\/posts\/([^/?]+)/, 'posts', false],
	[/^\/api\/feed\/tag\/([^/?]+)/, 'tag', false],
	// Not a comment's replies: no job collects those alone.
	[POST_COMMENTS_PATH, 'comments', false],
	[/^\/api\/media\/likers\/([^/?]+)/, 'likers', false]
]

/** The job that collects the whole list `path` shows a page of, or null when no job kind does. */
export function collectableList(path: string): Collectable | null {
	const search = new URLSearchParams(path.split('?')[1] ?? '').get('q')
	for (const [pattern, kind, byUserPk] of COLLECTABLE) {
		const match = pattern.exec(path)
		if (match)
			return { kind, value: decodeURIComponent(match[1] as string), byUserPk, ...(search ? { search } : {}) }
	}
	return null
}

/**
 * Starts the job for a collectable list (looking up the username when the path has a pk). A list
 * shown with a search is collected whole, since no job filters: the person is asked first, told
 * plainly that the search is not applied and how many records the job collects instead. Declined,
 * nothing starts (the answer's code is `cancelled`).
 */
export async function collectAll(list: Collectable): Promise<ApiResult<Job>> {
	let target = list.value
	let size: number | undefined
	if (list.byUserPk) {
		const user = await apiGet<{ username?: string; follower_count?: number }>(
			`/api/users/id/${encodeURIComponent(list.value)}`
		)
		if (!user.ok || !user.envelope?.data.username) return user as ApiResult<never>
		target = user.envelope.data.username
		if (list.kind === 'followers') size = user.envelope.data.follower_count
	}
	if (list.search !== undefined && !(await collectWithoutSearch(list.search, target, size)))
		return {
			ok: false,
			status: 0,
			error: 'you chose not to collect every follower',
			code: 'cancelled',
			durationMs: 0,
			sizeBytes: 0,
			method: 'POST',
			path: '/api/jobs'
		}
	return startJob(list.kind, target, null)
}

/** Asks whether to collect every follower of `target` although the list on screen is a search's. */
function collectWithoutSearch(search: string, target: string, size: number | undefined): Promise<boolean> {
	const all = typeof size === 'number' ? `all ${formatQuantity(size, 'follower')}` : 'all followers'
	return confirmAction({
		title: `Collect ${all} of ${target}?`,
		message: `The search "${search}" is not applied: a job collects every follower of ${target}, not only those the search found. To keep only those, download this result as CSV instead.`,
		confirmLabel: `Collect ${all} (without the search)`
	})
}
