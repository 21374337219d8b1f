import { type Child, h } from '../../common/dom'

/** What the shell needs from a panel. Panels are built on first visit and kept afterwards. */
export interface Panel {
	id: string
	title: string
	element: HTMLElement
	/** Called each time the panel becomes visible; `subroute` is the part after `#id/`. */
	show?(subroute: string | null): void
	/** Called when another panel becomes visible (stop polling here). */
	hide?(): void
}

/** A panel in the navigation: built lazily by `create`. */
export interface PanelEntry {
	id: string
	title: string
	group: 'Assistant' | 'Data' | 'Workspace' | 'Insights'
	create(): Panel
}

/**
 * A panel's section: its heading (the target of focus when the panel opens, named by the section)
 * and description, then `children`.
 */
export function panelFrame(
	id: string,
	title: string,
	description: string,
	...children: Child[]
): HTMLElement {
	return h(
		'section',
		{ className: 'panel', attrs: { 'aria-labelledby': `panel-title-${id}` } },
		h(
			'header',
			{ className: 'panel-header' },
			h('h1', { className: 'panel-title', text: title, attrs: { id: `panel-title-${id}`, tabindex: -1 } }),
			h('p', { className: 'panel-description', text: description })
		),
		...children
	)
}
