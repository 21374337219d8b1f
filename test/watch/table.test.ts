/**
 * The terminal tables of `smkit watch` and `smkit analytics`: one line per row whatever the cells
 * hold (a caption's line breaks, a hostile name's control characters), columns aligned.
 */
import { expect, test } from 'bun:test'
import { formatTable } from '../../src/watch/table'

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
