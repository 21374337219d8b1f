/**
 * A region rebuilt on a timer (the Dashboard refreshes every three seconds) must not take away
 * what the person was doing in it: the keyboard focus, how far a box was scrolled, which
 * `<details>` they opened or closed. `rebuildKeepingView` notes these by their position in the
 * region, rebuilds it, and puts them back on the elements at the same positions.
 */

/** The position of an element inside a region: the child index at each level, from the top. */
type Path = string

/** What the person changed in a region. */
interface ViewState {
	focus: Path | null
	scrolled: Map<Path, { left: number; top: number }>
	open: Path[]
	closed: Path[]
}

function pathOf(region: Element, element: Element): Path {
	const steps: number[] = []
	for (let node: Element = element; node !== region && node.parentElement; node = node.parentElement)
		steps.unshift(Array.prototype.indexOf.call(node.parentElement.children, node))
	return steps.join('/')
}

function elementAt(region: Element, path: Path): Element | null {
	let node: Element | null = region
	for (const step of path === '' ? [] : path.split('/')) node = node?.children[Number(step)] ?? null
	return node
}

function noteView(region: HTMLElement): ViewState {
	const active = document.activeElement
	const state: ViewState = {
		focus: active && active !== region && region.contains(active) ? pathOf(region, active) : null,
		scrolled: new Map(),
		open: [],
		closed: []
	}
	for (const element of region.querySelectorAll('*')) {
		if (element.scrollLeft !== 0 || element.scrollTop !== 0)
			state.scrolled.set(pathOf(region, element), { left: element.scrollLeft, top: element.scrollTop })
		if (element instanceof HTMLDetailsElement)
			(element.open ? state.open : state.closed).push(pathOf(region, element))
	}
	return state
}

function restoreView(region: HTMLElement, state: ViewState): void {
	// Outer nodes first: a tree node renders its children when it opens (on its toggle event).
	for (const path of state.open.toSorted((a, b) => a.length - b.length)) {
		const details = elementAt(region, path)
		if (details instanceof HTMLDetailsElement && !details.open) {
			details.open = true
			details.dispatchEvent(new Event('toggle'))
		}
	}
	for (const path of state.closed) {
		const details = elementAt(region, path)
		if (details instanceof HTMLDetailsElement && details.open) details.open = false
	}
	for (const [path, offset] of state.scrolled) {
		const element = elementAt(region, path)
		if (element) {
			element.scrollLeft = offset.left
			element.scrollTop = offset.top
		}
	}
	const focused = state.focus === null ? null : elementAt(region, state.focus)
	if (focused instanceof HTMLElement || focused instanceof SVGElement) focused.focus({ preventScroll: true })
}

/** Runs `rebuild` (which replaces the region's content) keeping focus, scrolling and open details. */
export function rebuildKeepingView(region: HTMLElement, rebuild: () => void): void {
	const state = noteView(region)
	rebuild()
	restoreView(region, state)
}
