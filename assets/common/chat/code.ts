/**
 * Code in the chat: JavaScript highlighted by highlight.js (the core plus the one language the
 * agent writes, to keep the bundle small) and a copy button. highlight.js escapes the code it
 * returns, so its output is the only HTML string set here.
 */
import hljs from 'highlight.js/lib/core'
import javascript from 'highlight.js/lib/languages/javascript'
import { h } from '../dom'

hljs.registerLanguage('javascript', javascript)

const javascriptNames = new Set(['javascript', 'js', 'mjs', 'ts', 'typescript', 'json'])

/** Copies text, falling back to a hidden textarea where the Clipboard API is unavailable (http, tests). */
async function copyText(text: string): Promise<boolean> {
	try {
		await navigator.clipboard.writeText(text)
		return true
	} catch {
		const area = h('textarea', {
			className: 'chat-copy-buffer',
			attrs: { readonly: true, 'aria-hidden': 'true' }
		})
		area.value = text
		document.body.append(area)
		area.select()
		const copied = document.execCommand('copy')
		area.remove()
		return copied
	}
}

/** A button that copies `text()` and says so for a moment. */
export function copyButton(text: () => string, label = 'Copy code'): HTMLButtonElement {
	const button = h('button', {
		className: 'chat-copy',
		text: 'Copy',
		attrs: { type: 'button', 'aria-label': label }
	})
	button.addEventListener('click', async () => {
		const copied = await copyText(text())
		button.textContent = copied ? 'Copied' : 'Copy failed'
		setTimeout(() => {
			button.textContent = 'Copy'
		}, 1500)
	})
	return button
}

/** The line above a code block: its caption (if any) and the copy button, so nothing covers the code. */
function codeBar(source: string, caption?: string): HTMLElement {
	return h(
		'div',
		{ className: 'chat-code-bar' },
		h('span', { className: 'chat-code-caption', text: caption ?? '' }),
		copyButton(() => source)
	)
}

/** Highlights a `<code>` element in place (JavaScript only; other languages stay plain text). */
export function highlightCode(code: HTMLElement, language = 'javascript'): void {
	if (!javascriptNames.has(language.toLowerCase())) return
	const source = code.textContent ?? ''
	code.innerHTML = hljs.highlight(source, { language: 'javascript', ignoreIllegals: true }).value
	code.classList.add('hljs')
}

/** Wraps an existing `<pre><code>` in a code block with a copy button, highlighting it. */
export function enhanceCodeBlock(code: HTMLElement, language?: string): void {
	const pre = code.parentElement
	if (!pre) return
	const source = code.textContent ?? ''
	if (language) highlightCode(code, language)
	const block = h('div', { className: 'chat-code' })
	pre.replaceWith(block)
	block.append(codeBar(source), pre)
}

/** A new highlighted JavaScript block with a copy button. */
export function codeBlock(source: string, caption?: string): HTMLElement {
	const code = h('code', { className: 'language-javascript', text: source })
	highlightCode(code)
	return h('div', { className: 'chat-code' }, codeBar(source, caption), h('pre', null, code))
}
