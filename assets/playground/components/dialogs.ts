/**
 * In-page modal dialogs (a name prompt and a confirmation) on the native `<dialog>` element:
 * focus moves into the dialog and back, Escape cancels, and nothing blocks the page the way
 * `window.prompt` does. Each call builds a fresh dialog and removes it when closed.
 */
import { h } from '../../common/dom'

/** Opens a modal built by `build`; resolves to the value passed to `close` ('' for Escape). */
export function openDialog(
	build: (dialog: HTMLDialogElement, close: (value: string) => void) => HTMLElement[]
): Promise<string> {
	const previousFocus = document.activeElement as HTMLElement | null
	const dialog = h('dialog', { className: 'dialog', attrs: { 'aria-modal': 'true' } })
	return new Promise((resolve) => {
		const close = (value: string): void => {
			dialog.returnValue = value
			dialog.close()
		}
		dialog.append(...build(dialog, close))
		// Screen readers announce the dialog by its title.
		const title = dialog.querySelector<HTMLElement>('.dialog-title')
		if (title) {
			title.id ||= `dialog-title-${Math.random().toString(36).slice(2)}`
			dialog.setAttribute('aria-labelledby', title.id)
		}
		dialog.addEventListener('close', () => {
			resolve(dialog.returnValue)
			dialog.remove()
			previousFocus?.focus?.()
		})
		document.body.append(dialog)
		dialog.showModal()
	})
}

/** Options for `promptForName`. */
export interface PromptOptions {
	title: string
	label: string
	value?: string
	hint?: string
	confirmLabel?: string
	pattern?: string
}

/** Asks for a name; resolves to the trimmed text, or null when cancelled. */
export async function promptForName(options: PromptOptions): Promise<string | null> {
	let input!: HTMLInputElement
	const result = await openDialog((_dialog, close) => {
		const hintId = `dialog-hint-${Math.random().toString(36).slice(2)}`
		input = h('input', {
			attrs: {
				type: 'text',
				name: 'name',
				required: true,
				maxlength: 100,
				autocomplete: 'off',
				spellcheck: 'false',
				pattern: options.pattern,
				// The browser shows it when the text does not match the pattern.
				title: options.pattern ? options.hint : undefined,
				'aria-describedby': options.hint ? hintId : undefined
			}
		})
		input.value = options.value ?? ''
		const form = h(
			'form',
			{
				className: 'dialog-form',
				on: {
					submit: (event) => {
						event.preventDefault()
						if (input.reportValidity()) close(`ok:${input.value.trim()}`)
					}
				}
			},
			h('h2', { className: 'dialog-title', text: options.title }),
			h('label', { className: 'field' }, h('span', { className: 'field-label', text: options.label }), input),
			options.hint ? h('p', { className: 'field-hint', text: options.hint, attrs: { id: hintId } }) : null,
			h(
				'div',
				{ className: 'dialog-actions' },
				h('button', {
					className: 'button',
					text: 'Cancel',
					attrs: { type: 'button' },
					on: { click: () => close('cancel') }
				}),
				h('button', {
					className: 'button button-primary',
					text: options.confirmLabel ?? 'OK',
					attrs: { type: 'submit' }
				})
			)
		)
		queueMicrotask(() => {
			input.focus()
			input.select()
		})
		return [form]
	})
	return result.startsWith('ok:') ? result.slice(3) : null
}

/** Options for `confirmAction`. */
export interface ConfirmOptions {
	title: string
	message: string
	confirmLabel: string
	danger?: boolean
}

/** Asks for confirmation; resolves to true only when the confirm button is pressed. */
export async function confirmAction(options: ConfirmOptions): Promise<boolean> {
	const result = await openDialog((_dialog, close) => {
		const confirm = h('button', {
			className: `button ${options.danger ? 'button-danger' : 'button-primary'}`,
			text: options.confirmLabel,
			attrs: { type: 'button' },
			on: { click: () => close('confirm') }
		})
		const cancel = h('button', {
			className: 'button',
			text: 'Cancel',
			attrs: { type: 'button' },
			on: { click: () => close('cancel') }
		})
		// Cancel gets focus first so Enter does not destroy anything by accident.
		queueMicrotask(() => cancel.focus())
		return [
			h('h2', { className: 'dialog-title', text: options.title }),
			h('p', { className: 'dialog-message', text: options.message }),
			h('div', { className: 'dialog-actions' }, cancel, confirm)
		]
	})
	return result === 'confirm'
}
