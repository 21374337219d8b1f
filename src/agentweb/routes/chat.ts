/**
 * The agent web server's API: a small status, then the chat API both servers share
 * (src/agent/chat/routes.ts) under `/api` in the plain bodies the chat page reads, with parallel
 * tasks. Errors are thrown as `HttpError`s; the app's `onError` answers them.
 */
import { Elysia } from 'elysia'
import { chatRoutes as sharedChatRoutes } from '../../agent/chat/routes'
import type { ChatSetup } from '../../agent/chat/setup'

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

/** The `/api/*` routes. */
export const chatRoutes = ({ chat, demo, heartbeatMs, log }: ChatRoutesDeps) => {
	const reason = chat.reason ?? 'No AI provider is configured'
	return new Elysia()
		.get(
			'/api/status',
			() => ({
				available: chat.available,
				provider: chat.provider,
				label: chat.label,
				model: chat.session?.describe().model ?? chat.model,
				permission: chat.session?.permission ?? null,
				approval_timeout_seconds: chat.session?.approvalTimeoutSeconds ?? null,
				demo,
				...(chat.session ? chat.session.activity() : { busy: false, waiting: 0 }),
				...(chat.available ? {} : { reason })
			}),
			{
				detail: { tags: ['Chat'], summary: 'Provider, model, permission level and whether an ask is running' }
			}
		)
		.use(
			sharedChatRoutes({
				chat: { ...chat, reason },
				prefix: '/api',
				responses: 'plain',
				parallel: true,
				heartbeatMs,
				log,
				server: 'agent-web',
				tag: 'Chat'
			})
		)
}
