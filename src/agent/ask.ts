/**
 * `smkit ask`: one-shot QUESTION, `-i` interactive, or `--parallel` tasks (docs/architecture.md, "Product"
 * and "The agent").
 * Exit codes: 0 success, 1 failure (including `success: false` answers, and answers given after an
 * action was denied for want of a terminal to ask or a file could not be written), 2 bad usage, 130
 * interrupted; `--parallel` exits 0 only when every task succeeded.
 */

import type { InstagramClient } from '../client/client'
import { createClientFromEnv } from '../client/env'
import { openDemoSession } from '../demo'
import { resolveUpstream } from '../server/upstream-options'
import { createStdinPrompt, createTerminalApprover } from './ask-approver'
import { LineReader, runInteractive } from './ask-interactive'
import { type AskCliOptions, parseAskOptions } from './ask-options'
import {
	cancelOnInterrupt,
	type InterruptRouter,
	interruptRouter,
	jsonOutcome,
	sayDenial,
	withDenials,
	withUnsaved
} from './ask-outcome'
import { runParallelAsk } from './ask-parallel'
import { LiveView, printResponse } from './ask-terminal'
import { modelOptionsOf } from './options'
import { describeProvider } from './providers'
import { agentSettingsOf } from './settings'
import { type AgentSetupOptions, createAgentFromOptions, loadAgentEnv, requireProvider } from './setup'

/**
 * One line on standard error. Not console.error: Bun paints that red on a terminal unless NO_COLOR
 * is exactly a value it knows, while no-color.org counts any value but '' (say `NO_COLOR=false`).
 */
function sayLine(text: string): void {
	process.stderr.write(`${text}\n`)
}

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
	for (const warning of upstream.warnings) sayLine(warning)
	// Which proxy the run goes through (credentials hidden), as the servers say; --quiet prints the answer only.
	if (!options.quiet) for (const line of upstream.lines) sayLine(line)
	if (!options.demo)
		return { client: createClientFromEnv(options.envPath, upstream.clientOptions), close: async () => {} }
	const demo = await openDemoSession(process.env, upstream.clientOptions)
	return { client: demo.client, close: () => demo.stop() }
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

async function runOneShot(options: AskCliOptions, setup: AgentSetupOptions, interrupts: InterruptRouter) {
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
	const unsaved: string[] = []
	const response = await agent.ask(options.question, {
		signal: controller.signal,
		onEvent: (event) => view.handle(event),
		onFileError: (failure) => unsaved.push(failure.error)
	})
	const { code, denial } = withUnsaved(
		withDenials(controller.signal.aborted ? 130 : response.success ? 0 : 1, terminal),
		unsaved
	)
	await printResponse(
		options.json ? jsonOutcome(response, code, denial ?? response.error) : response,
		options
	)
	sayDenial(denial)
	return code
}

async function runInteractiveMode(
	options: AskCliOptions,
	setup: AgentSetupOptions,
	interrupts: InterruptRouter
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
	if (!options.quiet && provider.endpoint) sayLine(`AI: ${describeProvider(provider)}`)
	const session = await openClient(options, env)
	const interrupts = interruptRouter()
	try {
		const setup = setupFor(options, env, session.client)
		if (options.parallel) process.exitCode = await runParallelAsk(options, setup, interrupts)
		else if (options.interactive || !options.question)
			process.exitCode = await runInteractiveMode(options, setup, interrupts)
		else process.exitCode = await runOneShot(options, setup, interrupts)
	} finally {
		interrupts.dispose()
		await session.close()
	}
}
