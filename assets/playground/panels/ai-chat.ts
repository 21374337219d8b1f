/**
 * AI Chat panel: the shared chat component (assets/common/chat, also used by `smkit agent-web`)
 * against the playground's `/api/ai/*` routes. Without an AI provider, from `/api/status`
 * (`ai_available`, `ai_provider`, `ai_model`), the panel explains how to enable one.
 *
 * Server side (docs/api-contract.md, "Chat"): the chat asks with `POST /api/ai/ask/stream {message}`
 * (server-sent events), decides approvals with `POST /api/ai/approve`, and uses `POST /api/ai/reset`
 * and `GET /api/ai/history`. Those requests go through `ChatApi` (assets/common/chat/api.ts), which
 * takes the access token and the JSON content type from assets/common/request.ts. Build every node
 * with `h()` from `assets/common/dom.ts`: answers may quote Instagram text and must stay text.
 */
import { mountChatAcrossTabs } from '../../common/chat/tabs'
import { h, replaceChildren } from '../../common/dom'
import { type Panel, panelFrame } from '../lib/panel'
import { onStatus, type ServerStatus } from '../lib/state'

const AI_KEYS = [
	'GEMINI_API_KEY',
	'OPENAI_API_KEY',
	'ANTHROPIC_API_KEY',
	'DEEPSEEK_API_KEY',
	'GROQ_API_KEY',
	'OPENROUTER_API_KEY',
	'MISTRAL_API_KEY',
	'XAI_API_KEY'
]

/**
 * Renders the chat into `container` when an AI provider is available. It is called once, the
 * first time the panel shows with `ai_available: true`; the chat follows resets made in other tabs.
 */
export function mountChat(container: HTMLElement, _status: ServerStatus): void {
	mountChatAcrossTabs(container, { basePath: '/api/ai' }, 'smkit-playground-chat')
}

function setupHelp(): HTMLElement {
	return h(
		'div',
		{ className: 'notice notice-info' },
		h('strong', { text: 'AI Chat needs an AI provider key' }),
		h('p', {
			text: 'Add one of these variables to the .env file the playground reads (or to its environment), then restart the playground:'
		}),
		h(
			'ul',
			{ className: 'key-list' },
			...AI_KEYS.map((key) => h('li', null, h('code', { text: `${key}=…` })))
		),
		h('p', {
			text: 'A local model works too: set OLLAMA_HOST. An OpenAI-compatible endpoint: OPENAI_API_KEY with OPENAI_BASE_URL.'
		}),
		h(
			'p',
			null,
			'For a standalone chat, run ',
			h('code', { text: 'smkit agent-web --provider gemini --api-key …' }),
			' or ask from a terminal with ',
			h('code', { text: 'smkit ask "…"' }),
			'.'
		)
	)
}

/** Builds the AI Chat panel. */
export function createAiChatPanel(): Panel {
	const body = h(
		'div',
		{ className: 'ai-chat' },
		h('p', { className: 'result-empty', text: 'Checking whether an AI provider is configured…' })
	)
	let mounted = false
	onStatus((status) => {
		if (mounted || !status) return
		if (status.ai_available) {
			mounted = true
			mountChat(body, status)
		} else {
			replaceChildren(body, setupHelp())
		}
	})
	const element = panelFrame(
		'ai-chat',
		'AI Chat',
		'Ask questions in plain language; the agent writes and runs code against the client.',
		body
	)
	return { id: 'ai-chat', title: 'AI Chat', element }
}
