/**
 * `smkit ask -i`: a prompt loop over one conversation. `exit`, `quit` and `/exit` end it and are
 * never sent to the model; `/reset`, `/history` and `/help` work. Ctrl-C cancels
 * the running ask; a second Ctrl-C exits (code 130). Lines are queued, so piped input works too.
 */
import { createInterface } from 'node:readline'
import { clip, terminalText } from '../cli-error'
import type { Agent } from './agent'
import type { LinePrompt } from './ask-approver'
import { LiveView, paint, printResponse } from './ask-terminal'

/** Reads lines one at a time; a cancelled read gives its line to the next reader, none is lost. */
export class LineReader {
	private readonly buffered: string[] = []
	private waiter?: (line: string | null) => void
	private closed = false
	readonly lines: ReturnType<typeof createInterface>
	readonly terminal: boolean

	constructor(onInterrupt: () => void) {
		this.terminal = Boolean(process.stdin.isTTY)
		this.lines = createInterface({ input: process.stdin, output: process.stdout, terminal: this.terminal })
		this.lines.on('line', (line) => {
			const waiter = this.waiter
			this.waiter = undefined
			if (waiter) waiter(line)
			else this.buffered.push(line)
		})
		this.lines.on('close', () => {
			this.closed = true
			this.waiter?.(null)
			this.waiter = undefined
		})
		// On a terminal readline turns Ctrl-C into this event instead of a process signal.
		this.lines.on('SIGINT', onInterrupt)
	}

	/** The next line, or null at end of input or when `signal` fires. */
	next(promptText: string, signal?: AbortSignal): Promise<string | null> {
		const line = this.buffered.shift()
		if (line !== undefined) return Promise.resolve(line)
		if (this.closed || signal?.aborted) return Promise.resolve(null)
		if (this.terminal) {
			this.lines.setPrompt(promptText)
			this.lines.prompt()
		}
		return new Promise((resolve) => {
			const onAbort = () => {
				if (this.waiter === settle) this.waiter = undefined
				resolve(null)
			}
			const settle = (value: string | null) => {
				signal?.removeEventListener('abort', onAbort)
				resolve(value)
			}
			this.waiter = settle
			signal?.addEventListener('abort', onAbort, { once: true })
		})
	}

	/**
	 * Prompt function for permission questions (terminal only). The answer must be typed after the
	 * question is shown: lines typed before it (an Enter pressed while the agent was thinking, a
	 * "y" typed ahead) are dropped, neither taken as the answer nor kept as the next question, and
	 * so is a line typed but not entered yet.
	 */
	prompt: LinePrompt = (question, signal) => {
		const dropped = this.buffered.splice(0).filter((line) => line.trim()).length
		// Typed but not entered: forgotten without redrawing (the question is drawn next).
		if (this.lines.line) Object.assign(this.lines, { line: '', cursor: 0 })
		if (dropped)
			process.stderr.write(
				`${paint('dim', `(ignored ${dropped === 1 ? 'a line' : `${dropped} lines`} typed before this question)`)}\n`
			)
		return this.next(question, signal)
	}

	close(): void {
		this.lines.close()
	}
}

const exitWords = new Set(['exit', 'quit', '/exit', '/quit', '/q'])
const helpText = `Commands:
  /help      show this help
  /history   show the conversation
  /reset     start a new conversation (forgets remembered approvals)
  exit, quit, /exit   leave (Ctrl-C cancels a running ask; press it twice to leave)`

/** Runs the loop until exit; returns the exit code (0, or 130 after a double Ctrl-C). */
export async function runInteractive(options: {
	agent: Agent
	reader: LineReader
	quiet: boolean
	/** Runs on the built-in simulated Instagram (`--demo`): the header says so. */
	demo?: boolean
	/** Forgets the terminal approver's "always" answers on /reset. */
	resetApprovals: () => void
	/** Called by the reader's interrupt hook; lets ask.ts route Ctrl-C here. */
	bindInterrupt: (handler: () => void) => void
}): Promise<number> {
	const { agent, reader } = options
	let running: AbortController | undefined
	let view: LiveView | undefined
	let interrupts = 0
	let finish: ((code: number) => void) | undefined
	const finished = new Promise<number>((resolve) => {
		finish = resolve
	})
	options.bindInterrupt(() => {
		interrupts++
		if (interrupts >= 2) {
			running?.abort()
			return finish?.(130)
		}
		if (running) {
			running.abort()
			view?.pause()
			process.stderr.write(`\n${paint('yellow', 'Cancelling... (Ctrl-C again to leave)')}\n`)
		} else {
			process.stderr.write(`\n${paint('dim', '(Ctrl-C again to leave, or type exit)')}\n`)
			if (reader.terminal) reader.lines.prompt()
		}
	})
	if (!options.quiet) {
		const info = agent.describe()
		process.stderr.write(
			`${paint('bold', '✻ smkit agent')}  ${info.label} │ ${info.model} │ permission ${agent.permission}` +
				`${options.demo ? ` │ ${paint('yellow', 'demo data (simulated Instagram)')}` : ''}\n` +
				`${paint('dim', 'Type /help for commands, exit to leave.')}\n`
		)
	}
	const loop = async (): Promise<number> => {
		for (;;) {
			const line = await reader.next(paint('cyan', '❯ ', process.stdout))
			if (line === null) return 0
			const input = line.trim()
			if (!input) continue
			interrupts = 0
			const command = input.toLowerCase()
			if (exitWords.has(command)) return 0
			if (command === '/help' || command === '/h' || command === '/?') {
				process.stdout.write(`${helpText}\n`)
				continue
			}
			if (command === '/reset' || command === '/new') {
				agent.reset()
				options.resetApprovals()
				process.stdout.write('Conversation cleared.\n')
				continue
			}
			if (command === '/history') {
				const history = agent.getHistory()
				if (!history.length) process.stdout.write('(no messages yet)\n')
				for (const entry of history) {
					const text = terminalText(entry.content.replace(/\s+/g, ' '))
					process.stdout.write(`${paint('bold', entry.role.padEnd(9), process.stdout)} ${clip(text, 120)}\n`)
				}
				continue
			}
			if (input.startsWith('/')) {
				process.stdout.write(`Unknown command: ${input}. Type /help for available commands.\n`)
				continue
			}
			running = new AbortController()
			const current = new LiveView({ enabled: !options.quiet, personAsked: reader.terminal })
			view = current
			const response = await agent.ask(input, {
				signal: running.signal,
				onEvent: (event) => current.handle(event)
			})
			running = undefined
			interrupts = 0
			await printResponse(response, { json: false, quiet: options.quiet })
		}
	}
	return Promise.race([loop(), finished])
}
