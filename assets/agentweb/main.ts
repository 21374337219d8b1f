/**
 * The agent web page: a header with the provider, model, permission level and demo badge (from
 * `GET /api/status`), a notice when no AI provider is configured, and the shared chat component
 * with the parallel-tasks form. The model badge names the model in use: with `--model auto` the
 * status says `auto` until the server's model is known, so the badge follows the model an answer
 * names, and reads the status again after each answer while it still says `auto`.
 */

import { mountChatAcrossTabs } from '../common/chat/tabs'
import { h } from '../common/dom'
import { requestHeaders } from '../common/request'

interface AgentWebStatus {
	available: boolean
	label?: string
	model?: string
	permission?: string | null
	demo?: boolean
	reason?: string
}

const permissionText: Record<string, string> = {
	ask_every: 'asks before every action',
	ask_once: 'asks once per kind of action',
	full_access: 'full access: actions run without asking'
}

function badge(text: string, className = ''): HTMLElement {
	return h('span', { className: `badge ${className}`.trim(), text })
}

async function loadStatus(): Promise<AgentWebStatus | null> {
	try {
		const response = await fetch('/api/status', {
			headers: requestHeaders(),
			cache: 'no-store'
		})
		return response.ok ? ((await response.json()) as AgentWebStatus) : null
	} catch {
		return null
	}
}

/** The provider and model badge's text: `OpenAI · gpt-4o-mini`. */
function modelText(status: AgentWebStatus): string {
	return `${status.label ?? ''} · ${status.model ?? ''}`
}

async function start(): Promise<void> {
	const chat = document.getElementById('chat') as HTMLElement
	const badges = document.getElementById('badges') as HTMLElement
	const notice = document.getElementById('notice') as HTMLElement
	const status = await loadStatus()
	if (status?.demo) badges.append(badge('Demo data', 'badge-demo'))
	const modelBadge = badge(status ? modelText(status) : '', 'badge-model')
	let model = status?.model
	const showModel = (next: string | undefined) => {
		if (!status || !next || next === model) return
		model = next
		modelBadge.textContent = modelText({ ...status, model })
	}
	const refreshModel = async () => {
		if (model === 'auto') showModel((await loadStatus())?.model)
	}
	if (status?.available) {
		badges.append(modelBadge)
		if (status.permission) {
			badges.append(badge(status.permission, status.permission === 'full_access' ? 'badge-warning' : ''))
			badges.lastElementChild?.setAttribute('title', permissionText[status.permission] ?? '')
		}
	} else {
		notice.hidden = false
		notice.textContent = status
			? `AI is not configured: ${status.reason ?? 'set an AI provider key'}`
			: 'The server could not be reached (or the access token is missing: open the URL the server printed).'
	}
	mountChatAcrossTabs(
		chat,
		{ basePath: '/api', parallel: true, onModel: showModel, onAnswered: () => void refreshModel() },
		'smkit-agent-web-chat'
	)
}

void start()
