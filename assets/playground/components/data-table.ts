/**
 * A sortable table for arrays of records. Nested objects are flattened one level with dotted keys
 * (`user.username`, as the CSV export does); deeper values show as short JSON. Columns that hold
 * picture URLs show the picture. Header buttons sort; `aria-sort` tells assistive technology.
 */
import { externalLink, h, safeLinkUrl } from '../lib/dom'
import { truncate } from '../lib/format'
import { dataImage } from '../lib/images'

const IMAGE_COLUMN = /(^|\.)(profile_pic_url(_hd)?|thumbnail_url|display_url|image_url|thumbnail_src)$/
const MAX_COLUMNS = 40

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

function cell(column: string, value: unknown, row: Row): HTMLTableCellElement {
	const td = h('td')
	if (value === undefined || value === null) {
		td.className = 'cell-empty'
		return td
	}
	if (IMAGE_COLUMN.test(column) && typeof value === 'string') {
		const label = String(row.username ?? row['user.username'] ?? row.code ?? column)
		td.append(dataImage(value, label, 'thumb thumb-small'))
		return td
	}
	if (typeof value === 'number') {
		td.className = 'cell-number'
		td.textContent = String(value)
	} else if (typeof value === 'boolean') {
		td.className = `cell-boolean ${value ? 'is-true' : 'is-false'}`
		td.textContent = value ? 'yes' : 'no'
	} else if (typeof value === 'string') {
		const url = safeLinkUrl(value)
		if (url) td.append(externalLink(url, truncate(value, 60)))
		else td.textContent = truncate(value, 200)
		if (value.length > 200) td.title = value
	} else {
		const text = JSON.stringify(value)
		td.className = 'cell-json'
		td.textContent = Array.isArray(value) ? `[${value.length}] ${truncate(text, 80)}` : truncate(text, 80)
		td.title = truncate(text, 2000)
	}
	return td
}

/** Builds a sortable table for a list of records. */
export function dataTable(records: unknown[]): HTMLElement {
	const rows = records.map(flattenRecord)
	const columns = columnsOf(rows)
	let sortColumn: string | null = null
	let sortDirection: 1 | -1 = 1
	const tbody = h('tbody')
	const headerCells = new Map<string, HTMLTableCellElement>()

	function renderBody(): void {
		const ordered = rows.map((row, index) => ({ row, index }))
		if (sortColumn !== null) {
			const column = sortColumn
			ordered.sort(
				(left, right) =>
					compare(left.row[column], right.row[column]) * sortDirection || left.index - right.index
			)
		}
		tbody.replaceChildren(
			...ordered.map(({ row, index }) =>
				h(
					'tr',
					null,
					h('td', { className: 'cell-index', text: String(index + 1) }),
					...columns.map((column) => cell(column, row[column], row))
				)
			)
		)
		for (const [column, th] of headerCells) {
			th.setAttribute(
				'aria-sort',
				column === sortColumn ? (sortDirection === 1 ? 'ascending' : 'descending') : 'none'
			)
		}
	}

	const numeric = new Set(
		columns.filter((column) => rows.every((row) => row[column] == null || typeof row[column] === 'number'))
	)
	const headerRow = h('tr', null, h('th', { className: 'cell-index', text: '#', attrs: { scope: 'col' } }))
	for (const column of columns) {
		const button = h('button', {
			className: 'sort-button',
			text: column,
			attrs: { type: 'button', title: `Sort by ${column}` },
			on: {
				click: () => {
					sortDirection = sortColumn === column ? (sortDirection === 1 ? -1 : 1) : 1
					sortColumn = column
					renderBody()
				}
			}
		})
		const th = h(
			'th',
			{ className: numeric.has(column) ? 'cell-number' : '', attrs: { scope: 'col', 'aria-sort': 'none' } },
			button
		)
		headerCells.set(column, th)
		headerRow.append(th)
	}
	renderBody()
	const table = h('table', { className: 'data-table' }, h('thead', null, headerRow), tbody)
	return h(
		'div',
		{ className: 'table-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'Result table' } },
		table
	)
}
