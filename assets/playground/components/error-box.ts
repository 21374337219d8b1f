/**
 * The error box of a failed API call, as every panel shows it: the envelope's `code` as a tag,
 * then the message (announced: role alert).
 */
import { h } from '../../common/dom'

/** An error box with the envelope's code and message. */
export function errorBox(code: string | undefined, message: string | undefined): HTMLElement {
	return h(
		'div',
		{ className: 'error-box', attrs: { role: 'alert' } },
		h('span', { className: 'tag tag-error', text: code ?? 'error' }),
		h('p', { className: 'error-text', text: message ?? '' })
	)
}
