/**
 * Plain-text tables for the terminal: columns padded to their widest cell, numbers right-aligned.
 * Widths are what a terminal shows, not UTF-16 code units: a CJK character takes two columns, an
 * accent written as a combining mark none, an emoji two whatever its code units.
 */

/** An ISO time as a table shows it, `2026-03-01 09:00:00Z`; null stays null (shown as `-`). */
export function when(iso: string): string
export function when(iso: string | null): string | null
export function when(iso: string | null): string | null {
	return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : null
}

/** One table cell: text, a number (grouped with commas) or nothing. */
export type Cell = string | number | null | undefined

/** Line breaks, tabs and control characters (a caption's paragraphs, a hostile name's escapes). */
const BREAKS = /[\s\p{Cc}]+/gu

/** A cell's text on one line: a row stays one line, and no cell can send the terminal a control sequence. */
const show = (cell: Cell): string =>
	cell === null || cell === undefined
		? '-'
		: typeof cell === 'number'
			? cell.toLocaleString('en-US', { maximumFractionDigits: 3 })
			: cell.replace(BREAKS, ' ')

/**
 * The table as lines: a header, a rule, then the rows. Every cell, titles too, is one line without
 * control characters (a compared account's name in a title comes from Instagram). Columns of
 * numbers are right-aligned, and so are the columns listed in `rightAligned`.
 */
export function formatTable(
	header: readonly string[],
	rows: readonly (readonly Cell[])[],
	rightAligned: readonly number[] = []
): string {
	const titles = header.map(show)
	const texts = rows.map((row) => row.map(show))
	const numeric = header.map(
		(_, column) =>
			rightAligned.includes(column) ||
			rows.every(
				(row) => typeof row[column] === 'number' || row[column] === null || row[column] === undefined
			)
	)
	const widths = titles.map((title, column) =>
		Math.max(Bun.stringWidth(title), ...texts.map((row) => Bun.stringWidth(row[column] ?? '')))
	)
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, column) => {
				const padding = ' '.repeat((widths[column] as number) - Bun.stringWidth(cell))
				return numeric[column] ? padding + cell : cell + padding
			})
			.join('  ')
			.trimEnd()
	return [line(titles), widths.map((width) => '-'.repeat(width)).join('  '), ...texts.map(line)].join('\n')
}
