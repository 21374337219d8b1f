import { describe, expect, it } from 'bun:test'
import { renderMarkdown } from '../../src/agent/ask-markdown'

/** The text a person sees: the rendering without its colour codes. */
const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

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

	it('drops the Markdown syntax itself', () => {
		expect(visible(renderMarkdown('**bold** and `code`', 80))).not.toContain('**')
	})
})
