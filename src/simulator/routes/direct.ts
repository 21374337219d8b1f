/**
 * Direct messages: `GET /direct_v2/inbox/` (limit, cursor = `inbox.oldest_cursor`), one thread
 * `GET /direct_v2/threads/{id}/`, and the write `POST /direct_v2/threads/broadcast/text/` with the form
 * `recipient_users='[[pk]]'` (or `thread_ids='["id"]'`) and `text`.
 */
import { decodeCursor, pageOf, pageSize } from '../cursor'
import type { DemoMessage, DemoThread } from '../dataset-types'
import { fail, ok, parseJsonField, type Route, type RouteContext } from '../http'
import { liveTime } from '../presets'
import { userShort } from '../views-user'

const MAX_MESSAGE_LENGTH = 2000
/** The most threads one inbox page serves, whatever `limit` asks. */
const MAX_INBOX_PAGE = 20

/** A message time (µs) moved forward like every data-set activity time (see liveTime). */
function liveMicros(micros: number, now: number): number {
	const seconds = Math.floor(micros / 1_000_000)
	return (liveTime(seconds, now) - seconds) * 1_000_000 + micros
}

function itemView(message: DemoMessage, now: number) {
	return {
		item_id: message.itemId,
		user_id: message.userPk,
		timestamp: liveMicros(message.timestampMicros, now),
		item_type: 'text',
		text: message.text
	}
}

function threadView(context: RouteContext, thread: DemoThread, messageLimit: number) {
	const { state } = context
	const newestFirst = thread.messages.slice().reverse()
	const items = newestFirst.slice(0, messageLimit)
	const last = newestFirst[0]
	return {
		thread_id: thread.threadId,
		thread_v2_id: `17${thread.threadId.slice(-15)}`,
		thread_title: thread.title,
		thread_type: 'private',
		is_group: thread.isGroup,
		named: thread.isGroup,
		muted: thread.muted,
		pending: false,
		canonical: !thread.isGroup,
		// Unread when the newest message is someone else's.
		read_state: last && last.userPk !== state.viewerPk ? 1 : 0,
		has_older: newestFirst.length > items.length,
		has_newer: false,
		last_activity_at: last ? liveMicros(last.timestampMicros, context.now) : 0,
		viewer_id: state.viewerPk,
		users: thread.userPks.flatMap((pk) => {
			const user = state.user(pk)
			return user ? [userShort(context, user)] : []
		}),
		inviter: userShort(context, state.viewer),
		items: items.map((message) => itemView(message, context.now)),
		last_permanent_item: last ? itemView(last, context.now) : null,
		oldest_cursor: items.at(-1)?.itemId ?? null,
		newest_cursor: last?.itemId ?? null
	}
}

/** Parses `recipient_users` (`[[pk, ...]]`) into the pks of one thread's recipients. */
function recipientsOf(value: string | null): string[] | null {
	const parsed = parseJsonField(value)
	if (!Array.isArray(parsed) || !Array.isArray(parsed[0])) return null
	const pks = (parsed[0] as unknown[]).map((pk) => String(pk))
	return pks.length > 0 && pks.every((pk) => /^\d{1,20}$/.test(pk)) ? pks : null
}

/** Direct routes. */
export const directRoutes: readonly Route[] = [
	{
		method: 'GET',
		path: '/api/v1/direct_v2/inbox/',
		access: 'session',
		handle(context) {
			const offset = decodeCursor('inbox', context.query.get('cursor'))
			if (offset === null) return fail(400, 'Invalid cursor')
			const limit = pageSize(context.query.get('limit'), MAX_INBOX_PAGE, MAX_INBOX_PAGE)
			const messageLimit = pageSize(context.query.get('thread_message_limit'), 10, 50)
			const { page, nextCursor } = pageOf(context.state.threads(), 'inbox', offset, limit)
			const threads = page.map((thread) => threadView(context, thread, messageLimit))
			const viewer = userShort(context, context.state.viewer)
			return ok({
				viewer: {
					pk: viewer.pk,
					username: viewer.username,
					full_name: viewer.full_name,
					profile_pic_url: viewer.profile_pic_url
				},
				inbox: {
					threads,
					has_older: nextCursor !== null,
					oldest_cursor: nextCursor,
					unseen_count: threads.filter((thread) => thread.read_state === 1).length,
					unseen_count_ts: context.now * 1_000_000,
					blended_inbox_enabled: true
				},
				seq_id: 40000 + context.state.threads().length,
				snapshot_at_ms: context.now * 1000,
				pending_requests_total: 0
			})
		}
	},
	{
		method: 'GET',
		path: '/api/v1/direct_v2/threads/:id/',
		access: 'session',
		handle(context) {
			const thread = context.state.thread(context.params.id ?? '')
			if (!thread) return fail(404, 'Thread not found')
			return ok({ thread: threadView(context, thread, pageSize(context.query.get('limit'), 20, 100)) })
		}
	},
	{
		method: 'POST',
		path: '/api/v1/direct_v2/threads/broadcast/text/',
		access: 'session',
		handle(context) {
			const { state, form } = context
			const text = form.get('text') ?? ''
			if (text.trim() === '') return fail(400, 'text is required')
			if ([...text].length > MAX_MESSAGE_LENGTH) return fail(400, 'Message is too long')
			const nowMicros = Date.now() * 1000
			let sent: { thread: DemoThread; message: DemoMessage }
			const threadIds = parseJsonField(form.get('thread_ids'))
			if (Array.isArray(threadIds) && threadIds.length > 0) {
				const thread = state.thread(String(threadIds[0]))
				if (!thread) return fail(404, 'Thread not found')
				sent = { thread, message: state.appendMessage(thread, text, nowMicros) }
			} else {
				const recipients = recipientsOf(form.get('recipient_users'))
				if (!recipients) return fail(400, 'recipient_users must look like [["<pk>"]]')
				if (recipients.some((pk) => !state.user(pk) || pk === state.viewerPk))
					return fail(404, 'User not found')
				sent = state.sendText(recipients, text, nowMicros)
			}
			return ok({
				action: 'item_ack',
				status_code: '200',
				payload: {
					client_context: form.get('client_context') ?? sent.message.itemId,
					item_id: sent.message.itemId,
					timestamp: String(sent.message.timestampMicros),
					thread_id: sent.thread.threadId
				}
			})
		}
	}
]
