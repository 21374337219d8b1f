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
