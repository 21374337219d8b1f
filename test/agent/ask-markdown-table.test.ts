/**
 * Tables in `smkit ask` on a terminal follow its width: a table that fits keeps its grid; a wider
 * one is printed as one record per row ("column: value" lines), wrapped like the text around it,
 * rather than as a grid the terminal would break up line by line.
 */
import { describe, expect, it } from 'bun:test'
import { renderMarkdown } from '../../src/agent/ask-markdown'

/** The text a person sees: the rendering without its escape codes. */
const visible = (text: string) => text.replace(/\u001b(?:\[[0-9;]*m|\]8;[^\u0007]*\u0007)/g, '')
const widest = (text: string) => Math.max(...text.split('\n').map((line) => Bun.stringWidth(line)))

const columns = ['Post', 'Caption', 'Likes', 'Comments', 'Posted', 'Type', 'Link']
const row = (index: number) => [
	String(index),
	`Sunset over the **bay** with friends, day ${index}`,
	`112${index}`,
	'34',
	`2024-05-0${index}`,
	'carousel',
	`https://example.com/p/DVUVYxwAOOz${index}`
]
/** A 7-column answer, about 150 columns wide as a grid. */
const wideTable = [
	'The posts:',
	'',
	`| ${columns.join(' | ')} |`,
	`|${columns.map(() => '---').join('|')}|`,
	...[1, 2, 3].map((index) => `| ${row(index).join(' | ')} |`),
	'',
	'That is all.'
].join('\n')

describe('a Markdown table on a terminal', () => {
	for (const colour of [false, true]) {
		it(`wider than the terminal: one "column: value" line per cell, within 60 columns (colour ${colour})`, () => {
			const shown = visible(renderMarkdown(wideTable, 60, colour))
			expect(widest(shown)).toBeLessThanOrEqual(60)
			expect(shown).not.toContain('│')
			for (const index of [1, 2, 3]) {
				const record = `Post: ${index}\nCaption: Sunset over the bay with friends, day ${index}\nLikes: 112${index}\nComments: 34\nPosted: 2024-05-0${index}\nType: carousel\nLink: https://example.com/p/DVUVYxwAOOz${index}`
				expect(shown).toContain(record)
			}
			// Records are apart from each other and from the text around them.
			expect(shown).toContain('The posts:\n\nPost: 1')
			expect(shown).toContain('DVUVYxwAOOz1\n\nPost: 2')
			expect(shown).toContain('DVUVYxwAOOz3\n\nThat is all.')
		})
	}

	it('a long cell wraps within the width, continuing on the next line', () => {
		const long = `| name | bio |\n|---|---|\n| luna | ${'travel photos from the mountains and the sea '.repeat(4).trim()} |`
		const shown = visible(renderMarkdown(long, 40, false))
		expect(widest(shown)).toBeLessThanOrEqual(40)
		expect(shown).toStartWith('name: luna\nbio: travel photos from the mountains\nand the sea')
		expect(shown.replace(/\n/g, ' ')).toContain('and the sea travel photos')
	})

	it('a header cell left empty is named by its column number', () => {
		const shown = visible(renderMarkdown(`| | likes |\n|---|---|\n| ${'x'.repeat(30)} | 3 |`, 20, false))
		// A word longer than the terminal is cut at its width, as in any paragraph.
		expect(widest(shown)).toBeLessThanOrEqual(20)
		expect(shown.replace(/\n/g, '')).toContain(`Column 1: ${'x'.repeat(30)}`)
		expect(shown).toEndWith('\nlikes: 3')
	})

	it('a table that fits keeps its grid, at the width given or at 100 columns on a wider terminal', () => {
		const small = '| name | likes |\n|---|---|\n| luna | 112 |'
		for (const width of [30, 100, 300]) {
			const shown = visible(renderMarkdown(small, width, true))
			expect(shown).toContain('│ name │ likes │')
			expect(shown).toContain('│ luna │ 112   │')
		}
		// 100 columns at most: the 7-column table is records on a 300-column terminal too.
		expect(widest(visible(renderMarkdown(wideTable, 300, false)))).toBeLessThanOrEqual(100)
	})
})
