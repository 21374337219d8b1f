/**
 * The page frame: navigation built from the panel list, hash routing (`#users`, `#users/search`),
 * the mobile menu, and the status badges and banners fed by `/api/status`: the session badge, and
 * a banner saying how to connect or reconnect when the session is missing, expired or challenged.
 */

import { type Child, h, replaceChildren } from '../common/dom'
import { checkSessionNow, openConnectDialog } from './components/connect-dialog'
import type { Panel, PanelEntry } from './lib/panel'
import { onStatus, type ServerStatus, type SessionState } from './lib/state'

/** The shell's handle for panels that drive other panels (History's re-run). */
export interface Shell {
	open(id: string, subroute?: string | null): Panel | null
}

function required<T extends HTMLElement>(id: string): T {
	const element = document.getElementById(id)
	if (!element) throw new Error(`page is missing #${id}`)
	return element as T
}

/** Wires navigation and routing for `entries`; `defaultId` opens when the hash names no panel. */
export function startShell(entries: PanelEntry[], defaultId: string): Shell {
	const nav = required<HTMLElement>('nav-list')
	const main = required<HTMLElement>('main')
	const sidebar = required<HTMLElement>('sidebar')
	const toggle = required<HTMLButtonElement>('nav-toggle')
	const built = new Map<string, Panel>()
	const links = new Map<string, HTMLAnchorElement>()
	let current: Panel | null = null

	const groups = new Map<string, HTMLElement>()
	for (const entry of entries) {
		let list = groups.get(entry.group)
		if (!list) {
			list = h('ul', { className: 'nav-group' })
			groups.set(entry.group, list)
			nav.append(h('li', null, h('span', { className: 'nav-heading', text: entry.group }), list))
		}
		const link = h('a', { className: 'nav-link', text: entry.title, attrs: { href: `#${entry.id}` } })
		links.set(entry.id, link)
		list.append(h('li', null, link))
	}

	function setMenuOpen(open: boolean): void {
		document.body.classList.toggle('menu-open', open)
		toggle.setAttribute('aria-expanded', String(open))
	}
	toggle.addEventListener('click', () => setMenuOpen(!document.body.classList.contains('menu-open')))
	document.addEventListener('keydown', (event) => {
		if (event.key === 'Escape' && document.body.classList.contains('menu-open')) {
			setMenuOpen(false)
			toggle.focus()
		}
	})
	sidebar.addEventListener('click', (event) => {
		if ((event.target as HTMLElement).closest('a')) setMenuOpen(false)
	})
	// A click on the dimmed page beside the open drawer closes it.
	document.addEventListener('click', (event) => {
		const target = event.target as Node
		if (
			document.body.classList.contains('menu-open') &&
			!sidebar.contains(target) &&
			!toggle.contains(target)
		) {
			setMenuOpen(false)
		}
	})

	function open(id: string, subroute: string | null = null, focus = false): Panel | null {
		const entry = entries.find((candidate) => candidate.id === id)
		if (!entry) return null
		let panel = built.get(id)
		if (!panel) {
			panel = entry.create()
			built.set(id, panel)
		}
		if (current !== panel) {
			current?.hide?.()
			current = panel
			replaceChildren(main, panel.element)
			document.title = `${entry.title} · smkit playground`
		}
		for (const [linkId, link] of links) {
			if (linkId === id) link.setAttribute('aria-current', 'page')
			else link.removeAttribute('aria-current')
		}
		if (window.location.hash.slice(1).split('/')[0] !== id) history.replaceState(null, '', `#${id}`)
		panel.show?.(subroute)
		if (focus) panel.element.querySelector<HTMLElement>('.panel-title')?.focus()
		return panel
	}

	function route(focus: boolean): void {
		const [id = '', subroute = null] = decodeURIComponent(window.location.hash.slice(1)).split('/')
		if (!open(id, subroute, focus)) open(defaultId)
	}
	window.addEventListener('hashchange', () => route(true))
	route(false)

	const skip = document.querySelector<HTMLAnchorElement>('.skip-link')
	skip?.addEventListener('click', (event) => {
		event.preventDefault()
		main.focus()
	})

	onStatus(renderStatus)
	return { open: (id, subroute = null) => open(id, subroute, false) }
}

/** The session badge: what Instagram last said (older servers report only `logged_in`). */
function sessionBadge(status: ServerStatus): HTMLElement {
	const session = status.session ?? (status.logged_in ? 'unchecked' : 'none')
	const checked = status.session_checked_at
		? ` (checked ${new Date(status.session_checked_at).toLocaleTimeString()})`
		: ''
	const badges: Record<SessionState, [string, string, string]> = {
		valid: [
			'badge-ok',
			status.username ? `@${status.username}` : 'Session valid',
			`Instagram accepts the session${checked}`
		],
		unchecked: ['badge-quiet', 'Session not checked', 'Credentials are set; Instagram has not answered yet'],
		expired: ['badge-error', 'Session expired', `Instagram answered login_required${checked}`],
		challenge: ['badge-warning', 'Challenge required', `Instagram asks for a challenge${checked}`],
		none: ['badge-warning', 'Not logged in', 'No Instagram session: only public data']
	}
	const [tone, text, title] = badges[session]
	return h('span', {
		className: `badge badge-session ${tone}`,
		text,
		attrs: { title, 'data-session': session }
	})
}

function connectButton(label: string): HTMLElement {
	return h('button', {
		className: 'button button-small',
		text: label,
		attrs: { type: 'button' },
		on: { click: () => void openConnectDialog() }
	})
}

/** The banner's text for a session that needs the user, or null when it works. */
function sessionBanner(status: ServerStatus): Child[] | null {
	const session = status.session ?? (status.logged_in ? 'unchecked' : 'none')
	const login = h('code', { text: 'smkit login --cookies cookies.txt' })
	if (session === 'none')
		return [
			h('strong', { text: 'Not logged in. ' }),
			'Without a session only the Public panel can read Instagram. Connect an account with your browser’s instagram.com cookies, or run ',
			login,
			' and restart, or start with ',
			h('code', { text: 'smkit playground --demo' }),
			' to try everything on simulated data. ',
			status.demo ? null : connectButton('Connect account')
		]
	if (session === 'expired')
		return [
			h('strong', { text: 'Instagram session expired. ' }),
			'Instagram answered login_required, so logged-in panels fail. To reconnect, log in to instagram.com in your browser, export its cookies (Cookie header, cookies.txt or JSON), then reconnect here or run ',
			login,
			'. ',
			status.demo ? null : connectButton('Reconnect account')
		]
	if (session === 'challenge')
		return [
			h('strong', { text: 'Instagram asks for a challenge. ' }),
			'Open instagram.com in your browser and complete it, then check again (or reconnect with fresh cookies). ',
			h('button', {
				className: 'button button-small',
				text: 'Check again',
				attrs: { type: 'button' },
				on: { click: () => void checkSessionNow() }
			}),
			' ',
			status.demo ? null : connectButton('Reconnect account')
		]
	return null
}

function renderStatus(status: ServerStatus | null): void {
	const badges = required<HTMLElement>('badges')
	const banner = required<HTMLElement>('banner')
	if (!status) return
	replaceChildren(
		badges,
		status.demo
			? h('span', {
					className: 'badge badge-demo',
					text: 'Demo data',
					attrs: { title: 'Data comes from the built-in simulated Instagram' }
				})
			: null,
		sessionBadge(status),
		status.demo || status.session === undefined ? null : connectButton('Connect account'),
		status.version ? h('span', { className: 'badge badge-quiet', text: `v${status.version}` }) : null
	)
	const message = sessionBanner(status)
	if (message) {
		replaceChildren(banner, ...message)
		banner.classList.toggle('banner-error', status.session === 'expired')
		banner.hidden = false
	} else {
		banner.hidden = true
		banner.classList.remove('banner-error')
		banner.replaceChildren()
	}
}

/**
 * Shows a banner for a request that failed (server down, token missing): a status poll, or the
 * first request of any panel that found the server gone (`network_error`). While the server does
 * not answer, the session badge says the session is unknown; the next status that arrives draws
 * both again as before. The same message again leaves the banner as it is (it is a live region).
 */
export function renderStatusError(error: string, code: string, tokenMissing: boolean): void {
	const banner = required<HTMLElement>('banner')
	const content = [
		h('strong', { text: 'Cannot reach the playground API. ' }),
		code === 'forbidden' && tokenMissing
			? 'This server needs an access token: open the address printed at start-up (it ends with ?token=…).'
			: `${error} (${code})`
	]
	if (code === 'network_error') markSessionUnknown()
	const text = content.map((part) => (typeof part === 'string' ? part : part.textContent)).join('')
	if (!banner.hidden && banner.textContent === text) return
	replaceChildren(banner, ...content)
	banner.hidden = false
}

/** The session badge while the server does not answer: what Instagram thinks of the session is unknown. */
function markSessionUnknown(): void {
	const badges = required<HTMLElement>('badges')
	const unknown = h('span', {
		className: 'badge badge-session badge-quiet',
		text: 'Session unknown',
		attrs: {
			title: 'The playground server does not answer: the session is shown again once it does',
			'data-session': 'unknown'
		}
	})
	const shown = badges.querySelector('.badge-session')
	if (shown?.getAttribute('data-session') === 'unknown') return
	if (shown) shown.replaceWith(unknown)
	else badges.append(unknown)
}
