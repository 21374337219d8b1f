/**
 * The chat API both servers serve, under their own prefix (agent web: `/api`, playground:
 * `/api/ai`): ask (JSON and server-sent events), history, reset, approve and, where enabled,
 * parallel tasks. Bodies are validated by the schemas of `requests.ts`; errors are thrown as
 * `HttpError`s for the server's error mapping (src/server/errors.ts).
 *
 * The two servers shape their answers differently (docs/api-contract.md, "Chat"): the playground
 * answers in envelopes (`responses: 'envelope'`), the agent web server in its own plain bodies
 * (`responses: 'plain'`), which its page reads. The ask itself is the ask response in both.
 */
import { Elysia } from 'elysia'
import { fail, HttpError, nowSeconds, ok } from '../../server/envelope'
import { redactSecrets } from '../../server/redact'
import type { HistoryEntry } from '../agent'
import { type AgentEvent, type AskResponse, failedAsk } from '../events'
import { eventStreamResponse } from './event-stream'
import { LockWaitAbortedError } from './mutex'
import { ApprovalBody, AskBody, requireObjectBody, TasksBody } from './requests'
import type { ChatSetup } from './setup'

/** How a server shapes the chat answers that are not the ask response itself. */
interface ChatResponses {
	/** A JSON ask's answer (also sent, with status 503, when no provider is configured). */
	ask(response: AskResponse): object
	history(entries: HistoryEntry[]): object
	approved(id: string, allow: boolean): object
	reset(): object
	/** A reset whose client left while it waited for the running ask. */
	resetCancelled(message: string): object
	/** History, reset and approve without a provider: a 503 body, or none to answer as an empty chat. */
	unavailable?(reason: string): object
}

const responseStyles: Record<'envelope' | 'plain', ChatResponses> = {
	envelope: {
		ask: (response) => ({ ...response, timestamp: nowSeconds() }),
		history: (entries) => ok(entries, 'Conversation history'),
		approved: (id, allow) => ok({ id, allow }, allow ? 'Approved' : 'Denied'),
		reset: () => ok({ reset: true }, 'Conversation reset'),
		resetCancelled: (message) => {
			throw new HttpError('bad_request', message)
		},
		unavailable: (reason) => fail(reason, 'ai_unavailable')
	},
	plain: {
		ask: (response) => response,
		history: (entries) => ({ history: entries }),
		approved: (id, allow) => ({ success: true, id, allow }),
		reset: () => ({ success: true }),
		resetCancelled: (message) => ({ success: false, error: message })
	}
}

/** What the chat routes are built from. */
export interface ChatRoutesOptions {
	chat: ChatSetup
	/** Path prefix, e.g. `/api` or `/api/ai`. */
	prefix: string
	/** Envelopes (playground) or the agent web server's plain bodies. */
	responses: 'envelope' | 'plain'
	/** Also serve `/parallel` and `/parallel/stream`. */
	parallel?: boolean
	/** Keep-alive interval of event streams (ms). */
	heartbeatMs?: number
	/** Server log for failures inside a stream (lines are redacted here). */
	log: (line: string) => void
	/** Name in log lines, e.g. `agent-web`. */
	server: string
	/** Tag of the routes in the API reference. */
	tag: string
	/** A server's own API reference entries (route options carrying `detail`), replacing the summaries. */
	docs?: Partial<Record<ChatRouteName, { detail: object }>>
}

/** The chat routes a server can document. */
export type ChatRouteName = 'ask' | 'stream' | 'history' | 'reset' | 'approve'

/** Tags a parallel task's event with its index (the waiting notice before any task has none). */
function taskEvent(index: number, event: AgentEvent): Record<string, unknown> {
	return index < 0 ? { ...event } : { ...event, task: index }
}

const notWaiting = 'No permission request with this id is waiting (it was decided, timed out or cancelled)'

/** The chat routes. Without a configured provider every ask answers 503 saying what to set. */
export function chatRoutes(options: ChatRoutesOptions) {
	const { chat, heartbeatMs } = options
	const style = responseStyles[options.responses]
	const reason = chat.reason ?? 'AI chat is not available: no AI provider is configured'
	const onFailure = (error: unknown) =>
		options.log(redactSecrets(`[${options.server}] chat stream failed: ${String(error)}`))
	const detail = (route: ChatRouteName, summary: string) =>
		options.docs?.[route] ?? { detail: { tags: [options.tag], summary } }
	type SetStatus = { status?: number | string }
	// Envelope servers answer the 503 envelope (its `code` is `ai_unavailable`), plain ones the ask response.
	const unavailableAsk = (set: SetStatus) => {
		set.status = 503
		return style.unavailable ? style.unavailable(reason) : style.ask(failedAsk(reason))
	}
	/** The 503 of history/reset/approve without a provider, when the style has one. */
	const unavailable = (set: SetStatus) => {
		if (chat.session || !style.unavailable) return undefined
		set.status = 503
		return style.unavailable(reason)
	}

	const routes = new Elysia({ prefix: options.prefix })
		.post(
			'/ask',
			async ({ body, request, set }) => {
				if (!chat.session) return unavailableAsk(set)
				const message = body.message.trim()
				return style.ask(await chat.session.ask(message, { signal: request.signal, approvals: 'none' }))
			},
			{
				body: AskBody,
				parse: 'json',
				transform: requireObjectBody,
				...detail('ask', 'Ask the agent (ask response); actions needing approval are denied: use the stream')
			}
		)
		.post(
			'/ask/stream',
			({ body, request, set }) => {
				const session = chat.session
				if (!session) return unavailableAsk(set)
				const message = body.message.trim()
				return eventStreamResponse(
					async (send, signal) => {
						await session.ask(message, { signal, onEvent: send, approvals: 'browser' })
					},
					{ request, heartbeatMs, onFailure }
				)
			},
			{
				body: AskBody,
				parse: 'json',
				transform: requireObjectBody,
				...detail('stream', 'Ask the agent, streaming its steps as server-sent events')
			}
		)
		.get('/history', ({ set }) => unavailable(set) ?? style.history(chat.session?.history() ?? []), {
			...detail('history', 'The conversation: [{ role, content, timestamp }]')
		})
		.post(
			'/reset',
			async ({ request, set }) => {
				const refused = unavailable(set)
				if (refused) return refused
				try {
					await chat.session?.reset(request.signal)
				} catch (error) {
					// The client left while an ask was still running: nothing was reset, nobody is waiting.
					if (error instanceof LockWaitAbortedError) return style.resetCancelled(error.message)
					throw error
				}
				return style.reset()
			},
			detail('reset', 'Start a new conversation (forgets remembered approvals)')
		)
		.post(
			'/approve',
			({ body, set }) => {
				const refused = unavailable(set)
				if (refused) return refused
				if (!chat.session?.approve(body.id, body.allow)) throw new HttpError('not_found', notWaiting)
				return style.approved(body.id, body.allow)
			},
			{
				body: ApprovalBody,
				parse: 'json',
				transform: requireObjectBody,
				...detail('approve', 'Approve or deny an action the agent asked about')
			}
		)
	return options.parallel ? routes.use(parallelRoutes(options, reason, onFailure)) : routes
}

/** `POST /parallel` and `/parallel/stream`: tasks run at once, each in its own conversation. */
function parallelRoutes(options: ChatRoutesOptions, reason: string, onFailure: (error: unknown) => void) {
	const { chat, heartbeatMs } = options
	const detail = (summary: string) => ({ detail: { tags: [options.tag], summary } })
	const unavailable = (set: { status?: number | string }) => {
		set.status = 503
		return { success: false, error: reason }
	}
	return new Elysia()
		.post(
			'/parallel',
			async ({ body, request, set }) => {
				if (!chat.session) return unavailable(set)
				const tasks = body.tasks.map((task) => task.trim())
				return chat.session.parallel(tasks, { signal: request.signal, approvals: 'none' })
			},
			{
				body: TasksBody,
				parse: 'json',
				transform: requireObjectBody,
				...detail('Run tasks in parallel; actions needing approval are denied')
			}
		)
		.post(
			'/parallel/stream',
			({ body, request, set }) => {
				const session = chat.session
				if (!session) return unavailable(set)
				const tasks = body.tasks.map((task) => task.trim())
				return eventStreamResponse(
					async (send, signal) => {
						const result = await session.parallel(tasks, {
							signal,
							approvals: 'browser',
							onEvent: (index, event) => send(taskEvent(index, event))
						})
						// The run's own summary: `done` without `task`, with the parallel result's fields.
						send({ type: 'done', ...result })
					},
					{ request, heartbeatMs, onFailure }
				)
			},
			{
				body: TasksBody,
				parse: 'json',
				transform: requireObjectBody,
				...detail('Run tasks in parallel, streaming their events (each carries `task`)')
			}
		)
}
