/**
 * The parallel-tasks form: one task per line. A list the server would refuse (more than 10 tasks,
 * a task longer than a question may be) is refused here, before anything is sent: the text stays
 * in the box and one message under it says what to change. A list the server refused all the
 * same (busy, unreachable) comes back into the box, so no task is lost.
 */
import { h } from '../dom'

/** Most tasks one run may carry: the server's `maxParallelTasks` (src/agent/parallel.ts). */
export const maxTasks = 10

/** Longest task: the server's `maxMessageChars` (src/agent/chat/requests.ts), as for a question. */
export const maxTaskChars = 8000

/** The non-empty lines of the box, trimmed: the tasks. */
export function tasksOf(text: string): string[] {
	return text
		.split('\n')
		.map((task) => task.trim())
		.filter(Boolean)
}

/** Why the server would refuse `tasks` (null: it would not), in the words the form shows. */
export function tasksProblem(tasks: readonly string[]): string | null {
	if (tasks.length > maxTasks) {
		const extra = tasks.length - maxTasks
		return `Too many tasks: ${tasks.length} (at most ${maxTasks}). Remove ${extra} line${extra === 1 ? '' : 's'}, or run the rest afterwards.`
	}
	const long = tasks.findIndex((task) => task.length > maxTaskChars)
	if (long >= 0) return `Task ${long + 1} is too long (at most ${maxTaskChars} characters).`
	return null
}

/** The form: its `details` element, and whether Run may be pressed. */
export interface TasksForm {
	element: HTMLElement
	setBusy(busy: boolean): void
}

/**
 * Builds the form. `run` sends the tasks and says whether the server refused them without running
 * any (then the text comes back, unless something new was typed meanwhile).
 */
export function tasksForm(run: (tasks: string[]) => Promise<{ refused: boolean }>): TasksForm {
	const input = h('textarea', {
		className: 'chat-input chat-tasks-input',
		attrs: {
			rows: 3,
			'aria-label': `Tasks, one per line (at most ${maxTasks})`,
			placeholder: `One task per line (at most ${maxTasks})`
		}
	})
	const button = h('button', { className: 'chat-button', text: 'Run in parallel', attrs: { type: 'submit' } })
	const problem = h('p', {
		className: 'chat-error chat-tasks-problem',
		attrs: { role: 'alert', hidden: true }
	})
	const form = h('form', { className: 'chat-tasks-form' }, input, button)
	const element = h(
		'details',
		{ className: 'chat-parallel' },
		h('summary', null, 'Parallel tasks'),
		form,
		problem
	)
	const say = (message: string | null) => {
		problem.textContent = message ?? ''
		problem.hidden = message === null
		if (message === null) input.removeAttribute('aria-invalid')
		else input.setAttribute('aria-invalid', 'true')
	}
	input.addEventListener('input', () => say(null))
	form.addEventListener('submit', async (event) => {
		event.preventDefault()
		if (button.disabled) return
		const text = input.value
		const tasks = tasksOf(text)
		if (!tasks.length) return
		const why = tasksProblem(tasks)
		say(why)
		if (why) {
			input.focus()
			return
		}
		input.value = ''
		const { refused } = await run(tasks)
		if (refused && input.value === '') input.value = text
	})
	return {
		element,
		setBusy: (busy) => {
			button.disabled = busy
		}
	}
}
