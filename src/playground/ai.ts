/**
 * AI chat in the playground (DESIGN.md section 4, "AI in the playground"): the same agent and
 * approval flow as the agent web server, under `/api/ai/*`. The provider is chosen from the
 * environment file's AI keys (the first provider whose key is set, DESIGN 3 and 5).
 * - `POST /api/ai/ask {message}`: the AI ask response plus `timestamp` (503 in that shape without a key);
 * - `POST /api/ai/ask/stream {message}`: server-sent events (status ... done), approvals in the browser;
 * - `POST /api/ai/approve {id, allow}`, `POST /api/ai/reset`, `GET /api/ai/history`: envelopes.
 * Errors are thrown as `HttpError`s; the playground's `onError` makes them envelopes.
 */
import { Elysia } from 'elysia'
import { eventStreamResponse } from '../agent/chat/event-stream'
import { LockWaitAbortedError } from '../agent/chat/mutex'
import { readApproval, readAskMessage } from '../agent/chat/requests'
import { type ChatSetup, type ChatSetupOptions, setupChat } from '../agent/chat/setup'
import { fail, HttpError, nowSeconds, ok } from '../server/envelope'
import type { PlaygroundAi } from './app'

/** Where approvals can be given, ending the error of a JSON ask whose actions were denied. */
export const PLAYGROUND_APPROVAL_HINT =
	"Ask from the playground's AI Chat panel (it asks you to approve or deny each action), or start the playground with --permission full_access."

/** Options of `createPlaygroundAi`: the client, the environment's variables, the permission level. */
export interface PlaygroundAiOptions extends ChatSetupOptions {
	/** Keep-alive interval of event streams (default 5000 ms). */
	heartbeatMs?: number
	/** Log lines for failures inside a stream (default console.error). */
	log?: (line: string) => void
}

const detail = (summary: string) => ({ detail: { tags: ['AI'], summary } })

/**
 * Builds the playground's AI side. Throws AgentConfigError only for an unknown provider name;
 * without a key `available` is false and the routes answer 503 with what to set.
 */
export function createPlaygroundAi(options: PlaygroundAiOptions): PlaygroundAi {
	const { heartbeatMs, log = console.error, ...setup } = options
	const chat = setupChat(setup, PLAYGROUND_APPROVAL_HINT)
	return {
		available: chat.available,
		provider: chat.available ? chat.provider : null,
		// A local runner's `auto` model becomes its real name after the first ask.
		get model() {
			return chat.session ? chat.session.describe().model : null
		},
		routes: () => aiRoutes(chat, heartbeatMs, log)
	}
}

function aiRoutes(chat: ChatSetup, heartbeatMs: number | undefined, log: (line: string) => void) {
	const reason = chat.reason ?? 'AI chat is not available: no AI provider is configured'
	const unavailableAsk = (set: { status?: number | string }) => {
		set.status = 503
		return {
			success: false,
			answer: '',
			code: '',
			files: [],
			steps: 0,
			tokens: 0,
			duration: 0,
			error: reason,
			timestamp: nowSeconds()
		}
	}
	const unavailable = (set: { status?: number | string }) => {
		set.status = 503
		return fail(reason, 'ai_unavailable')
	}
	const onFailure = (error: unknown) => log(`[playground] AI stream failed: ${String(error)}`)

	return new Elysia({ prefix: '/api/ai' })
		.post(
			'/ask',
			async ({ body, request, set }) => {
				if (!chat.session) return unavailableAsk(set)
				const message = readAskMessage(body)
				const response = await chat.session.ask(message, { signal: request.signal, approvals: 'none' })
				return { ...response, timestamp: nowSeconds() }
			},
			detail('Ask the agent (AI ask response); actions needing approval are denied: use the stream')
		)
		.post(
			'/ask/stream',
			({ body, request, set }) => {
				const session = chat.session
				if (!session) return unavailableAsk(set)
				const message = readAskMessage(body)
				return eventStreamResponse(
					async (send, signal) => {
						await session.ask(message, { signal, onEvent: send, approvals: 'browser' })
					},
					{ request, heartbeatMs, onFailure }
				)
			},
			detail('Ask the agent, streaming its steps as server-sent events')
		)
		.post(
			'/approve',
			({ body, set }) => {
				if (!chat.session) return unavailable(set)
				const { id, allow } = readApproval(body)
				if (!chat.session.approve(id, allow)) {
					throw new HttpError(
						'not_found',
						'No permission request with this id is waiting (it was decided, timed out or cancelled)'
					)
				}
				return ok({ id, allow }, allow ? 'Approved' : 'Denied')
			},
			detail('Approve or deny an action the agent asked about')
		)
		.post(
			'/reset',
			async ({ request, set }) => {
				if (!chat.session) return unavailable(set)
				try {
					await chat.session.reset(request.signal)
				} catch (error) {
					if (error instanceof LockWaitAbortedError) throw new HttpError('bad_request', error.message)
					throw error
				}
				return ok({ reset: true }, 'Conversation reset')
			},
			detail('Start a new conversation (forgets remembered approvals)')
		)
		.get(
			'/history',
			({ set }) => (chat.session ? ok(chat.session.history(), 'Conversation history') : unavailable(set)),
			detail('The conversation: [{ role, content, timestamp }]')
		)
}
