/**
 * Shared set-up of the agent web and playground AI suites: the simulated Instagram, a demo client,
 * the scripted fake model server, a temporary output folder, and readers for event streams.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type AgentWebOptions, createAgentWeb } from '../../src/agentweb/app'
import type { InstagramClient } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { type FakeLlm, type RecordedRequest, startFakeLlm } from '../support/fake-llm'

/** The provider key used in these tests; suites check it never appears in a response. */
export const testApiKey = 'sk-test-agentweb-KEY-31337'

/** luna.explorer's pk in the demo data set. */
export const lunaPk = '1000000002'

/** Everything a chat test needs. */
export interface ChatHarness {
	simulator: Simulator
	llm: FakeLlm
	client: InstagramClient
	filesDir: string
	/** An agent web app over the harness (provider openai at the fake server, key given). */
	agentWeb(options?: Partial<AgentWebOptions>): ReturnType<typeof createAgentWeb>
	stop(): Promise<void>
}

/** Starts the simulator and the fake model server. */
export async function startChatHarness(): Promise<ChatHarness> {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	const llm = await startFakeLlm()
	const client = createDemoClient(simulator.url)
	const filesDir = await mkdtemp(path.join(tmpdir(), 'smkit-agentweb-'))
	return {
		simulator,
		llm,
		client,
		filesDir,
		agentWeb: (options = {}) =>
			createAgentWeb({
				client,
				env: {},
				provider: 'openai',
				apiKey: testApiKey,
				baseURL: llm.url,
				model: 'fake-model',
				filesDir,
				modelOptions: { maxRetries: 0, timeoutMs: 10_000 },
				log: () => {},
				...options
			}),
		async stop() {
			await llm.stop()
			await simulator.stop()
			await rm(filesDir, { recursive: true, force: true })
		}
	}
}

/** A JSON request as a browser on the same origin sends it. */
export function jsonRequest(
	method: string,
	pathname: string,
	body?: unknown,
	init: RequestInit = {}
): Request {
	return new Request(`http://127.0.0.1${pathname}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		...init
	})
}

/** A parsed server-sent event. */
export type TestEvent = Record<string, any> & { type: string }

/** Reads a server-sent event stream one event at a time. */
export class EventReader {
	private readonly reader: ReadableStreamDefaultReader<string>
	private buffer = ''
	/** Every event read so far. */
	readonly events: TestEvent[] = []
	/** Raw text read so far (to check the wire format). */
	raw = ''

	constructor(response: Response) {
		if (!response.body) throw new Error('no body')
		this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
	}

	/** The next event, or null at the end of the stream. Comments (`: keep-alive`) are skipped. */
	async next(): Promise<TestEvent | null> {
		for (;;) {
			const end = this.buffer.indexOf('\n\n')
			if (end >= 0) {
				const block = this.buffer.slice(0, end)
				this.buffer = this.buffer.slice(end + 2)
				if (block.startsWith(':')) continue
				if (!block.startsWith('data: ')) throw new Error(`unexpected SSE block ${JSON.stringify(block)}`)
				const event = JSON.parse(block.slice(6)) as TestEvent
				this.events.push(event)
				return event
			}
			const { done, value } = await this.reader.read()
			if (done) return null
			this.raw += value
			this.buffer += value
		}
	}

	/** Reads until an event matches (throws if the stream ends first). */
	async until(predicate: (event: TestEvent) => boolean): Promise<TestEvent> {
		for (;;) {
			const event = await this.next()
			if (!event) throw new Error(`stream ended; events: ${this.events.map((item) => item.type).join(',')}`)
			if (predicate(event)) return event
		}
	}

	/** Reads to the end and returns every event. */
	async all(): Promise<TestEvent[]> {
		while (await this.next()) {
			// Collecting.
		}
		return this.events
	}

	/** Disconnects (as a closed browser tab would). */
	cancel(): Promise<void> {
		return this.reader.cancel()
	}
}

/** The last user question in a recorded chat request (the task or message being answered). */
export function lastQuestion(request: RecordedRequest): string {
	const messages: { role: string; content: unknown }[] = request.body?.messages ?? []
	const last = messages.findLast((message) => message.role === 'user')
	return typeof last?.content === 'string' ? last.content : ''
}

/** A promise and its resolver, to hold a scripted reply until a test lets it go. */
export function gate(): { promise: Promise<void>; open(): void } {
	let open = () => {}
	const promise = new Promise<void>((resolve) => {
		open = resolve
	})
	return { promise, open }
}

/** Code that follows luna.explorer (a write call). */
export const followLuna = `const result = await ig.friendships.follow('${lunaPk}')
console.log('follow:', JSON.stringify(result))`
