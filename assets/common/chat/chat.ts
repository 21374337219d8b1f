/**
 * The chat component both UIs use (the agent web page and the playground's AI Chat panel). It
 * talks to `<basePath>/ask/stream`, `/history`, `/reset`, `/approve` (and `/parallel/stream` when
 * `parallel` is on), streams each question's steps into that question's own bubble, renders the
 * answer from sanitised Markdown, and shows approve/deny cards for the agent's actions.
 */
import './chat.css'
import './steps.css'
import './answer.css'
import { h } from '../dom'
import { ChatApi, isAgentEvent, type StreamEvent } from './api'
import { LogFollower } from './follow'
import { ParallelRun } from './parallel'
import { tasksForm } from './tasks-form'
import { AssistantTurn, type RestoredOutput, userBubble } from './turn'

/** Options of `mountChat`. */
export interface ChatOptions {
	/** API prefix: `/api` on the agent web server, `/api/ai` in the playground. */
	basePath: string
	/** Show the parallel-tasks form (the agent web server has `/api/parallel/stream`). */
	parallel?: boolean
	/** Example questions offered while the conversation is empty. */
	examples?: readonly string[]
	/** Called after "New conversation" emptied the server's conversation (not when it failed). */
	onReset?: () => void
	/** Called with the model an answer is made with, when the server names it (`--model auto`). */
	onModel?: (model: string) => void
	/** Called each time a question (or a parallel run) has ended, answered or not. */
	onAnswered?: () => void
}

/** A bubble a request streams into: a single answer or a parallel run. */
interface StreamView {
	handle(event: StreamEvent): void
	fail(message: string): void
	readonly done: boolean
	/** What to bring into view once it has ended. */
	readonly shown: { start: HTMLElement; bubble: HTMLElement }
}

/** A mounted chat. */
export interface MountedChat {
	element: HTMLElement
	/** Stops a running question (if any). */
	stop(): void
	/**
	 * The conversation was emptied elsewhere (another tab): stops a running question, which
	 * belonged to it, and shows the empty chat. The draft being typed stays.
	 */
	forget(): void
}

interface HistoryEntry {
	role: string
	content: string
	/** Tool outputs: false when the call failed, was denied or was stopped. */
	success?: boolean
}

const defaultExamples = [
	'How many followers does luna.explorer have?',
	'Show the 3 most liked recent posts of luna.explorer as a table',
	'Follow luna.explorer'
]

/** Renders the chat into `container` (its children are replaced). */
export function mountChat(container: HTMLElement, options: ChatOptions): MountedChat {
	const api = new ChatApi(options.basePath)
	const decide = (id: string, allow: boolean) => api.json('POST', '/approve', { id, allow })
	const log = h('div', {
		className: 'chat-log',
		attrs: { role: 'log', 'aria-live': 'off', 'aria-label': 'Conversation', tabindex: 0 }
	})
	const announcer = h('p', { className: 'chat-visually-hidden', attrs: { 'aria-live': 'polite' } })
	const input = h('textarea', {
		className: 'chat-input',
		attrs: {
			rows: 3,
			maxlength: 8000,
			placeholder: 'Ask about Instagram data… (Enter sends, Shift+Enter adds a line)',
			'aria-label': 'Your question'
		}
	})
	const send = h('button', { className: 'chat-button chat-send', text: 'Send', attrs: { type: 'submit' } })
	const stop = h('button', {
		className: 'chat-button chat-stop',
		text: 'Stop',
		attrs: { type: 'button', hidden: true }
	})
	const reset = h('button', {
		className: 'chat-button chat-reset',
		text: 'New conversation',
		attrs: { type: 'button' }
	})
	const composer = h(
		'form',
		{ className: 'chat-composer' },
		input,
		h('div', { className: 'chat-composer-actions' }, send, stop)
	)
	const tasks = options.parallel ? tasksForm((list) => runParallel(list)) : null
	const element = h(
		'div',
		{ className: 'smkit-chat' },
		h('div', { className: 'chat-toolbar' }, reset),
		log,
		announcer,
		composer,
		tasks?.element
	)
	container.replaceChildren(element)

	let running: AbortController | null = null
	const setBusy = (busy: boolean) => {
		send.disabled = busy
		tasks?.setBusy(busy)
		reset.disabled = busy
		stop.hidden = !busy
	}
	const append = (node: HTMLElement) => {
		log.querySelector('.chat-empty')?.remove()
		log.append(node)
		node.scrollIntoView({ block: 'end' })
	}
	const showEmpty = () => {
		const examples = (options.examples ?? defaultExamples).map((example) =>
			h('button', {
				className: 'chat-example',
				text: example,
				attrs: { type: 'button' },
				on: {
					click: () => {
						input.value = example
						input.focus()
					}
				}
			})
		)
		log.replaceChildren(
			h(
				'div',
				{ className: 'chat-empty' },
				h('p', { text: 'Ask a question in plain language. For example:' }),
				...examples
			)
		)
	}

	const follower = new LogFollower(log)
	/**
	 * Streams one request into `view` (a turn or a parallel run), the log following it (follow.ts).
	 * `refused`: the request ended without a single event (refused, unreachable, stopped at once).
	 */
	const streamInto = async (path: string, body: unknown, view: StreamView): Promise<{ refused: boolean }> => {
		running = new AbortController()
		setBusy(true)
		const ended = () => (view.done ? view.shown : null)
		let received = false
		const result = await api.stream(
			path,
			body,
			(event) => {
				received = true
				if (isAgentEvent(event) && event.type === 'status' && event.model) options.onModel?.(event.model)
				follower.around(() => view.handle(event), ended)
			},
			running.signal
		)
		if (!view.done)
			follower.around(
				() => view.fail(result.ok ? 'The answer stopped before it finished.' : (result.error ?? 'Failed')),
				ended
			)
		announcer.textContent = 'Answer ready'
		running = null
		setBusy(false)
		options.onAnswered?.()
		return { refused: !result.ok && !received }
	}

	const ask = async (message: string) => {
		const question = message.trim()
		if (!question || running) return
		input.value = ''
		append(userBubble(question))
		const turn = new AssistantTurn(decide)
		append(turn.element)
		await streamInto('/ask/stream', { message: question }, turn)
	}

	/** Runs checked tasks (tasks-form.ts); says whether the server refused them. */
	async function runParallel(list: string[]): Promise<{ refused: boolean }> {
		if (running) return { refused: true }
		append(userBubble(list.map((task, index) => `${index + 1}. ${task}`).join('\n')))
		const run = new ParallelRun(list, decide)
		append(run.element)
		return streamInto('/parallel/stream', { tasks: list }, run)
	}

	composer.addEventListener('submit', (event) => {
		event.preventDefault()
		void ask(input.value)
	})
	input.addEventListener('keydown', (event) => {
		// Enter sends; Shift+Enter (and Enter while composing with an input method) adds a line.
		if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
			event.preventDefault()
			void ask(input.value)
		}
	})
	stop.addEventListener('click', () => running?.abort())
	reset.addEventListener('click', async () => {
		const result = await api.json('POST', '/reset')
		if (result.ok) {
			showEmpty()
			announcer.textContent = 'New conversation started'
			options.onReset?.()
		} else {
			announcer.textContent = `Reset failed: ${result.error}`
		}
		input.focus()
	})

	showEmpty()
	void restoreHistory(api, log, append, decide)
	return {
		element,
		stop: () => running?.abort(),
		forget: () => {
			running?.abort()
			showEmpty()
			announcer.textContent = 'The conversation was reset in another tab'
		}
	}
}

/** Shows the server's conversation (after a reload): questions, tool outputs folded, answers. */
async function restoreHistory(
	api: ChatApi,
	log: HTMLElement,
	append: (node: HTMLElement) => void,
	decide: (id: string, allow: boolean) => ReturnType<ChatApi['json']>
): Promise<void> {
	const result = await api.json('GET', '/history')
	const entries: HistoryEntry[] = Array.isArray(result.body?.history)
		? result.body.history
		: Array.isArray(result.body?.data)
			? result.body.data
			: []
	// Something was asked meanwhile: the live bubbles already show it.
	if (!entries.length || !log.querySelector('.chat-empty')) return
	let answer = ''
	let tools: RestoredOutput[] = []
	let open = false
	const flush = () => {
		if (!open) return
		const turn = new AssistantTurn(decide)
		turn.restore(answer, tools)
		append(turn.element)
		answer = ''
		tools = []
		open = false
	}
	for (const entry of entries) {
		const content = typeof entry.content === 'string' ? entry.content : ''
		if (entry.role === 'user') {
			flush()
			append(userBubble(content))
			open = true
		} else if (entry.role === 'tool') {
			tools.push({ output: content, success: entry.success !== false })
		} else if (entry.role === 'assistant' && !/^\(called [\w, ]+\)$/.test(content)) {
			answer = content
		}
	}
	flush()
}
