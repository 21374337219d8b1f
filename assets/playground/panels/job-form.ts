/**
 * The Jobs panel's start form: what to collect, the target and an optional limit. A start that is
 * refused shows the server's message and the next step (the focus stays on "Start job"); a started
 * job is announced and handed to `onStarted`, which shows it and gives it the focus.
 */
import { h, replaceChildren } from '../../common/dom'
import { showToast } from '../components/toast'
import { whileBusy } from '../lib/focus'
import { JOB_KINDS, type JobKind, startJob } from '../lib/jobs'
import { requireName } from './insights-common'
import { startAdvice } from './job-advice'

/** The largest limit `POST /api/jobs` takes: a whole number of at most 15 digits. */
const MAX_LIMIT = 999_999_999_999_999

const TARGETS: Record<JobKind, { label: string; placeholder: string }> = {
	followers: { label: 'Username', placeholder: 'mega.travel' },
	following: { label: 'Username', placeholder: 'luna.explorer' },
	posts: { label: 'Username', placeholder: 'luna.explorer' },
	media: { label: 'Username', placeholder: 'luna.explorer' },
	tag: { label: 'Hashtag', placeholder: 'sunset' },
	comments: { label: 'Media pk or post URL', placeholder: '3842790443716764595' },
	likers: { label: 'Media pk or post URL', placeholder: '3842790443716764595' }
}

const KIND_LABELS: Record<JobKind, string> = {
	followers: 'Followers',
	following: 'Following',
	posts: 'Posts (a user’s feed)',
	media: 'Media files (downloads a user’s images and videos)',
	tag: 'Hashtag posts',
	comments: 'Comments of a post',
	likers: 'Likers of a post'
}

/** Builds the start form; `onStarted` runs with the new job's id after it has started. */
export function createJobForm(onStarted: (id: number) => Promise<void>): HTMLFormElement {
	const kind = h('select', { className: 'input', attrs: { id: 'job-kind', name: 'kind' } })
	for (const value of JOB_KINDS) kind.append(h('option', { text: KIND_LABELS[value], attrs: { value } }))
	const targetLabel = h('label', { className: 'field-label', attrs: { for: 'job-target' } })
	// Spaces alone are no target: refused in the browser, as Analytics does.
	const target = requireName(
		h('input', {
			className: 'input',
			attrs: { id: 'job-target', name: 'target', required: true, autocomplete: 'off', spellcheck: 'false' }
		})
	)
	const limit = h('input', {
		className: 'input',
		attrs: {
			id: 'job-limit',
			name: 'limit',
			type: 'number',
			min: 1,
			// The largest limit the API takes (15 digits): a larger one is refused here, before sending.
			max: MAX_LIMIT,
			inputmode: 'numeric',
			placeholder: 'all',
			'aria-describedby': 'job-limit-hint'
		}
	})
	const formError = h('div', { className: 'form-error', attrs: { role: 'alert' } })
	const startButton = h('button', {
		className: 'button button-primary',
		text: 'Start job',
		attrs: { type: 'submit' }
	})
	const syncKind = (): void => {
		const { label, placeholder } = TARGETS[kind.value as JobKind]
		targetLabel.textContent = label
		target.placeholder = placeholder
	}
	kind.addEventListener('change', syncKind)
	syncKind()
	const form = h(
		'form',
		{ className: 'action-form', attrs: { 'aria-label': 'Start a job' } },
		h(
			'div',
			{ className: 'fields' },
			h(
				'div',
				{ className: 'field' },
				h('label', { className: 'field-label', text: 'Collect', attrs: { for: 'job-kind' } }),
				kind
			),
			h('div', { className: 'field' }, targetLabel, target),
			h(
				'div',
				{ className: 'field' },
				h('label', { className: 'field-label', text: 'Limit (optional)', attrs: { for: 'job-limit' } }),
				limit,
				h('span', {
					className: 'field-hint',
					text: 'Stop after this many records; empty: the whole list.',
					attrs: { id: 'job-limit-hint' }
				})
			)
		),
		h('div', { className: 'form-actions' }, startButton),
		formError
	)
	// A start the browser refuses (a limit out of range) clears the last refusal: it is not this one's.
	form.addEventListener('invalid', () => formError.replaceChildren(), true)
	form.addEventListener('submit', (event) => {
		event.preventDefault()
		// One job per press: a double click, or Enter while the first start is on its way, starts no second job.
		if (startButton.getAttribute('aria-disabled') === 'true' || !form.reportValidity()) return
		whileBusy(startButton, submit)
	})

	async function submit(): Promise<void> {
		formError.replaceChildren()
		const count = limit.value.trim() === '' ? null : Number(limit.value)
		const result = await startJob(kind.value as JobKind, target.value.trim(), count)
		if (!result.ok || !result.envelope) {
			replaceChildren(
				formError,
				h(
					'div',
					{ className: 'error-box' },
					h(
						'div',
						{ className: 'error-title' },
						h('span', { className: 'tag tag-error', text: result.code ?? 'error' })
					),
					h('p', {
						className: 'error-text',
						text: `${result.error ?? 'The job did not start.'} ${startAdvice(result.code, result.error)}`.trim()
					})
				)
			)
			return
		}
		showToast(`Job ${result.envelope.data.id} started.`, 'success')
		await onStarted(result.envelope.data.id)
	}
	return form
}
