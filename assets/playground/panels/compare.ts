/**
 * Compare: two to five accounts side by side (`GET /api/compare`), one row per figure with the best
 * value of each ranked row marked.
 */

import { h, replaceChildren } from '../../common/dom'
import { errorBox } from '../components/error-box'
import { apiGet } from '../lib/api'
import { formatCount } from '../lib/format'
import { type Panel, panelFrame } from '../lib/panel'
import { field, numberText, postsInput, requestForm, textInput, usernamesOf } from './insights-common'

/** The part of `GET /api/compare` the table shows. */
interface Comparison {
	usernames: string[]
	rows: { metric: string; label: string; values: (number | null)[]; best: string | null }[]
	accounts: { username: string; full_name?: string; is_verified?: boolean }[]
}

const show = (value: number | null) =>
	value === null ? '—' : Number.isInteger(value) ? formatCount(value) : value.toLocaleString('en-US')

/** The comparison table: accounts as columns, figures as rows, the best cell marked. */
export function comparisonTable(comparison: Comparison): HTMLElement {
	const header = h(
		'tr',
		null,
		h('th', { text: 'Figure', attrs: { scope: 'col' } }),
		...comparison.accounts.map((account) =>
			h(
				'th',
				{ attrs: { scope: 'col' } },
				h('span', { className: 'compare-user', text: `@${account.username}` }),
				account.full_name ? h('small', { className: 'compare-name', text: account.full_name }) : null
			)
		)
	)
	const rows = comparison.rows.map((row) =>
		h(
			'tr',
			{ dataset: { metric: row.metric } },
			h('th', { text: row.label, attrs: { scope: 'row' } }),
			...row.values.map((value, index) => {
				const best = row.best !== null && row.best === comparison.usernames[index]
				return h(
					'td',
					{
						className: best ? 'cell-number compare-best' : 'cell-number',
						attrs: best ? { title: 'Best of the row' } : {}
					},
					show(value),
					best ? h('span', { className: 'compare-mark', text: ' ★', attrs: { 'aria-label': 'best' } }) : null
				)
			})
		)
	)
	return h(
		'div',
		{ className: 'table-scroll' },
		h('table', { className: 'data-table compare-table' }, h('thead', null, header), h('tbody', null, ...rows))
	)
}

/** Builds the Compare panel. */
export function createComparePanel(): Panel {
	const users = textInput('users', '', 'luna.explorer, mega.travel, xss.payload')
	const posts = postsInput()
	const { form, result } = requestForm({
		label: 'Compare accounts',
		fields: [
			field('Accounts', users, '2 to 5 usernames, separated by commas'),
			field('Posts', posts, 'recent posts per account (1-200)')
		],
		button: 'Compare',
		resultClass: 'compare-result',
		async run(area) {
			const names = usernamesOf(users.value)
			replaceChildren(
				area,
				h('p', {
					className: 'result-empty',
					text: `Comparing ${names.map((name) => `@${name}`).join(', ')}…`
				})
			)
			const answer = await apiGet<Comparison>(
				`/api/compare?users=${encodeURIComponent(names.join(','))}&posts=${encodeURIComponent(numberText(posts, '30'))}`
			)
			if (answer.ok && answer.envelope)
				replaceChildren(
					area,
					comparisonTable(answer.envelope.data),
					h('p', {
						className: 'field-hint',
						text: '★ marks the highest value of a row; Following and Posts analysed are not ranked.'
					})
				)
			else replaceChildren(area, errorBox(answer.code, answer.error))
		}
	})

	const element = panelFrame(
		'compare',
		'Compare',
		'Two to five accounts on the same figures, from their recent posts; the best value of each row is marked.',
		form,
		result
	)
	return { id: 'compare', title: 'Compare', element }
}
