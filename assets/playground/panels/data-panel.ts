/**
 * A data panel built from its catalog entry: one tab per endpoint, a labelled form per endpoint
 * (Enter submits; values kept while switching tabs), a live preview of the request line, and the
 * shared result view. `#users/search` opens a tab directly.
 */

import { h } from '../../common/dom'
import { createResultView } from '../components/result-view'
import { tabKeyTarget } from '../components/view-tabs'
import { buildPath, withQuery } from '../lib/api'
import { type Panel, panelFrame } from '../lib/panel'
import { onStatus } from '../lib/state'
import type { ActionSpec, DataPanelSpec, FieldSpec } from './catalog'
import { fieldValue } from './catalog-fields'

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
		const value = fieldValue(field, input.value)
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
		const value = fieldValue(field, entry.inputs.get(field.name)?.value ?? '')
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
	// With several endpoints the tabs follow the tabs pattern as the result's view tabs do: only the
	// selected tab is in the Tab order, arrows, Home and End move and select, the form is the tab panel.
	const tabbed = spec.actions.length > 1
	const idPrefix = `endpoint-tabs-${spec.id}`
	const tabId = (actionId: string) => `${idPrefix}-${actionId}`
	const panelAttrs = tabbed ? { id: `${idPrefix}-panel`, role: 'tabpanel' } : {}
	const formSlot = h('div', { className: 'form-slot', attrs: panelAttrs })
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
		for (const tab of tabs.children) {
			const selected = (tab as HTMLElement).dataset.action === action.id
			tab.setAttribute('aria-selected', String(selected))
			tab.setAttribute('tabindex', selected ? '0' : '-1')
		}
		if (tabbed) formSlot.setAttribute('aria-labelledby', tabId(action.id))
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
				attrs: {
					id: tabId(action.id),
					type: 'button',
					role: 'tab',
					'aria-selected': 'false',
					'aria-controls': `${idPrefix}-panel`,
					tabindex: -1
				},
				on: { click: () => select(action.id) }
			})
		)
	}
	tabs.addEventListener('keydown', (event) => {
		const at = spec.actions.findIndex((action) => action.id === active?.action.id)
		const target = spec.actions[tabKeyTarget(event.key, at, spec.actions.length) ?? -1]
		if (!target) return
		event.preventDefault()
		select(target.id)
		tabs.querySelector<HTMLElement>(`[data-action="${target.id}"]`)?.focus()
	})

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
			if (!checkRules(entry)) return
			// The history row's request, cursor included (the page it showed); the preview keeps the form's.
			const path = Object.keys(extra).length > 0 ? withQuery(requestPath(entry), extra) : requestPath(entry)
			void result.run(path, exportName(spec.id, entry))
			// What asked for it (History's Re-run, a row's "Show all") is gone or redrawn: focus the result.
			result.element.focus()
		}
	}
}
