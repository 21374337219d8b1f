/**
 * Entry of the playground page: registers the panels, starts the shell,
 * and keeps `/api/status` fresh (every 15 seconds, and when the tab becomes visible again).
 */
import { hasToken } from '../common/request'
import { apiGet, onReachability } from './lib/api'
import { OPEN_REQUEST_EVENT } from './lib/open-request'
import type { PanelEntry } from './lib/panel'
import { onSessionRefused, onSessionWorks } from './lib/session-signals'
import { type ServerStatus, setStatus } from './lib/state'
import { createAiChatPanel } from './panels/ai-chat'
import { createAnalyticsPanel } from './panels/analytics'
import { DATA_PANELS, matchRequest } from './panels/catalog'
import { createComparePanel } from './panels/compare'
import { createDashboardPanel } from './panels/dashboard'
import { createDataPanel, type DataPanel } from './panels/data-panel'
import { createHistoryPanel } from './panels/history'
import { createJobsPanel } from './panels/jobs'
import { createSavedPanel } from './panels/saved'
import { createWatchPanel } from './panels/watch'
import { renderStatusError, type Shell, startShell } from './shell'

const STATUS_POLL_MS = 15_000
let shell: Shell | null = null

function rerun(path: string): void {
	const match = matchRequest(path)
	if (!match || !shell) return
	const panel = shell.open(match.panel.id, match.action.id) as DataPanel | null
	panel?.runWith(match.action.id, match.values, match.extra)
}

const entries: PanelEntry[] = [
	{ id: 'ai-chat', title: 'AI Chat', group: 'Assistant', create: createAiChatPanel },
	...DATA_PANELS.map(
		(spec): PanelEntry => ({
			id: spec.id,
			title: spec.title,
			group: 'Data',
			create: () => createDataPanel(spec)
		})
	),
	{ id: 'jobs', title: 'Jobs', group: 'Workspace', create: createJobsPanel },
	{ id: 'saved', title: 'Saved', group: 'Workspace', create: createSavedPanel },
	{ id: 'history', title: 'History', group: 'Workspace', create: () => createHistoryPanel(rerun) },
	{ id: 'dashboard', title: 'Dashboard', group: 'Workspace', create: createDashboardPanel },
	{ id: 'watch', title: 'Watch', group: 'Insights', create: createWatchPanel },
	{ id: 'analytics', title: 'Analytics', group: 'Insights', create: createAnalyticsPanel },
	{ id: 'compare', title: 'Compare', group: 'Insights', create: createComparePanel }
]

async function refreshStatus(): Promise<void> {
	const result = await apiGet<ServerStatus>('/api/status')
	if (result.ok && result.envelope) setStatus(result.envelope.data)
	else renderStatusError(result.error ?? 'No answer', result.code ?? 'error', !hasToken())
}

shell = startShell(entries, 'users')
document.addEventListener(OPEN_REQUEST_EVENT, (event) => rerun((event as CustomEvent<string>).detail))
void refreshStatus()
// Instagram refused the session on some call: show the new state (and how to reconnect) at once.
onSessionRefused(() => void refreshStatus())
// An answer showing the session works again while the banner says it ended: the banner follows at once.
onSessionWorks(() => void refreshStatus())
// The first request that finds the server gone shows the banner (and the session as unknown) at
// once, not at the next poll; the first answer after that brings the status back.
onReachability((reachable, error) => {
	if (reachable) void refreshStatus()
	else renderStatusError(error, 'network_error', !hasToken())
})
setInterval(() => {
	if (!document.hidden) void refreshStatus()
}, STATUS_POLL_MS)
document.addEventListener('visibilitychange', () => {
	if (!document.hidden) void refreshStatus()
})
