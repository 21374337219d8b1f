/**
 * The agent's answers are Markdown written by a model that reads untrusted Instagram text, so they
 * are treated as hostile (a `javascript:` link must never become clickable).
 * marked turns Markdown into HTML with raw HTML shown as text and images shown as links (no request
 * to another origin); DOMPurify then keeps only Markdown's own tags, drops every attribute but a few,
 * removes links that are not absolute http(s) URLs, and opens the rest in a new tab with
 * `rel="noopener noreferrer"`. Code blocks get highlighting and a copy button; table cells break
 * lines at spaces only (`keepWordsWhole`).
 */
import DOMPurify from 'dompurify'
import { Marked, type Tokens } from 'marked'
import { h } from '../dom'
import { enhanceCodeBlock } from './code'

const escapeHtml = (text: string): string =>
	text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/** An absolute http(s) URL, or null. */
export function safeHttpUrl(value: string | null | undefined): string | null {
	if (!value) return null
	try {
		const url = new URL(value)
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
	} catch {
		return null
	}
}

const markdown = new Marked({
	gfm: true,
	breaks: false,
	renderer: {
		// Raw HTML in an answer is shown as the text it is.
		html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
		// An image would be a request to another origin: offer it as a link instead.
		image: ({ href, text }: Tokens.Image) => {
			const url = safeHttpUrl(href)
			const label = escapeHtml(text || 'image')
			return url ? `<a href="${escapeHtml(url)}">🖼 ${label}</a>` : label
		}
	}
})

// A private instance, so these hooks never affect other users of DOMPurify on the page.
const purify = DOMPurify(window)
purify.addHook('afterSanitizeAttributes', (node) => {
	// Classes only as marked writes them (a code block's language), so an answer cannot borrow the UI's look.
	const className = node.getAttribute('class')
	if (className !== null && !(node.nodeName === 'CODE' && /^language-[\w+#.-]{1,30}$/.test(className))) {
		node.removeAttribute('class')
	}
	if (node.nodeName !== 'A') return
	const url = safeHttpUrl(node.getAttribute('href'))
	if (!url) {
		node.removeAttribute('href')
		return
	}
	node.setAttribute('href', url)
	node.setAttribute('target', '_blank')
	node.setAttribute('rel', 'noopener noreferrer')
})

const sanitizeOptions = {
	ALLOWED_TAGS: [
		'a',
		'blockquote',
		'br',
		'code',
		'del',
		'em',
		'h1',
		'h2',
		'h3',
		'h4',
		'h5',
		'h6',
		'hr',
		'li',
		'ol',
		'p',
		'pre',
		'strong',
		'table',
		'tbody',
		'td',
		'th',
		'thead',
		'tr',
		'ul'
	],
	ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
	ALLOWED_URI_REGEXP: /^https?:\/\//i,
	RETURN_DOM_FRAGMENT: true as const
}

/** A run of non-space characters holding a dash or a slash, after which a browser may break a line. */
const breakableWord = /(\S*[\p{Pd}/]\S*)/u

/**
 * Table cells break lines at spaces only: each word a browser could break after a hyphen or a
 * slash (`2024-05-01`, `a/b`) is kept whole in a `span.chat-word`, so a table too wide for the
 * bubble scrolls sideways rather than splitting its dates and addresses (answer.css).
 */
export function keepWordsWhole(cell: Element): void {
	const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
	const texts: Text[] = []
	for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text)
	for (const text of texts) {
		const parts = text.data.split(breakableWord)
		if (parts.length === 1) continue
		// split() with a capture group: the words are at the odd indexes, the text between at the even.
		text.replaceWith(
			...parts.map((part, index) => (index % 2 ? h('span', { className: 'chat-word', text: part }) : part))
		)
	}
}

/** Renders Markdown into a sanitised element (`div.chat-markdown`). */
export function renderMarkdown(text: string): HTMLElement {
	const container = h('div', { className: 'chat-markdown' })
	const html = markdown.parse(text, { async: false }) as string
	container.append(purify.sanitize(html, sanitizeOptions))
	for (const code of container.querySelectorAll('pre > code')) {
		const language = /language-(\S+)/.exec(code.className)?.[1]
		enhanceCodeBlock(code as HTMLElement, language)
	}
	for (const cell of container.querySelectorAll('th, td')) keepWordsWhole(cell)
	return container
}
