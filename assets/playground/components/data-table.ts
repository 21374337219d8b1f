/**
 * Tables for results. A list of records gets a sortable table: nested objects flattened one level
 * with dotted keys (`user.username`, as the CSV export does), deeper values as short JSON, the
 * columns of its kind first and the rest in a "Columns" menu (see table-columns.ts), times as
 * local dates with the raw value on hover, ids that never wrap, and pictures shown. A single object
 * gets a field/value table. On a phone each row becomes a card (styles/data.css). Header buttons
 * sort; `aria-sort` tells assistive technology.
 */
import { externalLink, h, safeLinkUrl } from '../../common/dom'
import { truncate } from '../lib/format'
import { dataImage } from '../lib/images'
import { columnMenu } from './column-menu'
import {
	chooseColumns,
	columnLabel,
	columnRole,
	defaultColumns,
	localTime,
	menuOrder,
	recordKind,
	visibleColumns,
	withDerivedColumns
} from './table-columns'

const MAX_COLUMNS = 60

type Row = Record<string, unknown>

/** Flattens a record one level deep with dotted keys. */
export function flattenRecord(record: unknown): Row {
	if (record === null || typeof record !== 'object' || Array.isArray(record)) return { value: record }
	const row: Row = {}
	for (const [key, value] of Object.entries(record as Row)) {
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			for (const [innerKey, innerValue] of Object.entries(value as Row))
				row[`${key}.${innerKey}`] = innerValue
		} else {
			row[key] = value
		}
	}
	return row
}

/** Column names: the union of keys in first-seen order, at most MAX_COLUMNS. */
export function columnsOf(rows: Row[]): string[] {
	const seen = new Set<string>()
	for (const row of rows) for (const key of Object.keys(row)) seen.add(key)
	return [...seen].slice(0, MAX_COLUMNS)
}

function compare(left: unknown, right: unknown): number {
	if (left === right) return 0
	if (left === undefined || left === null) return 1
	if (right === undefined || right === null) return -1
	if (typeof left === 'number' && typeof right === 'number') return left - right
	// Numeric strings (ids beyond 2^53) compare by length first, then text.
	if (typeof left === 'string' && typeof right === 'string' && /^\d+$/.test(left) && /^\d+$/.test(right)) {
		return left.length - right.length || (left < right ? -1 : 1)
	}
	return String(typeof left === 'object' ? JSON.stringify(left) : left).localeCompare(
		String(typeof right === 'object' ? JSON.stringify(right) : right),
		undefined,
		{ numeric: true }
	)
}

/**
 * A button in one column's cells that opens more about the row (a comment's replies): `label`
 * names it for a row, or is null where the row has nothing more.
 */
export interface CellAction {
	column: string
	label(row: Row): string | null
	run(row: Row): void
}

/** The cell of `action`'s column: the value, then the action's button when the row has one. */
function actionCell(action: CellAction, value: unknown, row: Row): HTMLTableCellElement {
	const td = cell(action.column, value, row)
	const label = action.label(row)
	if (label === null) return td
	td.append(
		' ',
		h('button', {
			className: 'link-button',
			text: label,
			attrs: { type: 'button' },
			on: { click: () => action.run(row) }
		})
	)
	return td
}

/** One cell; `data-label` names its column for the phone layout. */
function cell(column: string, value: unknown, row: Row, label = columnLabel(column)): HTMLTableCellElement {
	const role = columnRole(column)
	const td = h('td', { attrs: { 'data-label': label } })
	if (value === undefined || value === null) {
		td.className = 'cell-empty'
		return td
	}
	if (role === 'image' && typeof value === 'string') {
		const name = String(row.username ?? row['user.username'] ?? row.code ?? row.title ?? column)
		td.className = 'cell-image'
		td.append(dataImage(value, name, 'thumb thumb-small'))
		return td
	}
	const time = role === 'time' ? localTime(value) : null
	if (time) {
		td.className = 'cell-time'
		td.append(h('time', { text: time, attrs: { title: String(value) } }))
		return td
	}
	if (typeof value === 'number') {
		td.className = role === 'id' ? 'cell-id' : 'cell-number'
		td.textContent = String(value)
	} else if (typeof value === 'boolean') {
		td.className = `cell-boolean ${value ? 'is-true' : 'is-false'}`
		td.textContent = value ? 'yes' : 'no'
	} else if (typeof value === 'string') {
		td.className = role === 'id' ? 'cell-id' : role === 'text' ? 'cell-text' : ''
		const url = safeLinkUrl(value)
		// A post's derived link reads as its code; the full URL is the link's target and tooltip.
		const text = column === 'link' && typeof row.code === 'string' ? row.code : truncate(value, 60)
		if (url) {
			const link = externalLink(url, text)
			if (text !== value) link.title = value
			td.append(link)
		} else td.textContent = truncate(value, 300)
		if (value.length > 300) td.title = value
	} else {
		const text = JSON.stringify(value)
		td.className = 'cell-json'
		td.textContent = Array.isArray(value) ? `[${value.length}] ${truncate(text, 80)}` : truncate(text, 80)
		td.title = truncate(text, 2000)
	}
	return td
}

/**
 * The column a table is sorted by (null: the order of the data) and which way. The table changes it
 * in place when a header is pressed, so a caller that keeps the object and passes it to the next
 * table (the result view after "Load more") keeps the order the person chose.
 */
export interface TableSort {
	column: string | null
	direction: 1 | -1
}

/** `rows` with their indexes in the order `sort` gives (ties and no sort: the order of the data). */
function sortedRows(rows: Row[], sort: TableSort): { row: Row; index: number }[] {
	const ordered = rows.map((row, index) => ({ row, index }))
	if (sort.column === null) return ordered
	const { column, direction } = sort
	return ordered.sort(
		(left, right) => compare(left.row[column], right.row[column]) * direction || left.index - right.index
	)
}

/**
 * `records` in the order a table sorted by `sort` shows them, so what is exported follows what is
 * on screen (the same flattened and derived columns the table sorts by).
 */
export function inTableOrder<Item>(records: Item[], sort: TableSort): Item[] {
	if (sort.column === null) return records
	const flat = records.map(flattenRecord)
	const kind = recordKind(flat)
	const rows = flat.map((row) => withDerivedColumns(kind, row))
	return sortedRows(rows, sort).map(({ index }) => records[index])
}

/**
 * Builds a sortable table for a list of records, with the columns menu above it; `sort` is the
 * order it starts in and keeps up to date (see TableSort).
 */
export function dataTable(
	records: unknown[],
	action?: CellAction,
	sort: TableSort = { column: null, direction: 1 }
): HTMLElement {
	const flat = records.map(flattenRecord)
	const kind = recordKind(flat)
	const rows = flat.map((row) => withDerivedColumns(kind, row))
	const all = menuOrder(defaultColumns(kind, columnsOf(rows)), columnsOf(rows))
	let columns = visibleColumns(kind, all)
	const table = h('table', { className: 'data-table', dataset: kind ? { kind } : {} })
	const scroll = h(
		'div',
		{ className: 'table-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'Result table' } },
		table
	)

	function render(): void {
		const ordered = sortedRows(rows, sort)
		// A header button pressed from the keyboard is replaced below: its successor takes the focus.
		const focused = document.activeElement
		const focusedColumn =
			focused instanceof HTMLButtonElement && table.contains(focused)
				? (focused.closest('th')?.dataset.column ?? null)
				: null
		let refocus: HTMLButtonElement | null = null
		const numeric = new Set(
			columns.filter((column) => rows.every((row) => row[column] == null || typeof row[column] === 'number'))
		)
		const headerRow = h('tr', null, h('th', { className: 'cell-index', text: '#', attrs: { scope: 'col' } }))
		for (const column of columns) {
			const sorted = column === sort.column ? (sort.direction === 1 ? 'ascending' : 'descending') : 'none'
			const button = h('button', {
				className: 'sort-button',
				text: columnLabel(column),
				attrs: { type: 'button', title: `Sort by ${column}` },
				on: {
					click: () => {
						sort.direction = sort.column === column ? (sort.direction === 1 ? -1 : 1) : 1
						sort.column = column
						render()
					}
				}
			})
			if (column === focusedColumn) refocus = button
			const role = columnRole(column)
			const className = numeric.has(column) && role !== 'id' && role !== 'time' ? 'cell-number' : ''
			headerRow.append(
				h('th', { className, attrs: { scope: 'col', 'aria-sort': sorted, 'data-column': column } }, button)
			)
		}
		const body = h(
			'tbody',
			null,
			...ordered.map(({ row, index }) =>
				h(
					'tr',
					null,
					h('td', { className: 'cell-index', text: String(index + 1), attrs: { 'data-label': '#' } }),
					...columns.map((column) =>
						column === action?.column ? actionCell(action, row[column], row) : cell(column, row[column], row)
					)
				)
			)
		)
		table.replaceChildren(h('thead', null, headerRow), body)
		refocus?.focus()
	}

	render()
	// Known kinds and wide data get the menu; a small table of its own columns needs none.
	const tools =
		kind !== null || all.length > 8
			? h(
					'div',
					{ className: 'table-tools' },
					columnMenu(all, columns, (chosen) => {
						columns = chosen
						chooseColumns(kind, chosen)
						render()
					})
				)
			: null
	return h('div', { className: 'data-table-view' }, tools, scroll)
}

/** A single object as field/value rows (nested objects as dotted fields, never as extra columns). */
export function fieldTable(record: Record<string, unknown>): HTMLElement {
	const row = flattenRecord(record)
	const body = h(
		'tbody',
		null,
		...Object.entries(row).map(([field, value]) =>
			h('tr', null, h('th', { text: field, attrs: { scope: 'row' } }), cell(field, value, row, field))
		)
	)
	const table = h(
		'table',
		{ className: 'data-table field-table' },
		h(
			'thead',
			null,
			h(
				'tr',
				null,
				h('th', { text: 'field', attrs: { scope: 'col' } }),
				h('th', { text: 'value', attrs: { scope: 'col' } })
			)
		),
		body
	)
	return h(
		'div',
		{ className: 'table-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'Result fields' } },
		table
	)
}
