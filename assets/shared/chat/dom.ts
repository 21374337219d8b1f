/**
 * DOM building without HTML strings for the chat: text always reaches the page as text nodes, so
 * anything the model or Instagram wrote stays text. The only markup the chat inserts is the
 * sanitised Markdown (markdown.ts) and highlight.js output (escaped by highlight.js).
 */

/** A child `el()` accepts: nodes, text, or nothing. */
export type Child = Node | string | number | null | undefined | false

/** Element properties; attribute values are set with `setAttribute`, never as markup. */
export interface Props {
	className?: string
	text?: string
	attrs?: Record<string, string | number | boolean | undefined>
	on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void }
}

/** Creates an element with properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props | null = null,
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag)
	if (props?.className) element.className = props.className
	if (props?.text !== undefined) element.textContent = props.text
	for (const [name, value] of Object.entries(props?.attrs ?? {})) {
		if (value === undefined || value === false) continue
		// Event-handler attributes would be code.
		if (/^on/i.test(name)) throw new Error(`refusing to set the ${name} attribute`)
		element.setAttribute(name, value === true ? '' : String(value))
	}
	for (const [name, listener] of Object.entries(props?.on ?? {})) {
		element.addEventListener(name, listener as EventListener)
	}
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue
		element.append(child instanceof Node ? child : String(child))
	}
	return element
}

/** Seconds as `1.3 s`, tokens as `1,234 tokens`. */
export function formatMeta(steps: number, tokens: number, seconds: number): string {
	const stepText = `${steps} step${steps === 1 ? '' : 's'}`
	return `${stepText} · ${tokens.toLocaleString('en')} tokens · ${seconds.toFixed(1)} s`
}

/** Bytes as `512 B`, `3.4 KB`, `1.2 MB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
