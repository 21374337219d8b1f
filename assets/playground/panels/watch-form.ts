/**
 * The Watch panel's form to add a watch: an account or a #hashtag, the interval and, for an
 * account, whether to store its complete follower list. A refusal shows the server's message; an
 * account Instagram does not know asks first whether to add it anyway (a typo is the usual cause);
 * an added watch is announced and handed to `onAdded`, which gives it the focus. A refusal leaves
 * the focus where it was.
 */

import { h } from '../../common/dom'
import { confirmAction } from '../components/dialogs'
import { showToast } from '../components/toast'
import { apiRequest } from '../lib/api'
import { whileBusy } from '../lib/focus'
import { field, requireName, textInput } from './insights-common'
import type { Watch } from './watch-model'

/** Builds the add form; `onAdded` runs with the new watch's id once the server stored it (resolved: shown). */
export function createWatchForm(onAdded: (id: number) => Promise<void>): HTMLFormElement {
	const target = requireName(textInput('target', '', 'luna.explorer or #sunset'))
	const every = h(
		'select',
		{ className: 'input', attrs: { name: 'every' } },
		...['1h', '6h', '12h', '1d', '7d'].map((value) => h('option', { text: value, attrs: { value } }))
	)
	every.value = '1d'
	const followers = h('input', { attrs: { type: 'checkbox', name: 'followers', id: 'watch-followers' } })
	followers.checked = true
	const addButton = h('button', {
		className: 'button button-primary',
		text: 'Add watch',
		attrs: { type: 'submit' }
	})

	const form = h(
		'form',
		{ className: 'action-form', attrs: { 'aria-label': 'Add a watch' } },
		h(
			'div',
			{ className: 'fields' },
			field('Account or #hashtag', target),
			field('Every', every),
			h(
				'label',
				{ className: 'field checkbox-field', attrs: { for: 'watch-followers' } },
				followers,
				' Store the complete follower list (accounts; needed for gained/lost)'
			)
		),
		h('div', { className: 'form-actions' }, addButton)
	)
	form.addEventListener('submit', (event) => {
		event.preventDefault()
		// One watch per press: a double click does not add it twice (the second would be refused). Busy
		// until the watch is stored and listed, not through its first run (watch.ts runs it meanwhile).
		whileBusy(addButton, add)
	})

	async function add(): Promise<void> {
		const text = target.value.trim()
		const body = text.startsWith('#')
			? { hashtag: text.slice(1), every: every.value }
			: { username: text.replace(/^@/, ''), every: every.value, followers: followers.checked }
		let answer = await apiRequest<Watch>('POST', '/api/watches', body)
		if (answer.code === 'not_found' && 'username' in body) {
			const anyway = await confirmAction({
				title: `No account @${body.username}`,
				message:
					'Instagram knows no account by this name: check the spelling. Added anyway, the watch fails at each run until the account exists.',
				confirmLabel: 'Add anyway'
			})
			if (!anyway) return
			answer = await apiRequest<Watch>('POST', '/api/watches', { ...body, check: false })
		}
		if (!answer.ok || !answer.envelope) {
			showToast(`Could not add the watch: ${answer.error} (${answer.code})`, 'error')
			return
		}
		target.value = ''
		showToast(answer.envelope.message ?? 'Done', 'success')
		await onAdded(answer.envelope.data.id)
	}

	return form
}
