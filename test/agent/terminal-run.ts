/**
 * `smkit ask` on a pseudo terminal (Bun.spawn's `terminal`), for tests of what a person sees and
 * types: the answer as rendered, approval prompts, Ctrl-C.
 */
import path from 'node:path'

const root = path.resolve(import.meta.dir, '../..')
export const bun = path.join(root, 'node_modules/.bin/bun')
export const main = path.join(root, 'src/main.ts')

/** The text of a terminal screen without colour and cursor codes. */
export const visible = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '')

/** A `smkit ask` running on a 100-column pseudo terminal. */
export interface TerminalRun {
	/** Everything printed so far (stdout and stderr share the terminal), escape codes included. */
	readonly screen: string
	/** Resolves once `text` has been printed (escape codes ignored), `times` times in all (default 1). */
	waitFor(text: string, times?: number): Promise<void>
	type(keys: string): void
	exited: Promise<number>
}

const occurrences = (screen: string, text: string) => visible(screen).split(text).length - 1

/**
 * Starts `smkit ask --demo ARGS` with the fake model at `llmUrl`, in `workDir`; `extraEnv` adds
 * variables (NO_COLOR is otherwise left out).
 */
export function runOnTerminal(
	llmUrl: string,
	workDir: string,
	args: string[],
	extraEnv: Record<string, string> = {}
): TerminalRun {
	const env: Record<string, string> = {}
	for (const [key, value] of Object.entries(process.env))
		if (value !== undefined && !/_API_KEY$|^OPENAI_BASE_URL$|^OLLAMA_HOST$|^NO_COLOR$/.test(key))
			env[key] = value
	env.TERM = 'xterm-256color'
	Object.assign(env, extraEnv)
	let screen = ''
	const waiters: { text: string; times: number; resolve(): void }[] = []
	const child = Bun.spawn(
		[
			bun,
			main,
			'ask',
			'--provider',
			'openai',
			'--api-key',
			'sk-tty-test',
			'--base-url',
			llmUrl,
			'--env',
			path.join(workDir, 'missing.env'),
			'--demo',
			...args
		],
		{
			cwd: workDir,
			env,
			terminal: {
				cols: 100,
				rows: 40,
				data(_terminal, data) {
					screen += new TextDecoder().decode(data)
					for (const waiter of [...waiters]) {
						if (occurrences(screen, waiter.text) >= waiter.times) {
							waiters.splice(waiters.indexOf(waiter), 1)
							waiter.resolve()
						}
					}
				}
			}
		}
	)
	return {
		get screen() {
			return screen
		},
		waitFor: (text, times = 1) =>
			occurrences(screen, text) >= times
				? Promise.resolve()
				: new Promise<void>((resolve) => waiters.push({ text, times, resolve })),
		type: (keys) => child.terminal?.write(keys),
		exited: child.exited
	}
}
