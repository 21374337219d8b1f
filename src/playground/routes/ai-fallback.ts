/**
 * `/api/ai/*` when no AI is wired in: the chat routes with no provider, so every one of them (the
 * ask and its stream included) answers the 503 `ai_unavailable` envelope saying which key to set.
 */
import { chatRoutes } from '../../agent/chat/routes'
import { unavailableChat } from '../../agent/chat/setup'
import { aiDocs } from './ai-schemas'

/** Why AI chat is off, for people. */
export const AI_UNAVAILABLE_MESSAGE =
	'AI chat is not available: set an AI provider key (e.g. GEMINI_API_KEY or OPENAI_API_KEY) in the environment file'

/** The stand-in AI routes. */
export const aiFallbackRoutes = () =>
	chatRoutes({
		chat: unavailableChat(AI_UNAVAILABLE_MESSAGE),
		prefix: '/api/ai',
		responses: 'envelope',
		log: console.error,
		server: 'playground',
		tag: 'AI',
		docs: aiDocs
	})
