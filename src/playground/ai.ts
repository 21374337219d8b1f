/**
 * AI chat in the playground: the same agent, chat API and approval flow as the agent web server,
 * under `/api/ai/*` in envelopes (see src/agent/chat/routes.ts). The provider is chosen from the
 * environment file's AI keys: the first provider whose key is set.
 */
import { chatRoutes } from '../agent/chat/routes'
import { type ChatSetup, type ChatSetupOptions, setupChat, unavailableChat } from '../agent/chat/setup'
import { AgentConfigError } from '../agent/providers'
import type { PlaygroundAi } from './app'
import { AI_UNAVAILABLE_MESSAGE } from './routes/ai-fallback'
import { aiDocs } from './routes/ai-schemas'

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

/**
 * Builds the playground's AI side. Throws AgentConfigError only for an unknown provider name;
 * without a key `available` is false and the routes answer 503 with what to set, and with a
 * malformed variable (OPENAI_BASE_URL) they answer 503 naming it: the playground still starts.
 */
export function createPlaygroundAi(options: PlaygroundAiOptions): PlaygroundAi {
	const { heartbeatMs, log = console.error, ...setup } = options
	let chat: ChatSetup
	try {
		const configured = setupChat(setup, PLAYGROUND_APPROVAL_HINT)
		// The provider's own message names --api-key and --provider, which the playground does not take:
		// its AI keys come from the environment file only.
		chat = configured.available ? configured : { ...configured, reason: AI_UNAVAILABLE_MESSAGE }
	} catch (error) {
		if (!(error instanceof AgentConfigError) || setup.provider !== undefined) throw error
		chat = unavailableChat(`AI chat is not available: ${error.message}`)
	}
	return {
		available: chat.available,
		provider: chat.available ? chat.provider : null,
		endpoint: chat.available ? chat.endpoint : undefined,
		reason: chat.available ? undefined : chat.reason,
		// A local runner's `auto` model becomes its real name after the first ask.
		get model() {
			return chat.session ? chat.session.describe().model : null
		},
		routes: () =>
			chatRoutes({
				chat,
				prefix: '/api/ai',
				responses: 'envelope',
				heartbeatMs,
				log,
				server: 'playground',
				tag: 'AI',
				docs: aiDocs
			})
	}
}
