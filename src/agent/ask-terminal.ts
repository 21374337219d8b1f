/**
 * What `smkit ask` shows on a terminal: a spinner and the live steps (code shown as it runs) on
 * stderr, the answer rendered from Markdown on stdout, the files it saved and a footer
 * "N steps · X tokens · Y.Ys". Off a terminal it prints plain text; `--quiet` prints only the
 * answer. NO_COLOR (any value but '', no-color.org) leaves out every escape code. The answer's own
 * control characters are shown as `\x1b`-style text wherever it goes: a file or a pipe is read on
 * a terminal later (`cat`), where an escape sequence in it would still run.
 */
import { styleText } from 'node:util'
import { clip, jsonText, terminalText } from '../cli-error'
import type { AgentEvent, AskResponse, SavedFile } from './events'
import { deniedNotice } from './permissions'

type Style = Parameters<typeof styleText>[0]

/** Whether NO_COLOR asks for no colour: set to anything but the empty string (no-color.org). */
export function noColour(): boolean {
	return Boolean(process.env.NO_COLOR)
}

/** Colours only when the stream is a terminal that wants them. */
export function paint(style: Style, text: string, stream: NodeJS.WriteStream = process.stderr): string {
	if (!stream.isTTY || noColour()) return text
	return styleText(style, text, { validateStream: false })
}

/** "812 bytes", "1.2 KB", "10 MB": 1 KB is 1,024 bytes, as in the `saveFile` limits (file-quota.ts). */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`
	const [size, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB']
	return `${Math.round(size * 10) / 10} ${unit}`
}

/** "Saved output/report.csv (1.2 KB)": the path relative to the working directory, as typed there. */
export function savedLine(file: SavedFile): string {
	return `Saved ${terminalText(file.file)} (${formatSize(file.size)})`
}

/** "3 steps · 1,234 tokens · 4.2s" */
export function formatFooter(response: Pick<AskResponse, 'steps' | 'tokens' | 'duration'>): string {
	const steps = `${response.steps} step${response.steps === 1 ? '' : 's'}`
	return `${steps} · ${response.tokens.toLocaleString('en-US')} tokens · ${response.duration.toFixed(1)}s`
}

function firstLines(text: string, lines: number, width = 160): string {
	const all = text.split('\n')
	const shown = all.slice(0, lines).map((line) => (line.length > width ? `${line.slice(0, width)}…` : line))
	if (all.length > lines) shown.push(`… ${all.length - lines} more lines`)
	return shown.join('\n')
}

function indent(text: string): string {
	return text
		.split('\n')
		.map((line) => `  ${line}`)
		.join('\n')
}

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * A one-line spinner on a terminal stream. Hand-rolled because spinner libraries install their own
 * SIGINT handler that exits the process, which would break "Ctrl-C cancels the running ask".
 */
class Spinner {
	private timer?: ReturnType<typeof setInterval>
	private frame = 0
	private text = ''

	constructor(private readonly stream: NodeJS.WriteStream) {}

	start(text: string): void {
		this.text = text
		if (!this.timer) {
			this.timer = setInterval(() => this.render(), 80)
			// A forgotten spinner must not keep the process alive.
			this.timer.unref()
		}
		this.render()
	}

	stop(): void {
		if (!this.timer) return
		clearInterval(this.timer)
		this.timer = undefined
		this.stream.write(this.clearLine())
	}

	/** Back to the start of an empty line: erase-line, or spaces over the spinner under NO_COLOR. */
	private clearLine(): string {
		return noColour() ? `\r${' '.repeat(this.width() + 2)}\r` : '\r\x1b[2K'
	}

	private width(): number {
		return Math.max(20, (this.stream.columns ?? 80) - 3)
	}

	private render(): void {
		const width = this.width()
		const text = this.text.length > width ? `${this.text.slice(0, width - 1)}…` : this.text
		this.stream.write(
			`${this.clearLine()}${paint('cyan', frames[this.frame++ % frames.length], this.stream)} ${text}`
		)
	}
}

/** Shows an ask's events live on stderr (spinner on a terminal, plain lines otherwise). */
export class LiveView {
	private readonly stream = process.stderr
	private readonly spinner = new Spinner(process.stderr)
	private readonly enabled: boolean
	private readonly prefix: string
	/** Code the person just saw in a permission prompt: not printed a second time. */
	private shownCode?: string

	/** Whether a person is asked to approve actions (false: no terminal, each denial already said why). */
	private readonly personAsked: boolean

	/**
	 * `enabled` false shows nothing (quiet, json). `prefix` tags lines of parallel tasks.
	 * `personAsked` false (no terminal to ask): a denial is not shown as the person's own decision.
	 */
	constructor(options: { enabled: boolean; prefix?: string; personAsked?: boolean }) {
		this.enabled = options.enabled
		this.prefix = options.prefix ?? ''
		this.personAsked = options.personAsked ?? true
	}

	private get interactiveTerminal(): boolean {
		return this.enabled && Boolean(this.stream.isTTY)
	}

	/** Pauses the spinner so something else (a prompt) can use the terminal. */
	pause(): void {
		this.spinner.stop()
	}

	private line(text: string): void {
		if (!this.enabled) return
		this.pause()
		this.stream.write(`${this.prefix}${text}\n`)
	}

	private spin(text: string): void {
		if (this.interactiveTerminal) this.spinner.start(`${this.prefix}${text}`)
	}

	/** Handles one agent event. */
	handle(event: AgentEvent): void {
		if (!this.enabled) return
		switch (event.type) {
			case 'status':
				if (event.model) this.line(paint('dim', terminalText(event.message)))
				this.spin('Thinking...')
				break
			case 'step':
				this.spin(
					`Step ${event.step}/${event.maxSteps}: ${event.step === 1 ? 'thinking' : 'reading the results'}...`
				)
				break
			case 'code':
				this.line(paint(['bold', 'cyan'], `▸ ${terminalText(event.description || 'Running code')}`))
				if (event.code !== this.shownCode)
					this.line(paint('dim', indent(firstLines(terminalText(event.code), 25))))
				this.shownCode = undefined
				this.spin('Running code...')
				break
			case 'tool_call':
				if (event.source === 'code') {
					const args = JSON.stringify(event.arguments ?? []).slice(1, -1)
					this.spin(terminalText(`⬡ ig.${event.name}(${clip(args, 60)})`))
				}
				break
			case 'tool_result':
				if (event.source === 'model' && event.denied?.length) {
					// The output is the model's instruction; the person sees what they decided (without a
					// terminal nobody decided: the approver's notice has said why and how to allow it).
					if (this.personAsked) this.line(paint('yellow', `✗ ${deniedNotice(event.denied)}`))
					this.spin('Thinking...')
				} else if (event.source === 'model') {
					const mark = event.success ? paint('green', '✓ Result') : paint('red', '✗ Error')
					this.line(`${mark}\n${paint('dim', indent(firstLines(terminalText(event.output), 6)))}`)
					this.spin('Thinking...')
				}
				break
			case 'error':
			case 'done':
				this.pause()
				break
			case 'permission':
				// The approver shows it (or denies it when there is no terminal).
				if (event.kind === 'code_run') this.shownCode = event.detail
				this.pause()
				break
		}
	}
}

/** Prints an ask response as the person asked: JSON, the answer only, or answer and footer. */
export async function printResponse(
	response: AskResponse,
	mode: { json: boolean; quiet: boolean }
): Promise<void> {
	if (mode.json) {
		process.stdout.write(`${jsonText(response)}\n`)
		return
	}
	if (response.answer) {
		// Neutralised for a pipe too: the file it fills may be `cat`ed on a terminal (an OSC 52
		// clipboard write, a window title). Plain text, newlines and tabs pass unchanged.
		const text = terminalText(response.answer)
		// Loaded here, not at start-up: see ask-markdown.ts.
		const answer = process.stdout.isTTY ? `\n${(await import('./ask-markdown')).renderMarkdown(text)}` : text
		process.stdout.write(`${answer}\n`)
	}
	if (response.error) process.stderr.write(`${paint('red', `smkit: ${terminalText(response.error)}`)}\n`)
	if (mode.quiet) return
	// Where the files went, with the footer: beside the answer on a terminal, on stderr for a pipe.
	const saved = response.files.map((file) => `${savedLine(file)}\n`).join('')
	const footer = paint('dim', `─── ${formatFooter(response)} ───`, process.stdout)
	if (process.stdout.isTTY) process.stdout.write(`${saved ? `\n${saved}` : ''}\n${footer}\n`)
	else process.stderr.write(`${saved}${footer}\n`)
}
