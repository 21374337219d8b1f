/**
 * The terminal tables of `smkit watch` and `smkit analytics`: one line per row whatever the cells
 * hold (a caption's line breaks, a hostile name's control characters), columns aligned.
 */
import { expect, test } from 'bun:test'
import { clip } from '../../src/cli-error'
import { formatTable } from '../../src/server/table'

test('a cell with line breaks, tabs or control characters stays on its row', () => {
	const table = formatTable(
		['post', 'caption'],
		[
			['a', 'Can we go back already? 🏔️\n\n#sunset #bo'],
			['b', 'tab\there\r\nand \u001b[31mred\u001b[0m'],
			['c', 'plain']
		]
	)
	const lines = table.split('\n')
	expect(lines).toHaveLength(5)
	expect(lines[2]).toBe('a     Can we go back already? 🏔️ #sunset #bo')
	expect(lines[3]).toBe('b     tab here and [31mred [0m')
	expect(table).not.toContain('\u001b')
	expect(lines[4]).toBe('c     plain')
})

test('numbers are grouped and right-aligned; missing cells show a dash', () => {
	expect(
		formatTable(
			['name', 'count'],
			[
				['x', 1234],
				['longer', null]
			]
		).split('\n')
	).toEqual(['name    count', '------  -----', 'x       1,234', 'longer      -'])
})

test('columns line up on the terminal with wide, combining and emoji characters in the names', () => {
	const names = ['李明', '佐藤 花子', 'Ольга Петрова', 'e\u0301tienne', '🏔️ peak', '👨‍👩‍👧 family', 'plain']
	const lines = formatTable(
		['full name', 'pk'],
		names.map((name, index) => [name, String(index)])
	).split('\n')
	// The pk column starts at the same terminal column on every line.
	const starts = lines.slice(2).map((line) => Bun.stringWidth(line.slice(0, line.lastIndexOf(' ') + 1)))
	expect(new Set(starts).size).toBe(1)
	expect(starts[0]).toBe(Bun.stringWidth(lines[0]?.slice(0, lines[0].indexOf('pk')) ?? ''))
})

test('clip cuts by terminal columns between whole characters, marking the cut', () => {
	expect(clip('short', 40)).toBe('short')
	// 39 letters and an emoji: slice(0, 40) kept half the emoji's surrogate pair.
	const caption = `${'a'.repeat(39)}🌅 and more`
	expect(clip(caption, 40)).toBe(`${'a'.repeat(39)}…`)
	expect(clip('🌅🌅🌅🌅', 5)).toBe('🌅🌅…')
	expect(clip('東京タワーの夜景', 7)).toBe('東京タ…')
	expect(clip('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…')
	for (const text of [clip(caption, 40), clip('🌅🌅🌅🌅', 5)]) expect(text).not.toMatch(/\p{Cs}/u)
})
