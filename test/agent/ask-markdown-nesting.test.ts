/**
 * A deeply nested answer cannot make the terminal rendering explode: marked-terminal doubles a
 * list's reset codes at each level, so lists and quotes nested beyond `renderedNestingLimit` are
 * printed as the answer's plain text, and a rendering out of proportion to the answer is dropped.
 * Chalk (marked-terminal's colours) is forced on, as on a terminal; under a test it is off.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import chalk from 'chalk'
import { Marked } from 'marked'
import {
	nestingDepth,
	renderedLimit,
	renderedNestingLimit,
	renderMarkdown
} from '../../src/agent/ask-markdown'

const chalkLevel = chalk.level
beforeAll(() => {
	chalk.level = 1
})
afterAll(() => {
	chalk.level = chalkLevel
})

/** A list `depth` levels deep, one item per level, as `- item 3` (bullets) or `1. item 3`. */
const nested = {
	bullets: (depth: number) =>
		Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n'),
	numbers: (depth: number) =>
		Array.from({ length: depth }, (_, level) => `${'   '.repeat(level)}1. item ${level}`).join('\n'),
	// Each level a list item starting with a quote (the auditor's case that rendered the largest).
	quotes: (depth: number) =>
		Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- > item ${level}`).join('\n')
}

const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

describe('a deeply nested answer on a terminal', () => {
	for (const [kind, make] of Object.entries(nested)) {
		test(`${kind} 14 levels deep print as plain text, every item kept`, () => {
			const markdown = make(14)
			const shown = renderMarkdown(markdown, 100, true)
			// Rendered, this was about 850 times the answer (2 MB for 14 levels, 16 MB for 20).
			expect(shown.length).toBeLessThanOrEqual(markdown.length)
			expect(shown).toBe(markdown)
			for (let level = 0; level < 14; level++) expect(shown).toContain(`item ${level}`)
		})
	}

	test('a list as deep as the limit is still rendered; one level more is plain text', () => {
		const atLimit = renderMarkdown(nested.bullets(renderedNestingLimit), 100, true)
		expect(atLimit).toContain('\u001b[')
		expect(visible(atLimit)).toMatch(/^\s*\* item 0/)
		const beyond = nested.bullets(renderedNestingLimit + 1)
		expect(renderMarkdown(beyond, 100, true)).toBe(beyond)
	})

	test('the plain text keeps control characters escaped and no trailing blank lines', () => {
		const markdown = `${nested.bullets(10)} \u001b[2J\u009b\n\n\n`
		const shown = renderMarkdown(markdown, 100, true)
		expect(shown).not.toMatch(/[\u001b\u009b]/)
		expect(shown.endsWith('item 9 \\x1b[2J\\x9b')).toBe(true)
	})

	test('nesting counts lists and quotes, in each other, at any place in the answer', () => {
		const depth = (markdown: string) => nestingDepth(new Marked().lexer(markdown), 100)
		expect(depth('plain text\n\n| a |\n| - |\n| b |')).toBe(0)
		expect(depth('- a\n- b')).toBe(1)
		expect(depth(nested.bullets(5))).toBe(5)
		// Three lists, and the innermost item's quote.
		expect(depth(nested.quotes(3))).toBe(4)
		expect(depth('> > > quoted')).toBe(3)
		expect(depth(`intro\n\n${nested.numbers(4)}\n\nend\n\n- shallow`)).toBe(4)
		// The walk stops at the first level beyond its limit.
		expect(nestingDepth(new Marked().lexer(nested.bullets(40)), 6)).toBe(7)
	})

	test('a list six levels deep with many items stays within the rendering limit', () => {
		const head = Array.from({ length: 5 }, (_, level) => `${'  '.repeat(level)}- level ${level}`)
		const markdown = [...head, ...Array.from({ length: 300 }, () => `${'  '.repeat(5)}- x`)].join('\n')
		const shown = renderMarkdown(markdown, 100, true)
		expect(shown).toContain('\u001b[')
		expect(shown.length).toBeLessThan(renderedLimit(markdown.length))
	})
})
