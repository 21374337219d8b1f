/**
 * The page frame: navigation built from the panel list, hash routing (`#users`, `#users/search`),
 * the mobile menu, and the status badges and banners fed by `/api/status`.
 */
import { h, replaceChildren } from './lib/dom'
import type { Panel, PanelEntry } from './lib/panel'
import { onStatus, type ServerStatus } from './lib/state'

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
		h('span', {
			className: `badge ${status.logged_in ? 'badge-ok' : 'badge-warning'}`,
			text: status.logged_in ? 'Logged in' : 'Not logged in'
		}),
		status.version ? h('span', { className: 'badge badge-quiet', text: `v${status.version}` }) : null
	)
	if (status.logged_in === false) {
		replaceChildren(
			banner,
			h('strong', { text: 'Not logged in. ' }),
			'Only the Public panel works. Add SESSION_ID, CSRF_TOKEN and DS_USER_ID to the .env file and restart, or start with ',
			h('code', { text: 'smkit playground --demo' }),
			' to try everything on simulated data.'
		)
		banner.hidden = false
	} else {
		banner.hidden = true
		banner.replaceChildren()
	}
}

/** Shows a banner for a status request that failed (server down, token missing). */
export function renderStatusError(error: string, code: string, tokenMissing: boolean): void {
	const banner = required<HTMLElement>('banner')
	replaceChildren(
		banner,
		h('strong', { text: 'Cannot reach the playground API. ' }),
		code === 'forbidden' && tokenMissing
			? 'This server needs an access token: open the address printed at start-up (it ends with ?token=…).'
			: `${error} (${code})`
	)
	banner.hidden = false
}
