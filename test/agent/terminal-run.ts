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

/** What a piped `smkit ask` left. */
export interface PipedAsk {
	stdout: string
	stderr: string
	code: number
}

/**
 * `smkit ask --demo ARGS` from the sources against the scripted model at `modelUrl`, piped: no
 * terminal, nothing on standard input, NO_COLOR, no model key or address from this environment, and
 * an environment file that does not exist (in `workDir`, the working directory).
 */
export async function askPiped(modelUrl: string, workDir: string, args: string[]): Promise<PipedAsk> {
	const env: Record<string, string> = {}
	for (const [key, value] of Object.entries(process.env))
		if (value !== undefined && !/_API_KEY$|^OPENAI_BASE_URL$|^OLLAMA_HOST$/.test(key)) env[key] = value
	env.NO_COLOR = '1'
	const provider = ['--provider', 'openai', '--api-key', 'sk-piped-test', '--base-url', modelUrl]
	const child = Bun.spawn(
		[bun, main, 'ask', ...provider, '--env', path.join(workDir, 'missing.env'), '--demo', ...args],
		{ cwd: workDir, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' }
	)
	const [stdout, stderr, code] = await Promise.all([
		new Response(child.stdout).text(),
		new Response(child.stderr).text(),
		child.exited
	])
	return { stdout, stderr, code }
}
