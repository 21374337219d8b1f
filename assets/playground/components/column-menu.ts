/** The "Columns" menu above a result table (data-table.ts): which columns it shows. */
import { h } from '../../common/dom'
import { columnLabel } from './table-columns'

/** The "Columns" menu: a checkbox per column; at least one stays checked. */
export function columnMenu(
	all: string[],
	shown: string[],
	onChange: (columns: string[]) => void
): HTMLElement {
	// The label's text runs the column's name and key together ("useruser.username"): each box is
	// named on its own, "user (user.username)".
	const boxes = all.map((column) =>
		h('input', {
			attrs: {
				type: 'checkbox',
				name: 'column',
				value: column,
				checked: shown.includes(column),
				'aria-label': columnLabel(column) === column ? column : `${columnLabel(column)} (${column})`
			}
		})
	)
	const list = h(
		'div',
		{ className: 'column-menu-list' },
		...all.map((column, index) =>
			h(
				'label',
				{ className: 'column-choice', attrs: { title: column } },
				boxes[index],
				` ${columnLabel(column)}`,
				columnLabel(column) !== column ? h('span', { className: 'column-raw', text: column }) : null
			)
		)
	)
	const summary = h('summary', { className: 'button button-small' })
	const count = () => {
		summary.textContent = `Columns (${shown.length} of ${all.length})`
	}
	count()
	list.addEventListener('change', () => {
		const checked = all.filter((_column, index) => boxes[index].checked)
		if (checked.length === 0) {
			for (const box of boxes) if (box.value === shown[0]) box.checked = true
			return
		}
		shown = checked
		count()
		onChange(checked)
	})
	const menu = h('details', { className: 'column-menu' }, summary, list)
	// The list floats over the table: Escape closes it (back on its button), and so does the focus
	// leaving it, so a keyboard user is never left with the list covering the rows they tab into.
	menu.addEventListener('keydown', (event) => {
		if (event.key !== 'Escape' || !menu.open) return
		event.preventDefault()
		menu.open = false
		summary.focus()
	})
	menu.addEventListener('focusout', (event) => {
		const next = event.relatedTarget
		if (next instanceof Node && !menu.contains(next)) menu.open = false
	})
	return menu
}
