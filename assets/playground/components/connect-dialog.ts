/**
 * The Connect account dialog: the user pastes the Cookie header of an instagram.com request, or
 * pastes or uploads a cookies.txt / JSON cookie export. The server keeps only instagram.com's
 * cookies, asks Instagram whether the session works, and stores it in its environment file; the
 * page never keeps the text (the dialog and its fields are removed when it closes).
 */

import { h } from '../../common/dom'
import { apiGet, apiRequest } from '../lib/api'
import { type ServerStatus, setStatus } from '../lib/state'
import { openDialog } from './dialogs'
import { showToast } from './toast'

interface Connected {
	session?: string
	username?: string | null
}

/** Fetches `/api/status` and shares it with the page. */
export async function refreshStatusNow(): Promise<void> {
	const result = await apiGet<ServerStatus>('/api/status')
	if (result.ok && result.envelope) setStatus(result.envelope.data)
}

/** Opens the dialog; resolves to true when an account was connected. */
export async function openConnectDialog(): Promise<boolean> {
	const result = await openDialog((_dialog, close) => {
		const textarea = h('textarea', {
			className: 'connect-cookies',
			attrs: {
				name: 'cookies',
				rows: 6,
				spellcheck: 'false',
				autocomplete: 'off',
				placeholder: 'sessionid=…; csrftoken=…; ds_user_id=…   or the content of cookies.txt',
				'aria-describedby': 'connect-help'
			}
		})
		const file = h('input', {
			attrs: { type: 'file', name: 'file', accept: '.txt,.json,text/plain,application/json' }
		})
		const error = h('p', { className: 'connect-error', attrs: { role: 'alert' } })
		error.hidden = true
		const submit = h('button', {
			className: 'button button-primary',
			text: 'Connect',
			attrs: { type: 'submit' }
		})
		const showError = (message: string) => {
			error.textContent = message
			error.hidden = false
		}
		const form = h(
			'form',
			{
				className: 'dialog-form connect-form',
				on: {
					submit: (event) => {
						event.preventDefault()
						void (async () => {
							const chosen = file.files?.[0]
							const text = textarea.value.trim() || (chosen ? await chosen.text() : '')
							if (!text.trim()) return showError('Paste the cookies or choose a file first.')
							submit.disabled = true
							submit.textContent = 'Checking with Instagram…'
							error.hidden = true
							const answer = await apiRequest<Connected>('POST', '/api/session', { cookies: text })
							submit.disabled = false
							submit.textContent = 'Connect'
							if (!answer.ok) return showError(answer.error ?? 'The account could not be connected.')
							close(`ok:${answer.envelope?.data?.username ?? ''}`)
						})()
					}
				}
			},
			h('h2', { className: 'dialog-title', text: 'Connect an Instagram account' }),
			h('p', {
				className: 'field-hint',
				attrs: { id: 'connect-help' },
				text: 'Log in to instagram.com in your browser, then copy the Cookie header of any instagram.com request (developer tools, Network tab), or export its cookies as cookies.txt or JSON with a cookie-export extension. Only instagram.com cookies are kept; Instagram is asked whether the session works before it is stored in the server’s .env file, readable only by its owner.'
			}),
			h(
				'label',
				{ className: 'field' },
				h('span', { className: 'field-label', text: 'Paste cookies' }),
				textarea
			),
			h(
				'label',
				{ className: 'field' },
				h('span', { className: 'field-label', text: 'Or upload a file' }),
				file
			),
			error,
			h(
				'div',
				{ className: 'dialog-actions' },
				h('button', {
					className: 'button',
					text: 'Cancel',
					attrs: { type: 'button' },
					on: { click: () => close('cancel') }
				}),
				submit
			)
		)
		queueMicrotask(() => textarea.focus())
		return [form]
	})
	if (!result.startsWith('ok:')) return false
	const username = result.slice(3)
	showToast(username ? `Connected as @${username}` : 'Account connected', 'success')
	await refreshStatusNow()
	return true
}

/** Asks the server to check the session with Instagram now, then refreshes the status. */
export async function checkSessionNow(): Promise<void> {
	const answer = await apiRequest<Connected>('POST', '/api/session/check')
	if (!answer.ok) showToast(answer.error ?? 'The session could not be checked.', 'error')
	else showToast(`Session ${answer.envelope?.data?.session ?? 'checked'}`, 'info')
	await refreshStatusNow()
}
