/**
 * `/api/ai/*` when no AI is wired in (DESIGN 4 "AI in the playground"): ask answers 503 in the ask
 * response shape, the other AI endpoints answer the 503 `ai_unavailable` envelope.
 */
import { Elysia } from 'elysia'
import { fail, nowSeconds } from '../../server/envelope'

/** Why AI chat is off, for people. */
export const AI_UNAVAILABLE_MESSAGE =
	'AI chat is not available: set an AI provider key (e.g. GEMINI_API_KEY or OPENAI_API_KEY) in the environment file'

const askUnavailable = ({ set }: { set: { status?: number | string } }) => {
	set.status = 503
	return {
		success: false,
		answer: '',
		code: '',
		files: [],
		steps: 0,
		tokens: 0,
		duration: 0,
		error: AI_UNAVAILABLE_MESSAGE,
		timestamp: nowSeconds()
	}
}

const envelopeUnavailable = ({ set }: { set: { status?: number | string } }) => {
	set.status = 503
	return fail(AI_UNAVAILABLE_MESSAGE, 'ai_unavailable')
}

const detail = { tags: ['AI'], summary: 'AI chat (not configured: 503)' }

/** The stand-in AI routes. */
export const aiFallbackRoutes = () =>
	new Elysia({ prefix: '/api/ai' })
		.post('/ask', askUnavailable, { detail })
		.post('/ask/stream', askUnavailable, { detail })
		.post('/reset', envelopeUnavailable, { detail })
		.post('/approve', envelopeUnavailable, { detail })
		.get('/history', envelopeUnavailable, { detail })
