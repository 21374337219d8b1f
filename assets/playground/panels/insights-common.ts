/**
 * Pieces the Watch, Analytics and Compare panels share: a labelled input, the Analytics and Compare
 * form with its result area, and a plain table.
 */
import { type Child, h } from '../../common/dom'

/** A labelled form field around `input`; the hint, if any, is the input's description. */
export function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
	const id = input.id || `field-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
	input.id = id
	if (hint) input.setAttribute('aria-describedby', `${id}-hint`)
	return h(
		'div',
		{ className: 'field' },
		h('label', { className: 'field-label', text: label, attrs: { for: id } }),
		input,
		hint ? h('span', { className: 'field-hint', text: hint, attrs: { id: `${id}-hint` } }) : null
	)
}

/** A text input. */
export function textInput(name: string, value = '', placeholder = ''): HTMLInputElement {
	const input = h('input', {
		className: 'input',
		attrs: { name, type: 'text', placeholder, autocomplete: 'off' }
	})
	input.value = value
	return input
}

/** Makes `input` required, counting spaces alone, or a lone "@" or "#", as empty. */
export function requireName(input: HTMLInputElement): HTMLInputElement {
	input.required = true
	input.addEventListener('input', () => {
		const blank = input.value !== '' && input.value.trim().replace(/^[@#]/, '') === ''
		input.setCustomValidity(blank ? 'Enter a name, not only spaces.' : '')
	})
	return input
}

/**
 * A number field's value as plain digits: the browser takes `1e1` for 10 in a number field, the API
 * only digits (docs/api-contract.md, "Data"); `fallback` when it is empty.
 */
export function numberText(input: HTMLInputElement, fallback: string): string {
	const value = input.valueAsNumber
	return Number.isFinite(value) ? String(value) : input.value.trim() || fallback
}

/** The "Posts" input of Analytics and Compare: how many recent posts to analyse (1-200, 30 by default). */
export function postsInput(): HTMLInputElement {
	const input = h('input', { className: 'input', attrs: { name: 'posts', type: 'number', min: 1, max: 200 } })
	input.value = '30'
	return input
}

/**
 * The form of a panel that runs one request (`run`) on submit and shows its answer in `result`, an
 * area that announces its changes and is `aria-busy` while the request runs. Only the last
 * submitted run is shown.
 */
export function requestForm(options: {
	label: string
	fields: HTMLElement[]
	button: string
	resultClass: string
	run: (result: HTMLElement) => Promise<void>
}): { form: HTMLFormElement; result: HTMLElement } {
	const result = h('div', {
		className: `result ${options.resultClass}`,
		attrs: { 'aria-live': 'polite', 'aria-busy': 'false' }
	})
	const form = h(
		'form',
		{ className: 'action-form', attrs: { 'aria-label': options.label } },
		h('div', { className: 'fields' }, ...options.fields),
		h(
			'div',
			{ className: 'form-actions' },
			h('button', { className: 'button button-primary', text: options.button, attrs: { type: 'submit' } })
		)
	)
	let latest = 0
	form.addEventListener('submit', async (event) => {
		event.preventDefault()
		// Each run draws into its own area; a newer run replaces it, so a slow earlier answer that
		// arrives last lands off screen instead of over the answer to what was asked last.
		const run = ++latest
		const area = h('div')
		result.replaceChildren(area)
		result.setAttribute('aria-busy', 'true')
		try {
			await options.run(area)
		} finally {
			if (run === latest) result.setAttribute('aria-busy', 'false')
		}
	})
	return { form, result }
}

/** A table with a header row; cells are nodes or text. */
export function simpleTable(className: string, header: string[], rows: Child[][]): HTMLElement {
	return h(
		'div',
		{ className: 'table-scroll' },
		h(
			'table',
			{ className: `data-table ${className}` },
			h(
				'thead',
				null,
				h('tr', null, ...header.map((label) => h('th', { text: label, attrs: { scope: 'col' } })))
			),
			h('tbody', null, ...rows.map((cells) => h('tr', null, ...cells.map((cell) => h('td', null, cell)))))
		)
	)
}

/** Usernames from a comma- or space-separated text, without @, lower-case, each once. */
export function usernamesOf(text: string): string[] {
	return [
		...new Set(
			text
				.split(/[\s,]+/)
				.map((name) => name.trim().replace(/^@/, '').toLowerCase())
				.filter((name) => name !== '')
		)
	]
}
