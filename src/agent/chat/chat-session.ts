/**
 * One server's conversation with the agent, shared by the agent web server and the playground's
 * AI chat: asks are served one at a time in arrival order (a FIFO lock), history reads never wait,
 * permission requests go to the browser that streams the ask (or are denied with a how-to when the
 * ask cannot show them), and a client that goes away cancels its ask.
 */
import { Agent, type AgentOptions, type HistoryEntry } from '../agent'
import { type AgentEvent, type AskResponse, failedAsk } from '../events'
import { redactingListener } from '../key-redaction'
import { type ParallelResult, runParallel } from '../parallel'
import type { ApprovalContext, Approver, PermissionLevel } from '../permissions'
import { AGENT_DEFAULTS } from '../settings'
import { type ApprovalChannel, type ApprovalMode, BrowserApprovals, unaskedDenialMessage } from './approvals'
import { FifoMutex, LockWaitAbortedError } from './mutex'

/** How a chat session is built: the agent's options; `approvalTimeoutMs` and `concurrency` apply here. */
export interface ChatSessionOptions extends Omit<AgentOptions, 'approver'> {
	/** Ends the message of asks whose actions were denied for lack of a browser: where to approve them. */
	noBrowserHint: string
}

/** Options of one ask or parallel run. */
export interface ChatRunOptions<Listener> {
	/** Aborts the run (the client went away). */
	signal?: AbortSignal
	onEvent?: Listener
	/** `browser`: a person sees the events and can approve; `none`: actions needing approval are denied. */
	approvals: ApprovalMode
}

/** The conversation of one server. */
export class ChatSession {
	readonly permission: PermissionLevel
	private readonly options: ChatSessionOptions
	private readonly agent: Agent
	private readonly lock = new FifoMutex()
	private readonly approvals: BrowserApprovals
	// The agent's approver is fixed when it is built; each ask's signal says which channel decides.
	private readonly channels = new WeakMap<AbortSignal, ApprovalChannel>()

	constructor(options: ChatSessionOptions) {
		this.options = options
		this.permission = options.permission ?? AGENT_DEFAULTS.permission
		this.approvals = new BrowserApprovals(options.approvalTimeoutMs)
		// A request names its ask by the ask's signal (`askSignal` when `signal` is derived from it).
		const channelOf = (context?: ApprovalContext) => {
			const ask = context?.askSignal ?? context?.signal
			return ask ? this.channels.get(ask) : undefined
		}
		const route: Approver = (request, context) => {
			const channel = channelOf(context)
			return channel ? channel.approver(request, context) : Promise.resolve(false)
		}
		// A plain JSON ask (nobody watching) never writes on the strength of an approval given in the browser.
		const remembersFor = (context: ApprovalContext) => channelOf(context)?.mode === 'browser'
		this.agent = this.buildAgent(route, remembersFor)
	}

	/** Provider name, display label and model (a local runner's `auto` is resolved after the first ask). */
	describe(): { provider: string; label: string; model: string } {
		return this.agent.describe()
	}

	/** Seconds a browser approval waits. */
	get approvalTimeoutSeconds(): number {
		return this.approvals.timeoutSeconds
	}

	/** Whether an ask, parallel run or reset is running now, and how many wait behind it. */
	activity(): { busy: boolean; waiting: number } {
		return { busy: this.lock.locked, waiting: this.lock.waiting }
	}

	/** The conversation for display (never waits behind an ask). */
	history(): HistoryEntry[] {
		return this.agent.getHistory()
	}

	/** Asks in this conversation, after the asks before it. Never throws. */
	async ask(message: string, options: ChatRunOptions<(event: AgentEvent) => void>): Promise<AskResponse> {
		const run = linkedController(options.signal)
		const onEvent = this.withTimeout(options.onEvent)
		try {
			const release = await this.waitTurn(run.signal, onEvent)
			if (!release) return failedAsk('Cancelled')
			try {
				const channel = this.approvals.channel(options.approvals, onEvent)
				this.channels.set(run.signal, channel)
				const response = await this.agent.ask(message, { signal: run.signal, onEvent })
				return this.withUnaskedDenials(response, channel)
			} finally {
				release()
			}
		} finally {
			run.dispose()
		}
	}

	/**
	 * Runs tasks in parallel, each in its own conversation (not this one's history), after the asks
	 * before it. Events carry the task index. Never throws for failing tasks.
	 */
	async parallel(
		tasks: readonly string[],
		options: ChatRunOptions<(index: number, event: AgentEvent) => void>
	): Promise<ParallelResult> {
		const run = linkedController(options.signal)
		const eventsOf = (index: number) => this.withTimeout((event) => options.onEvent?.(index, event))
		try {
			const release = await this.waitTurn(run.signal, eventsOf(-1))
			if (!release) return { success: false, results: [], total_duration: 0, total_tokens: 0 }
			try {
				const channels: ApprovalChannel[] = []
				const result = await runParallel(tasks, {
					concurrency: this.options.concurrency ?? AGENT_DEFAULTS.concurrency,
					signal: run.signal,
					onEvent: options.onEvent ? (index, event) => eventsOf(index)(event) : undefined,
					createAgent: (index) => {
						channels[index] = this.approvals.channel(options.approvals, eventsOf(index))
						const mode = channels[index].mode
						return this.buildAgent(channels[index].approver, () => mode === 'browser')
					}
				})
				const results = result.results.map((given, index) => {
					// The task is the person's words, which may hold the key: shown redacted, as the ask's are.
					const task = { ...given, task: this.agent.redact(given.task) }
					const denied = channels[index]?.deniedUnasked ?? []
					if (!denied.length) return task
					const note = this.agent.redact(unaskedDenialMessage(denied, this.options.noBrowserHint))
					return { ...task, success: false, error: task.error ? `${task.error} ${note}` : note }
				})
				return { ...result, results, success: results.every((task) => task.success) }
			} finally {
				release()
			}
		} finally {
			run.dispose()
		}
	}

	/** Clears the conversation and remembered approvals, after the asks before it. */
	async reset(signal?: AbortSignal): Promise<void> {
		await this.lock.run(async () => this.agent.reset(), signal)
	}

	/** Records a browser decision; false when no request with this id is waiting. */
	approve(id: string, allow: boolean): boolean {
		return this.approvals.decide(id, allow)
	}

	private buildAgent(approver: Approver, remembersFor: (context: ApprovalContext) => boolean): Agent {
		const {
			approvalTimeoutMs: _timeout,
			concurrency: _concurrency,
			noBrowserHint: _hint,
			...agent
		} = this.options
		return new Agent({ ...agent, permission: this.permission, approver, remembersFor })
	}

	/** Waits for the lock; undefined when the client left first. Says so while waiting. */
	private async waitTurn(signal: AbortSignal, onEvent: (event: AgentEvent) => void) {
		if (this.lock.locked)
			onEvent({ type: 'status', message: 'Waiting for the previous question to finish...' })
		try {
			return await this.lock.acquire(signal)
		} catch (error) {
			if (error instanceof LockWaitAbortedError) return undefined
			throw error
		}
	}

	/**
	 * Adds how long a browser approval waits to `permission` events (the card shows it). The session's
	 * own events (an approval's outcome names its title) have the API key redacted, as the agent's do.
	 */
	private withTimeout(given?: (event: AgentEvent) => void): (event: AgentEvent) => void {
		const listener = redactingListener(given, (text) => this.agent.redact(text))
		return (event) => {
			if (!listener) return
			if (event.type !== 'permission') return listener(event)
			// The card counts down to the server's own time-out, or to the end of the run that asks
			// (a write or file inside code), whichever comes first.
			const { expiresAt, ...request } = event
			const runLeft = expiresAt === undefined ? Number.POSITIVE_INFINITY : (expiresAt - Date.now()) / 1000
			const seconds = Math.min(this.approvals.timeoutSeconds, Math.max(0, Math.floor(runLeft)))
			listener({ ...request, timeout_seconds: seconds })
		}
	}

	private withUnaskedDenials(response: AskResponse, channel: ApprovalChannel): AskResponse {
		if (!channel.deniedUnasked.length) return response
		const note = this.agent.redact(unaskedDenialMessage(channel.deniedUnasked, this.options.noBrowserHint))
		return { ...response, success: false, error: response.error ? `${response.error} ${note}` : note }
	}
}

/** A controller aborted when `parent` aborts; `dispose` stops listening. */
function linkedController(parent?: AbortSignal) {
	const controller = new AbortController()
	const onAbort = () => controller.abort()
	if (parent?.aborted) controller.abort()
	else parent?.addEventListener('abort', onAbort, { once: true })
	return {
		signal: controller.signal,
		dispose: () => parent?.removeEventListener('abort', onAbort)
	}
}
