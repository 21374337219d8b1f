/**
 * DOM building without HTML strings. Every piece of text reaches the page through `textContent`
 * or a text node, so data from Instagram or the server (file names, captions) can never become
 * markup. URLs pass through `safeLinkUrl` or
 * `safeImageUrl` before they become an `href` or `src`.
 */

/** Something `h()` accepts as a child: nodes, text (escaped), or nothing. */
export type Child = Node | string | number | null | undefined | false

/** Properties `h()` understands; `attrs` values go through `setAttribute`, never markup. */
export interface Props {
	className?: string
	text?: string
	attrs?: Record<string, string | number | boolean | undefined>
	dataset?: Record<string, string>
	on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void }
}

/** Creates an HTML element with properties and children; strings become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props | null = null,
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag)
	if (props) applyProps(element, props)
	append(element, ...children)
	return element
}

const SVG_NS = 'http://www.w3.org/2000/svg'

/** Creates an SVG element (for the hand-drawn dashboard charts). */
export function svg<K extends keyof SVGElementTagNameMap>(
	tag: K,
	attrs: Record<string, string | number> = {},
	...children: Child[]
): SVGElementTagNameMap[K] {
	const element = document.createElementNS(SVG_NS, tag)
	for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value))
	append(element, ...children)
	return element
}

/** Appends children to a node; strings and numbers become text nodes. */
export function append(parent: Node, ...children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue
		parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)))
	}
}

/** Replaces all children of a node. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
	parent.replaceChildren()
	append(parent, ...children)
}

function applyProps(element: HTMLElement, props: Props): void {
	if (props.className) element.className = props.className
	if (props.text !== undefined) element.textContent = props.text
	for (const [name, value] of Object.entries(props.attrs ?? {})) {
		if (value === undefined || value === false) continue
		// Event-handler attributes would be code; they are never set from here.
		if (/^on/i.test(name)) throw new Error(`refusing to set the ${name} attribute`)
		element.setAttribute(name, value === true ? '' : String(value))
	}
	for (const [name, value] of Object.entries(props.dataset ?? {})) element.dataset[name] = value
	for (const [name, listener] of Object.entries(props.on ?? {})) {
		element.addEventListener(name, listener as EventListener)
	}
}

/** The URL if it is an absolute http(s) URL, else null (no `javascript:`, `data:` or relative links). */
export function safeLinkUrl(value: unknown): string | null {
	if (typeof value !== 'string' || value.length > 4096) return null
	try {
		const url = new URL(value)
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
	} catch {
		return null
	}
}

/** The URL if it may be an image source: http(s) or a `data:image/` URL, else null. */
export function safeImageUrl(value: unknown): string | null {
	if (typeof value === 'string' && /^data:image\/(png|jpe?g|gif|webp|avif);base64,/i.test(value)) return value
	return safeLinkUrl(value)
}

/** An external link that opens in a new tab without a referrer or opener. */
export function externalLink(url: string, label: string): HTMLAnchorElement {
	return h('a', {
		text: label,
		attrs: { href: url, target: '_blank', rel: 'noopener noreferrer nofollow' }
	})
}
