/**
 * `smkit ask`: one-shot QUESTION, `-i` interactive, or `--parallel` tasks (docs/architecture.md, "Product"
 * and "The agent").
 * Exit codes: 0 success, 1 failure (including `success: false` answers, and answers given after an
 * action was denied for want of a terminal to ask), 2 bad usage, 130 interrupted; `--parallel`
 * exits 0 only when every task succeeded.
 */

import { clip, jsonText, terminalLine, terminalText } from '../cli-error'
import type { InstagramClient } from '../client/client'
import { createClientFromEnv } from '../client/env'
import { openDemoSession } from '../demo'
import { resolveUpstream } from '../server/upstream-options'
import { createStdinPrompt, createTerminalApprover, type TerminalApprover } from './ask-approver'
import { LineReader, runInteractive } from './ask-interactive'
import { type AskCliOptions, parseAskOptions } from './ask-options'
import { LiveView, paint, printResponse } from './ask-terminal'
import { modelOptionsOf } from './options'
import { runParallel } from './parallel'
import { describeProvider } from './providers'
import { agentSettingsOf } from './settings'
import {
	type AgentSetupOptions,
	createAgentFactory,
	createAgentFromOptions,
	loadAgentEnv,
	requireProvider
} from './setup'

/** The Instagram side of a run: the client, and the simulator to stop in demo mode. */
interface ClientSession {
	client: InstagramClient
	close(): Promise<void>
}

async function openClient(
	options: AskCliOptions,
	env: Record<string, string | undefined>
): Promise<ClientSession> {
	const upstream = resolveUpstream(options, env, options.demo)
	for (const warning of upstream.warnings) console.error(warning)
	// Which proxy the run goes through (credentials hidden), as the servers say; --quiet prints the answer only.
	if (!options.quiet) for (const line of upstream.lines) console.error(line)
	if (!options.demo)
		return { client: createClientFromEnv(options.envPath, upstream.clientOptions), close: async () => {} }
	const demo = await openDemoSession(process.env, upstream.clientOptions)
	return { client: demo.client, close: () => demo.stop() }
}

/** Routes Ctrl-C to whatever is running now (readline on a terminal, the process signal otherwise). */
function interruptRouter() {
	let handler: () => void = () => process.exit(130)
	const onSignal = () => handler()
	process.on('SIGINT', onSignal)
	return {
		trigger: () => handler(),
		bind: (next: () => void) => {
			handler = next
		},
		dispose: () => process.off('SIGINT', onSignal)
	}
}

function setupFor(options: AskCliOptions, env: Record<string, string | undefined>, client: InstagramClient) {
	return {
		client,
		env,
		provider: options.provider,
		model: options.model,
		apiKey: options.apiKey,
		baseURL: options.baseURL,
		...agentSettingsOf(options),
		modelOptions: modelOptionsOf(options)
	} satisfies AgentSetupOptions
}

/**
 * The exit code once denials are counted: 1 instead of 0 when an action was denied because no
 * terminal could ask, since the answer was made without it and a script must not take it for a
 * complete one. `denial` then says which kinds were denied.
 */
function withDenials(code: number, terminal: TerminalApprover): { code: number; denial?: string } {
	const kinds = terminal.deniedKinds()
	if (code !== 0 || kinds.length === 0) return { code }
	const denial = `denied for want of a terminal to ask: ${kinds.join(', ').toLowerCase()} (allow with --full-access)`
	return { code: 1, denial }
}

/** Says a denial that failed the ask on standard error (with `--json` too). */
function sayDenial(denial: string | undefined): void {
	if (denial) process.stderr.write(`${paint('red', `smkit: exit 1: ${denial}`)}\n`)
}

/**
 * What `--json` prints: the response as it is on success; on failure `success: false`, the
 * `error` (the denial when that is what failed) and the `exit_code`, so the JSON agrees with it.
 */
function jsonOutcome<T extends { success: boolean }>(value: T, code: number, error: string | null) {
	return code === 0 ? value : { ...value, success: false, error, exit_code: code }
}

/** Counts Ctrl-C presses: the first cancels, the second leaves at once with 130. */
function cancelOnInterrupt(controller: AbortController, view?: LiveView): () => void {
	let presses = 0
	return () => {
		presses++
		if (presses >= 2) process.exit(130)
		controller.abort()
		view?.pause()
		process.stderr.write(`\n${paint('yellow', 'Cancelling... (Ctrl-C again to quit)')}\n`)
	}
}

async function runOneShot(
	options: AskCliOptions,
	setup: AgentSetupOptions,
	interrupts: ReturnType<typeof interruptRouter>
) {
	const controller = new AbortController()
	const personAsked = Boolean(process.stdin.isTTY)
	const view = new LiveView({ enabled: !options.quiet && !options.json, personAsked })
	interrupts.bind(cancelOnInterrupt(controller, view))
	const terminal = createTerminalApprover({
		offerAlways: setup.permission !== 'ask_every',
		prompt: personAsked ? createStdinPrompt(interrupts.trigger) : null,
		beforePrompt: () => view.pause()
	})
	const agent = createAgentFromOptions({ ...setup, approver: terminal.approver })
	const response = await agent.ask(options.question, {
		signal: controller.signal,
		onEvent: (event) => view.handle(event)
	})
	const { code, denial } = withDenials(controller.signal.aborted ? 130 : response.success ? 0 : 1, terminal)
	await printResponse(
		options.json ? jsonOutcome(response, code, denial ?? response.error) : response,
		options
	)
	sayDenial(denial)
	return code
}

async function runParallelMode(
	options: AskCliOptions,
	setup: AgentSetupOptions,
	interrupts: ReturnType<typeof interruptRouter>
): Promise<number> {
	const controller = new AbortController()
	interrupts.bind(cancelOnInterrupt(controller))
	const chatty = !options.quiet && !options.json
	const terminal = createTerminalApprover({
		prompt: process.stdin.isTTY ? createStdinPrompt(interrupts.trigger) : null,
		offerAlways: setup.permission !== 'ask_every'
	})
	const createAgent = createAgentFactory({ ...setup, approver: terminal.approver })
	if (chatty) process.stderr.write(`Parallel execution: ${options.tasks.length} tasks\n${'═'.repeat(40)}\n`)
	const result = await runParallel(options.tasks, {
		createAgent,
		signal: controller.signal,
		onTaskDone: (index, task) => {
			if (!chatty) return
			const mark = task.success ? '✅' : '❌'
			const state = task.success ? 'done' : `failed: ${task.error ?? 'no answer'}`
			process.stderr.write(
				`  ${mark} Task ${index + 1}: ${terminalLine(state)} (${task.duration.toFixed(1)}s)\n`
			)
		}
	})
	const { code, denial } = withDenials(controller.signal.aborted ? 130 : result.success ? 0 : 1, terminal)
	if (options.json) {
		const failed = result.results.filter((task) => !task.success).length
		const error =
			denial ?? (code === 130 ? 'Cancelled' : `${failed} of ${result.results.length} tasks failed`)
		process.stdout.write(`${jsonText(jsonOutcome(result, code, error))}\n`)
	} else if (options.quiet) {
		// The answers as they are for a pipe; a terminal gets no control character (as a single ask).
		const answers = result.results.map((task) => task.answer).join('\n\n')
		process.stdout.write(`${process.stdout.isTTY ? terminalText(answers) : answers}\n`)
	} else {
		process.stdout.write('\n')
		for (const [index, task] of result.results.entries()) {
			// A summary for people: one line each, with no control character from the answer.
			const answer = terminalLine((task.answer || task.error || '').replace(/\s+/g, ' '))
			process.stdout.write(`${task.success ? '✅' : '❌'} Task ${index + 1}: ${clip(answer, 100)}\n`)
		}
		const steps = result.results.reduce((total, task) => total + task.steps, 0)
		process.stdout.write(
			`Total: ${result.total_duration.toFixed(1)}s | ${steps} steps | ${result.total_tokens} tokens\n`
		)
	}
	sayDenial(denial)
	return code
}

async function runInteractiveMode(
	options: AskCliOptions,
	setup: AgentSetupOptions,
	interrupts: ReturnType<typeof interruptRouter>
): Promise<number> {
	const reader = new LineReader(() => interrupts.trigger())
	try {
		const terminal = createTerminalApprover({
			prompt: reader.terminal ? reader.prompt : null,
			offerAlways: setup.permission !== 'ask_every'
		})
		const agent = createAgentFromOptions({ ...setup, approver: terminal.approver })
		const code = await runInteractive({
			agent,
			reader,
			quiet: options.quiet,
			demo: options.demo,
			resetApprovals: terminal.reset,
			bindInterrupt: interrupts.bind
		})
		const outcome = withDenials(code, terminal)
		sayDenial(outcome.denial)
		return outcome.code
	} finally {
		reader.close()
	}
}

/** The `ask` command (cac passes the question, or words for a variadic argument, then the options). */
export async function runAsk(question: unknown, rawOptions: Record<string, unknown> = {}): Promise<void> {
	const options = parseAskOptions(question, rawOptions)
	const env = loadAgentEnv(options.envPath)
	// Fail on a bad provider or a missing key before starting anything.
	const provider = requireProvider({
		provider: options.provider,
		model: options.model,
		apiKey: options.apiKey,
		baseURL: options.baseURL,
		env
	})
	// Where the key goes, when it is not the provider's own server (an environment file can say so).
	if (!options.quiet && provider.endpoint) console.error(`AI: ${describeProvider(provider)}`)
	const session = await openClient(options, env)
	const interrupts = interruptRouter()
	try {
		const setup = setupFor(options, env, session.client)
		if (options.parallel) process.exitCode = await runParallelMode(options, setup, interrupts)
		else if (options.interactive || !options.question)
			process.exitCode = await runInteractiveMode(options, setup, interrupts)
		else process.exitCode = await runOneShot(options, setup, interrupts)
	} finally {
		interrupts.dispose()
		await session.close()
	}
}
