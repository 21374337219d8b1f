/**
 * Short status messages in a polite live region (announced by screen readers), removed after a
 * few seconds. Text only.
 */
import { h } from '../../common/dom'

let region: HTMLElement | null = null

function toastRegion(): HTMLElement {
	if (!region?.isConnected) {
		region = h('div', { className: 'toasts', attrs: { role: 'status', 'aria-live': 'polite' } })
		document.body.append(region)
	}
	return region
}

/** Shows a message; `kind` colours it. */
export function showToast(message: string, kind: 'info' | 'success' | 'error' = 'info'): void {
	const toast = h('div', { className: `toast toast-${kind}`, text: message })
	toastRegion().append(toast)
	setTimeout(() => toast.remove(), kind === 'error' ? 8000 : 4000)
}
