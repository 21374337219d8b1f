/**
 * The tabs that switch a result between its views (Table, Tree, Images, Raw), keyboard-operable as
 * the WAI-ARIA tabs pattern describes: only the selected tab is in the Tab order; Left and Right
 * move to the previous and next tab (wrapping), Home and End to the first and last. Moving selects
 * at once: every view is built from data already on the page.
 */

import { h } from '../../common/dom'

/** A tab: the value it selects and its label. */
export interface ViewTab<Name extends string> {
	name: Name
	label: string
}

let tablistCount = 0

/**
 * The index of the tab a key moves to from tab `at` of `count`: Left and Right to the previous and
 * next (wrapping), Home and End to the first and last; undefined for any other key. The data
 * panels' endpoint tabs move the same way.
 */
export function tabKeyTarget(key: string, at: number, count: number): number | undefined {
	const targets: Record<string, number> = {
		ArrowLeft: (at - 1 + count) % count,
		ArrowRight: (at + 1) % count,
		Home: 0,
		End: count - 1
	}
	return targets[key]
}

/**
 * A tablist over `views` with `selected` chosen, and the tab panel holding `content`. `select` is
 * called with the tab clicked or moved to (the caller redraws and then focuses the selected tab).
 */
export function viewTabs<Name extends string>(
	views: readonly ViewTab<Name>[],
	selected: Name,
	content: HTMLElement,
	select: (name: Name) => void
): { tablist: HTMLElement; panel: HTMLElement } {
	const id = `view-tabs-${++tablistCount}`
	const tabId = (name: Name) => `${id}-${name}`
	const tablist = h('div', {
		className: 'segmented',
		attrs: { role: 'tablist', 'aria-label': 'Result view' }
	})
	for (const view of views) {
		const isSelected = view.name === selected
		tablist.append(
			h('button', {
				className: 'segment',
				text: view.label,
				attrs: {
					id: tabId(view.name),
					type: 'button',
					role: 'tab',
					'aria-selected': String(isSelected),
					'aria-controls': `${id}-panel`,
					tabindex: isSelected ? 0 : -1
				},
				on: { click: () => select(view.name) }
			})
		)
	}
	tablist.addEventListener('keydown', (event) => {
		const target = tabKeyTarget(
			event.key,
			views.findIndex((view) => view.name === selected),
			views.length
		)
		if (target === undefined) return
		event.preventDefault()
		const view = views[target]
		if (view && view.name !== selected) select(view.name)
	})
	const panel = h(
		'div',
		{
			className: 'result-body',
			attrs: { id: `${id}-panel`, role: 'tabpanel', 'aria-labelledby': tabId(selected) }
		},
		content
	)
	return { tablist, panel }
}
