import { describe, expect, it } from 'bun:test'
import { renderMarkdown } from '../../src/agent/ask-markdown'

/** The text a person sees: the rendering without its colour codes. */
const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`
const ITALIC = (text: string) => `\u001b[3m${text}\u001b[23m`
/** Code is yellow up to the next colour: its own end, or the colour of the block around it. */
const CODE = (text: string) => `\u001b[33m${text}\u001b[`

/** A line of inline styles as a model writes them, inside each block that can hold one. */
const INLINE = '**DVUVYxwAOOz** with *242* likes, `ig.users` and ~~old~~ [post](https://example.com/p/1)'
const PLACES: Record<string, string> = {
	paragraph: INLINE,
	'ordered list': `1. ${INLINE}\n2. second`,
	'bullet list': `- ${INLINE}\n- second`,
	'loose list': `- ${INLINE}\n\n- second`,
	'nested list': `- outer\n  - ${INLINE}`,
	'task list': `- [x] ${INLINE}`,
	table: `| post | likes |\n| --- | --- |\n| ${INLINE} | 242 |`,
	'block quote': `> ${INLINE}`,
	heading: `## ${INLINE}`
}

describe('renderMarkdown', () => {
	it('keeps every word of the answer, whatever width the terminal reports', () => {
		for (const columns of [undefined, 0, 5, 40, 300]) {
			const shown = visible(
				renderMarkdown('**luna.explorer** has 263 followers.\n\n- first\n- second', columns)
			)
			expect(shown).toContain('luna.explorer has 263 followers.')
			expect(shown).toContain('first')
			expect(shown).toContain('second')
		}
	})

	for (const [place, markdown] of Object.entries(PLACES)) {
		it(`styles bold, italic, code, strike-through and links inside a ${place}`, () => {
			const rendered = renderMarkdown(markdown, 200, true)
			expect(rendered).toContain(BOLD('DVUVYxwAOOz'))
			expect(rendered).toContain(ITALIC('242'))
			expect(rendered).toContain(CODE('ig.users'))
			expect(rendered).toContain('\u001b[9mold\u001b[29m')
			const shown = visible(rendered)
			expect(shown).toContain('DVUVYxwAOOz with 242 likes, ig.users and old post (https://example.com/p/1)')
			for (const syntax of ['**', '`', '~~', '](']) expect(shown).not.toContain(syntax)
			expect(shown).not.toMatch(/\*242\*/)
		})
	}

	it('keeps list numbers and bullets, and the table grid', () => {
		expect(visible(renderMarkdown(PLACES['ordered list'], 200, true))).toMatch(/^\s*1\. DVUVYxwAOOz/)
		expect(visible(renderMarkdown(PLACES['bullet list'], 200, true))).toMatch(/^\s*\* DVUVYxwAOOz/)
		expect(visible(renderMarkdown(PLACES.table, 200, true))).toContain('│ post')
	})

	it('without colour (NO_COLOR) prints the same words with no escape codes and no Markdown syntax', () => {
		for (const markdown of Object.values(PLACES)) {
			const plain = renderMarkdown(markdown, 200, false)
			expect(plain).toContain('DVUVYxwAOOz with 242 likes, ig.users and old')
			expect(plain).not.toContain('\u001b[1m')
			expect(plain).not.toContain('**')
		}
	})

	it('keeps an escaped asterisk as text', () => {
		expect(visible(renderMarkdown('- 5 \\* 3 = 15', 80, true))).toContain('5 * 3 = 15')
	})
})
