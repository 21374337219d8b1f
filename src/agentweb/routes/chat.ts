/**
 * The agent web server's API (SPEC 4, DESIGN.md section 6): ask (JSON and server-sent events),
 * parallel tasks (JSON and events), history, reset, approve and a small status. Errors are thrown
 * as `HttpError`s; the app's `onError` turns them into `{ success: false, error }`.
 */
import { Elysia } from 'elysia'
import type { ChatSession } from '../../agent/chat/chat-session'
import { eventStreamResponse } from '../../agent/chat/event-stream'
import { LockWaitAbortedError } from '../../agent/chat/mutex'
import { readApproval, readAskMessage, readTasks } from '../../agent/chat/requests'
import type { ChatSetup } from '../../agent/chat/setup'
import type { AgentEvent } from '../../agent/events'
import { HttpError } from '../../server/envelope'

/** What the chat routes are built from. */
export interface ChatRoutesDeps {
	chat: ChatSetup
	/** Demo mode (the simulated Instagram), reported by `/api/status`. */
	demo: boolean
	/** Keep-alive interval of event streams (ms). */
	heartbeatMs?: number
	/** Server log for failures inside a stream. */
	log: (line: string) => void
}

/** The 503 body of an ask when no provider key is configured (ask response shape). */
function unavailableAsk(reason: string) {
	return { success: false, answer: '', code: '', files: [], steps: 0, tokens: 0, duration: 0, error: reason }
}

/** Tags a parallel task's event with its index (the waiting notice before any task has none). */
function taskEvent(index: number, event: AgentEvent): Record<string, unknown> {
	return index < 0 ? { ...event } : { ...event, task: index }
}

/** The `/api/*` routes. */
export const chatRoutes = ({ chat, demo, heartbeatMs, log }: ChatRoutesDeps) => {
	const reason = chat.reason ?? 'No AI provider is configured'
	const requireSession = (set: { status?: number | string }): ChatSession | undefined => {
		if (!chat.session) set.status = 503
		return chat.session ?? undefined
	}
	const onFailure = (error: unknown) => log(`[agent-web] stream failed: ${String(error)}`)

	return new Elysia({ prefix: '/api' })
		.get('/status', () => ({
			available: chat.available,
			provider: chat.provider,
			label: chat.label,
			model: chat.session?.describe().model ?? chat.model,
			permission: chat.session?.permission ?? null,
			approval_timeout_seconds: chat.session?.approvalTimeoutSeconds ?? null,
			demo,
			...(chat.session ? chat.session.activity() : { busy: false, waiting: 0 }),
			...(chat.available ? {} : { reason })
		}))
		.post('/ask', async ({ body, request, set }) => {
			const session = requireSession(set)
			if (!session) return unavailableAsk(reason)
			const message = readAskMessage(body)
			return session.ask(message, { signal: request.signal, approvals: 'none' })
		})
		.post('/ask/stream', ({ body, request, set }) => {
			const session = requireSession(set)
			if (!session) return unavailableAsk(reason)
			const message = readAskMessage(body)
			return eventStreamResponse(
				async (send, signal) => {
					await session.ask(message, { signal, onEvent: send, approvals: 'browser' })
				},
				{ request, heartbeatMs, onFailure }
			)
		})
		.post('/parallel', async ({ body, request, set }) => {
			const session = requireSession(set)
			if (!session) return { success: false, error: reason }
			const tasks = readTasks(body)
			return session.parallel(tasks, { signal: request.signal, approvals: 'none' })
		})
		.post('/parallel/stream', ({ body, request, set }) => {
			const session = requireSession(set)
			if (!session) return { success: false, error: reason }
			const tasks = readTasks(body)
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
		})
		.get('/history', () => ({ history: chat.session?.history() ?? [] }))
		.post('/reset', async ({ request }) => {
			try {
				await chat.session?.reset(request.signal)
			} catch (error) {
				// The client left while an ask was still running: nothing was reset, nobody is waiting.
				if (error instanceof LockWaitAbortedError) return { success: false, error: error.message }
				throw error
			}
			return { success: true }
		})
		.post('/approve', ({ body }) => {
			const { id, allow } = readApproval(body)
			if (!chat.session?.approve(id, allow)) {
				throw new HttpError(
					'not_found',
					'No permission request with this id is waiting (it was decided, timed out or cancelled)'
				)
			}
			return { success: true, id, allow }
		})
}
