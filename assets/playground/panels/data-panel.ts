/**
 * A data panel built from its catalog entry: one tab per endpoint, a labelled form per endpoint
 * (Enter submits; values kept while switching tabs), a live preview of the request line, and the
 * shared result view. `#users/search` opens a tab directly.
 */

import { h } from '../../common/dom'
import { createResultView } from '../components/result-view'
import { buildPath, withQuery } from '../lib/api'
import { type Panel, panelFrame } from '../lib/panel'
import { onStatus } from '../lib/state'
import type { ActionSpec, DataPanelSpec, FieldSpec } from './catalog'

/** A data panel that can also be driven from outside (History's re-run). */
export interface DataPanel extends Panel {
	/** Fills the form with `values` and runs it; `extra` adds query values the form has no field for (a cursor). */
	runWith(actionId: string, values: Record<string, string>, extra?: Record<string, string>): void
}

interface ActionForm {
	action: ActionSpec
	form: HTMLFormElement
	inputs: Map<string, HTMLInputElement>
	preview: HTMLElement
}

let fieldCounter = 0

function fieldControl(
	field: FieldSpec,
	onChange: () => void
): { wrapper: HTMLElement; input: HTMLInputElement } {
	const id = `field-${++fieldCounter}`
	const hintId = `${id}-hint`
	const input = h('input', {
		className: 'input',
		attrs: {
			id,
			name: field.name,
			type: field.kind === 'number' ? 'number' : field.kind === 'url' ? 'url' : 'text',
			required: field.required,
			min: field.min,
			max: field.max,
			inputmode: field.kind === 'number' ? 'numeric' : undefined,
			placeholder: field.placeholder,
			autocomplete: 'off',
			spellcheck: 'false',
			'aria-describedby': field.hint ? hintId : undefined
		},
		on: {
			input: () => {
				input.setCustomValidity('')
				onChange()
			}
		}
	})
	input.value = field.value ?? ''
	const presets = field.presets?.length
		? h(
				'div',
				{ className: 'presets' },
				h('span', { className: 'presets-label', text: 'Examples:' }),
				...field.presets.map((preset) =>
					h('button', {
						className: 'chip',
						text: preset.label,
						attrs: { type: 'button', title: `${field.label}: ${preset.value}` },
						on: {
							click: () => {
								input.value = preset.value
								input.setCustomValidity('')
								onChange()
								input.focus()
							}
						}
					})
				)
			)
		: null
	const wrapper = h(
		'div',
		{ className: 'field' },
		h('label', { className: 'field-label', text: field.label, attrs: { for: id } }),
		input,
		field.hint ? h('span', { className: 'field-hint', text: field.hint, attrs: { id: hintId } }) : null,
		presets
	)
	return { wrapper, input }
}

/**
 * Checks each field against the API's rule on its trimmed value, so a username of spaces is refused
 * here with the API's message rather than sent as an empty path segment. True when all pass.
 */
function checkRules(entry: ActionForm): boolean {
	for (const field of entry.action.fields) {
		const input = entry.inputs.get(field.name)
		if (!input || !field.rule) continue
		const value = input.value.trim()
		const broken = (value !== '' || input.value !== '') && !field.rule.pattern.test(value)
		input.setCustomValidity(broken ? field.rule.message : '')
	}
	return entry.form.reportValidity()
}

/** Actions whose id alone would not say what they return: their file names add the panel's id. */
const VAGUE_ACTIONS = new Set([
	'username',
	'id',
	'info',
	'full',
	'v2',
	'by-url',
	'user',
	'profile',
	'top',
	'me'
])

/**
 * What a result holds, for its CSV file name: the action and its subject, a demo preset by its
 * name (`followers-luna.explorer`, `comments-DVUVYxwAOOz`, `users-luna`).
 */
function exportName(panelId: string, entry: ActionForm): string {
	const { action } = entry
	const parts = [VAGUE_ACTIONS.has(action.id) ? `${panelId}-${action.id}` : action.id]
	for (const field of action.fields) {
		const value = entry.inputs.get(field.name)?.value.trim() ?? ''
		if (value === '' || field.kind === 'number' || field.kind === 'url') continue
		const preset = field.presets?.find((candidate) => candidate.value === value)
		parts.push(preset ? preset.label.replace(/\s*\(me\)$/, '') : value)
	}
	return parts.join('-')
}

function requestPath(entry: ActionForm): string {
	const pathValues: Record<string, string> = {}
	const query: Record<string, string> = {}
	for (const field of entry.action.fields) {
		const value = entry.inputs.get(field.name)?.value.trim() ?? ''
		if (field.in === 'path') pathValues[field.name] = value
		else query[field.name] = value
	}
	return buildPath(entry.action.path, pathValues, query)
}

/** Builds the panel for one catalog entry. */
export function createDataPanel(spec: DataPanelSpec): DataPanel {
	const result = createResultView({ save: true })
	const forms = new Map<string, ActionForm>()
	const tabs = h('div', {
		className: 'segmented action-tabs',
		attrs: { role: 'tablist', 'aria-label': `${spec.title} endpoints` }
	})
	const formSlot = h('div', { className: 'form-slot' })
	let active: ActionForm | null = null

	function buildForm(action: ActionSpec): ActionForm {
		const inputs = new Map<string, HTMLInputElement>()
		const preview = h('code', { className: 'request-preview' })
		const entry: ActionForm = {
			action,
			form: h('form', { className: 'action-form', attrs: { 'aria-label': action.label } }),
			inputs,
			preview
		}
		const updatePreview = (): void => {
			preview.textContent = `GET ${requestPath(entry)}`
		}
		const fields = h('div', { className: 'fields' })
		for (const field of action.fields) {
			const control = fieldControl(field, updatePreview)
			inputs.set(field.name, control.input)
			fields.append(control.wrapper)
		}
		const loginNote = h('span', { className: 'tag tag-warning login-note', text: 'needs login' })
		onStatus((status) => {
			loginNote.hidden = action.login === false || !status || status.logged_in !== false
		})
		entry.form.append(
			// A one-endpoint panel may describe itself in the same words: say them once, in the header.
			h(
				'p',
				{ className: 'action-description' },
				action.description === spec.description ? null : `${action.description} `,
				loginNote
			),
			action.fields.length ? fields : h('p', { className: 'field-hint', text: 'No parameters.' }),
			h(
				'div',
				{ className: 'form-actions' },
				h('button', { className: 'button button-primary', text: 'Run', attrs: { type: 'submit' } }),
				preview
			)
		)
		entry.form.addEventListener('submit', (event) => {
			event.preventDefault()
			if (!checkRules(entry)) return
			void result.run(requestPath(entry), exportName(spec.id, entry))
		})
		updatePreview()
		return entry
	}

	function select(actionId: string, focus = false): ActionForm {
		const action = spec.actions.find((candidate) => candidate.id === actionId) ?? spec.actions[0]
		let entry = forms.get(action.id)
		if (!entry) {
			entry = buildForm(action)
			forms.set(action.id, entry)
		}
		active = entry
		formSlot.replaceChildren(entry.form)
		for (const tab of tabs.children)
			tab.setAttribute('aria-selected', String((tab as HTMLElement).dataset.action === action.id))
		const wanted = `#${spec.id}/${action.id}`
		if (window.location.hash !== wanted && window.location.hash.startsWith(`#${spec.id}`)) {
			history.replaceState(null, '', wanted)
		}
		if (focus) (entry.inputs.values().next().value ?? entry.form.querySelector('button'))?.focus()
		return entry
	}

	for (const action of spec.actions) {
		tabs.append(
			h('button', {
				className: 'segment',
				text: action.label,
				dataset: { action: action.id },
				attrs: { type: 'button', role: 'tab', 'aria-selected': 'false' },
				on: { click: () => select(action.id) }
			})
		)
	}

	const element = panelFrame(
		spec.id,
		spec.title,
		spec.description,
		spec.actions.length > 1 ? tabs : null,
		formSlot,
		result.element
	)
	select(spec.actions[0].id)

	return {
		id: spec.id,
		title: spec.title,
		element,
		show(subroute) {
			if (subroute && subroute !== active?.action.id) select(subroute)
			else if (active) history.replaceState(null, '', `#${spec.id}/${active.action.id}`)
		},
		runWith(actionId, values, extra = {}) {
			const entry = select(actionId)
			for (const field of entry.action.fields) {
				const input = entry.inputs.get(field.name)
				// A query value the request did not send stays unsent (the API's default), whatever the form held.
				const value = values[field.name] ?? (field.in === 'query' ? '' : undefined)
				if (input && value !== undefined) {
					input.value = value
					input.dispatchEvent(new Event('input'))
				}
			}
			if (Object.keys(extra).length === 0) {
				entry.form.requestSubmit()
				return
			}
			// The same request as the history row, cursor included: the page it showed, not the first.
			if (!checkRules(entry)) return
			// The preview keeps showing what Run sends (the form's values); the result caption shows this request.
			void result.run(withQuery(requestPath(entry), extra), exportName(spec.id, entry))
		}
	}
}
