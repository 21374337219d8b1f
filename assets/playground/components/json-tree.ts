/**
 * A collapsible JSON tree built from `<details>` elements (keyboard-operable without extra code).
 * Children render the first time a node opens, so a thousand-item list costs nothing until looked
 * at. Every key and value is text; strings that are http(s) URLs become links.
 */
import { externalLink, h, safeLinkUrl } from '../../common/dom'

const pendingRenders = new WeakMap<HTMLDetailsElement, () => void>()

/** Options for `jsonTree`. */
export interface JsonTreeOptions {
	/** Levels open at first (default: as many as show about 150 lines). */
	expandDepth?: number
}

const AUTO_OPEN_LINES = 150

/** The deepest level that can open with at most `budget` lines shown (at least 1). */
export function autoExpandDepth(value: unknown, budget = AUTO_OPEN_LINES): number {
	let level: unknown[] = [value]
	let shown = 1
	let depth = 0
	while (level.length > 0) {
		const next: unknown[] = []
		for (const item of level) {
			if (item !== null && typeof item === 'object') next.push(...Object.values(item as object))
		}
		shown += next.length
		if (next.length === 0 || shown > budget) break
		depth++
		level = next
	}
	return Math.max(1, depth)
}

/** Builds the tree for a JSON value. */
export function jsonTree(value: unknown, options: JsonTreeOptions = {}): HTMLElement {
	const root = h('div', { className: 'json-tree' })
	root.append(node(null, value, 0, options.expandDepth ?? autoExpandDepth(value)))
	return root
}

/** Opens (rendering as needed) or closes every node of a tree, up to `limit` nodes. */
export function setTreeExpanded(root: HTMLElement, open: boolean, limit = 3000): void {
	if (!open) {
		for (const details of root.querySelectorAll('details')) details.open = false
		const first = root.querySelector('details')
		if (first) first.open = true
		return
	}
	let opened = 0
	let closed = [...root.querySelectorAll<HTMLDetailsElement>('details:not([open])')]
	while (closed.length > 0 && opened < limit) {
		for (const details of closed) {
			renderChildren(details)
			details.open = true
			opened++
		}
		closed = [...root.querySelectorAll<HTMLDetailsElement>('details:not([open])')]
	}
}

function renderChildren(details: HTMLDetailsElement): void {
	const render = pendingRenders.get(details)
	if (render) {
		pendingRenders.delete(details)
		render()
	}
}

function keyLabel(key: string | number | null): HTMLElement | null {
	if (key === null) return null
	return h('span', {
		className: typeof key === 'number' ? 'json-index' : 'json-key',
		text: typeof key === 'number' ? `${key}` : key
	})
}

function node(key: string | number | null, value: unknown, depth: number, expandDepth: number): HTMLElement {
	if (value === null || typeof value !== 'object') {
		return h(
			'div',
			{ className: 'json-leaf' },
			keyLabel(key),
			key === null ? null : h('span', { className: 'json-colon', text: ': ' }),
			leaf(value)
		)
	}
	const isArray = Array.isArray(value)
	const entries: [string | number, unknown][] = isArray
		? (value as unknown[]).map((item, index) => [index, item])
		: Object.entries(value as Record<string, unknown>)
	const summaryText = isArray ? `[${entries.length}]` : `{${entries.length}}`
	const details = h('details', { className: 'json-node' })
	const summary = h(
		'summary',
		null,
		keyLabel(key),
		key === null ? null : h('span', { className: 'json-colon', text: ': ' }),
		h('span', { className: 'json-meta', text: summaryText })
	)
	const body = h('div', { className: 'json-children' })
	details.append(summary, body)
	if (entries.length === 0) {
		details.classList.add('json-empty')
		return details
	}
	pendingRenders.set(details, () => {
		for (const [childKey, childValue] of entries)
			body.append(node(childKey, childValue, depth + 1, expandDepth))
	})
	details.addEventListener('toggle', () => {
		if (details.open) renderChildren(details)
	})
	if (depth < expandDepth) {
		renderChildren(details)
		details.open = true
	}
	return details
}

function leaf(value: unknown): HTMLElement {
	if (typeof value === 'string') {
		const url = safeLinkUrl(value)
		if (url) {
			const link = externalLink(url, JSON.stringify(value))
			link.className = 'json-string json-link'
			return link
		}
		return h('span', { className: 'json-string', text: JSON.stringify(value) })
	}
	if (typeof value === 'number') return h('span', { className: 'json-number', text: String(value) })
	if (typeof value === 'boolean') return h('span', { className: 'json-boolean', text: String(value) })
	return h('span', { className: 'json-null', text: 'null' })
}
