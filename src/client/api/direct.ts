/**
 * `ig.direct`: the direct-message inbox and sending a text (docs/instagram.md, "Hashtags,
 * notifications, direct").
 */
import { normalizeThread } from '../normalize/social'
import { asArray, asObject, flag, numberOrNull, text } from '../normalize/values'
import { type ListOptions, type Page, paginate } from '../pagination'
import type { DirectSendResult, DirectThread } from '../types'
import { ApiGroup, call, type RequestOptions, requirePk, requireText } from './base'

/** Direct messages. */
export class Direct extends ApiGroup {
	/** Threads, newest first: `GET /api/v1/direct_v2/inbox/?limit=20[&cursor=<oldest_cursor>]` [get_direct]. */
	async getInbox(options: ListOptions = {}): Promise<Page<DirectThread>> {
		return paginate(async (cursor, limit) => {
			const body = await call(this.client, '/api/v1/direct_v2/inbox/', {
				query: { limit: Math.min(limit ?? 20, 50), cursor, persistentBadging: 'true' },
				list: 'inbox.threads',
				category: 'get_direct',
				signal: options.signal
			})
			const inbox = asObject(body.inbox)
			const next = text(inbox.oldest_cursor)
			return {
				items: asArray(inbox.threads).map(normalizeThread),
				next_cursor: flag(inbox.has_older) && next ? next : null
			}
		}, options)
	}

	/**
	 * Sends a text message to a user: `POST /api/v1/direct_v2/threads/broadcast/text/` with
	 * `recipient_users=[[pk]]` [post_dm]. Not retried except after a 429 (no duplicate messages). An
	 * answer without its `payload` (the thread and item ids) is malformed (upstream_error).
	 */
	async sendText(userPk: string, message: string, options: RequestOptions = {}): Promise<DirectSendResult> {
		const pk = requirePk('userPk', userPk)
		const body = await call(this.client, '/api/v1/direct_v2/threads/broadcast/text/', {
			method: 'POST',
			form: {
				recipient_users: `[[${pk}]]`,
				text: requireText('text', message, 1000),
				action: 'send_item',
				client_context: crypto.randomUUID(),
				mutation_token: crypto.randomUUID()
			},
			holds: 'payload',
			category: 'post_dm',
			signal: options.signal
		})
		const payload = asObject(body.payload)
		return {
			thread_id: text(payload.thread_id),
			item_id: text(payload.item_id),
			timestamp: microsToSeconds(payload.timestamp)
		}
	}
}

function microsToSeconds(value: unknown): number | null {
	const micros = numberOrNull(value)
	return micros === null ? null : Math.floor(micros / 1_000_000)
}
