/**
 * A scripted OpenAI-compatible model server for tests (no network: 127.0.0.1, port 0). It serves
 * `POST /v1/chat/completions` (non-streaming) and `GET /v1/models`, answers from a script (a list
 * of replies or a function of the request), and records every request so tests can assert what
 * the model was sent. The real `openai` SDK talks to it.
 */

/** Token usage to report; a number is shorthand for total tokens split 2:1 prompt/completion. */
export type FakeUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number } | number

/** One scripted answer. */
export type FakeReply =
	| {
			/** Assistant text (may be empty when tool calls are given). */
			text?: string
			toolCalls?: { name: string; arguments: unknown; id?: string }[]
			usage?: FakeUsage | null
			/** Delay before answering, ms (lets tests observe concurrency). */
			delayMs?: number
	  }
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| { hang: true }
	| { malformed: string; contentType?: string }

/** A request the server received. */
export interface RecordedRequest {
	method: string
	path: string
	headers: Record<string, string>
	/** Parsed JSON body (undefined for GET or invalid JSON). */
	body: any
}

/** The script: replies in order, or a function deciding per request (index counts chat calls). */
export type FakeScript =
	| FakeReply[]
	| ((request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>)

/** A running fake model server. */
export interface FakeLlm {
	/** Base URL for the SDK, ending in `/v1`. */
	url: string
	/** Every request received, in order. */
	requests: RecordedRequest[]
	/** Only the chat-completion requests. */
	chatRequests(): RecordedRequest[]
	/** Replaces the script (and restarts its index). */
	setScript(script: FakeScript): void
	/** Highest number of chat requests being answered at the same time. */
	readonly maxInFlight: number
	stop(): Promise<void>
}

/** Reply helpers that keep tests short. */
export const reply = {
	/** A final text answer. */
	text: (text: string, usage?: FakeUsage): FakeReply => ({ text, usage }),
	/** A `run_code` tool call. */
	code: (
		code: string,
		options: { text?: string; usage?: FakeUsage; description?: string } = {}
	): FakeReply => ({
		text: options.text,
		usage: options.usage,
		toolCalls: [{ name: 'run_code', arguments: { code, description: options.description } }]
	}),
	/** An HTTP error with an OpenAI-style error body. */
	error: (status: number, message = 'scripted error', headers?: Record<string, string>): FakeReply => ({
		status,
		headers,
		body: { error: { message, type: 'scripted', code: null } }
	})
}

function usageOf(usage: FakeUsage | null | undefined) {
	if (usage === null) return undefined
	if (usage === undefined) return { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
	if (typeof usage === 'number') {
		const completion = Math.floor(usage / 3)
		return { prompt_tokens: usage - completion, completion_tokens: completion, total_tokens: usage }
	}
	return usage
}

function completionBody(answer: Extract<FakeReply, { text?: string }>, model: string, index: number) {
	const toolCalls = answer.toolCalls?.map((call, callIndex) => ({
		id: call.id ?? `call_${index}_${callIndex}`,
		type: 'function',
		function: {
			name: call.name,
			arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
		}
	}))
	return {
		id: `chatcmpl-${index}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [
			{
				index: 0,
				finish_reason: toolCalls?.length ? 'tool_calls' : 'stop',
				message: {
					role: 'assistant',
					content: answer.text ?? (toolCalls?.length ? null : ''),
					...(toolCalls?.length ? { tool_calls: toolCalls } : {})
				}
			}
		],
		usage: usageOf(answer.usage)
	}
}

/**
 * What OpenAI answers 400 about in a conversation: a tool call without a tool message answering it
 * (before the next message of another role), or a tool message answering no call.
 */
export function toolPairingProblem(messages: unknown): string | undefined {
	if (!Array.isArray(messages)) return undefined
	let open = new Set<string>()
	for (const message of messages as {
		role?: string
		tool_calls?: { id?: string }[]
		tool_call_id?: string
	}[]) {
		if (message?.role === 'tool') {
			if (!open.delete(String(message.tool_call_id)))
				return `a tool message answers no open tool call (${message.tool_call_id})`
			continue
		}
		if (open.size)
			return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${[...open].join(', ')}`
		open = new Set((message?.tool_calls ?? []).map((call) => String(call.id)))
	}
	return undefined
}

/** Starts the fake server. `models` is what `GET /v1/models` lists (default one model). */
export async function startFakeLlm(
	options: { script?: FakeScript; models?: string[] } = {}
): Promise<FakeLlm> {
	let script: FakeScript = options.script ?? []
	let chatIndex = 0
	let inFlight = 0
	let maxInFlight = 0
	const requests: RecordedRequest[] = []
	const models = options.models ?? ['fake-model']
	const hanging = new Set<() => void>()

	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		// Hanging replies must outlive Bun's default 10 s idle timeout only as long as a test waits.
		idleTimeout: 60,
		async fetch(request) {
			const url = new URL(request.url)
			const text = request.method === 'GET' ? '' : await request.text()
			let body: any
			try {
				body = text ? JSON.parse(text) : undefined
			} catch {
				body = undefined
			}
			const recorded: RecordedRequest = {
				method: request.method,
				path: url.pathname,
				headers: Object.fromEntries(request.headers.entries()),
				body
			}
			requests.push(recorded)
			if (request.method === 'GET' && url.pathname === '/v1/models') {
				return Response.json({
					object: 'list',
					data: models.map((id) => ({ id, object: 'model', owned_by: 'fake' }))
				})
			}
			if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
				return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 })
			}
			// Like OpenAI, refuse a conversation whose tool calls and results do not pair up.
			const pairing = toolPairingProblem(body?.messages)
			if (pairing)
				return Response.json({ error: { message: pairing, type: 'invalid_request_error' } }, { status: 400 })
			const index = chatIndex++
			inFlight++
			maxInFlight = Math.max(maxInFlight, inFlight)
			try {
				const answer = Array.isArray(script) ? script[index] : await script(recorded, index)
				if (!answer)
					return Response.json({ error: { message: `script exhausted at ${index}` } }, { status: 400 })
				if ('hang' in answer) {
					await new Promise<void>((resolve) => {
						hanging.add(resolve)
						request.signal.addEventListener('abort', () => resolve())
					})
					return new Response('', { status: 499 })
				}
				if ('malformed' in answer) {
					return new Response(answer.malformed, {
						headers: { 'content-type': answer.contentType ?? 'application/json' }
					})
				}
				if ('status' in answer) {
					return Response.json(answer.body ?? {}, { status: answer.status, headers: answer.headers })
				}
				if (answer.delayMs) await Bun.sleep(answer.delayMs)
				return Response.json(completionBody(answer, String(body?.model ?? 'fake-model'), index))
			} finally {
				inFlight--
			}
		}
	})

	return {
		url: `http://127.0.0.1:${server.port}/v1`,
		requests,
		chatRequests: () => requests.filter((request) => request.path === '/v1/chat/completions'),
		setScript(next) {
			script = next
			chatIndex = 0
		},
		get maxInFlight() {
			return maxInFlight
		},
		async stop() {
			for (const release of hanging) release()
			await server.stop(true)
		}
	}
}
