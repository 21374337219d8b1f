/**
 * Builds the agent web server (docs/api-contract.md, "Chat" and "Security"): the shared security guard,
 * JSON bodies, one error handler, the chat page and the chat API. Building has no side effects:
 * nothing listens here (`serve.ts` does), so tests drive the app through `app.handle`.
 * The error handler is attached before the routes: an Elysia hook covers only routes added after it.
 */
import { Elysia } from 'elysia'
import { type ChatSetup, type ChatSetupOptions, setupChat } from '../agent/chat/setup'
import type { PermissionLevel } from '../agent/permissions'
import type { InstagramClient } from '../client/client'
import { createClientFromEnv } from '../client/env'
import { jsonBody, MiB } from '../server/body'
import { fail, failureResponse } from '../server/envelope'
import { type Failure, toFailure } from '../server/errors'
import { methodsFor } from '../server/route-methods'
import { type SecurityOptions, securityGuard } from '../server/security'
import { chatRoutes } from './routes/chat'
import { chatUiPaths, chatUiRoutes } from './ui'

/** Where approvals can be given, ending the error of a JSON ask whose actions were denied. */
export const AGENT_WEB_APPROVAL_HINT =
	'Ask from the chat page in a browser (it asks you to approve or deny each action), or start the server with --permission full_access.'

/** What the app is built from once the chat side is resolved. */
export interface AgentWebDeps {
	chat: ChatSetup
	/** Demo mode, reported by `/api/status`. */
	demo?: boolean
	/** Host/port/token/CORS checks (default: loopback names, any port, no token). */
	security?: SecurityOptions
	/** Keep-alive interval of event streams (default 5000 ms). */
	heartbeatMs?: number
	/** Receives log lines for unexpected errors (default console.error). Never given secrets. */
	log?: (line: string) => void
}

/** Options of `createAgentWeb` (env file path, provider, API key, permission level, and more). */
export interface AgentWebOptions extends Omit<ChatSetupOptions, 'client'>, Omit<AgentWebDeps, 'chat'> {
	/** Environment file with the Instagram credentials and AI keys (default `.env`). */
	envPath?: string
	provider?: string
	apiKey?: string
	/** Default `ask_once`: actions are approved in the browser. */
	permission?: PermissionLevel
	/** Use this client instead of one built from the environment file. */
	client?: InstagramClient
}

/** A failure as the chat page reads it: `{ success: false, error }` with its status. */
function plainFailure(failure: Failure): Response {
	return new Response(JSON.stringify({ success: false, error: failure.body.error }), {
		status: failure.status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...failure.headers }
	})
}

/** Builds the app from resolved parts (used by `createAgentWeb` and `serve.ts`). */
export function createAgentWebApp(deps: AgentWebDeps) {
	const log = deps.log ?? console.error
	const app = new Elysia()
		.use(
			securityGuard({
				...deps.security,
				publicPaths: [...chatUiPaths(), ...(deps.security?.publicPaths ?? [])]
			})
		)
		.onError(({ code, error, request }) => {
			const pathname = new URL(request.url).pathname
			const failure = toFailure(error, code, {
				server: 'agent-web',
				log,
				request: `${request.method} ${pathname}`
			})
			if (code === 'NOT_FOUND' && failure.body.code === 'not_found') {
				// Elysia answers 404 for a known path with the wrong method; the route table tells them apart.
				const allowed = methodsFor(app.routes, pathname)
				return plainFailure(
					allowed.length > 0
						? {
								...failure,
								status: 405,
								body: fail(`Method ${request.method} not allowed on ${pathname}`, 'method_not_allowed'),
								headers: { allow: allowed.join(', ') }
							}
						: { ...failure, body: fail(`Not found: ${request.method} ${pathname}`, 'not_found') }
				)
			}
			// A body over the limit is the guards' refusal, before any route: the envelope, as on the playground.
			if (failure.body.code === 'payload_too_large')
				return failureResponse(failure.body.error, 'payload_too_large', failure.headers)
			return plainFailure(failure)
		})
		.use(jsonBody({ limit: MiB }))
		.use(chatUiRoutes())
		.use(chatRoutes({ chat: deps.chat, demo: deps.demo ?? false, heartbeatMs: deps.heartbeatMs, log }))
	return app
}

/** The app type. */
export type AgentWebApp = ReturnType<typeof createAgentWebApp>

/**
 * The agent web server as a library (docs/architecture.md, "Product"): returns the Elysia app, not listening.
 * Throws AgentConfigError for an unknown provider; without a key the app answers asks with 503.
 */
export function createAgentWeb(options: AgentWebOptions = {}): AgentWebApp {
	const { demo, security, heartbeatMs, log, client, ...chatOptions } = options
	const ig = client ?? createClientFromEnv(options.envPath ?? '.env')
	const chat = setupChat({ ...chatOptions, client: ig }, AGENT_WEB_APPROVAL_HINT)
	return createAgentWebApp({ chat, demo, security, heartbeatMs, log })
}
