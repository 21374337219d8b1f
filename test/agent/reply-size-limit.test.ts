/**
 * A provider's reply is read within `MAX_REPLY_BYTES`: a reply that never ends (or is simply too
 * big) fails the ask with an error naming the provider and the limit, the rest of it is not read,
 * and the next ask works. The model list of `--model auto` is read within the same cap.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { resolveProvider } from '../../src/agent/providers'
import { limitReplySize, MAX_REPLY_BYTES, ReplyTooLargeError } from '../../src/agent/reply-limit'
import { type Harness, startHarness, testApiKey } from './harness'

const chunk = 1024 * 1024
/** What the endpoint sends at most: past it a reply ends, so the test cannot fill the memory. */
const ceiling = 48 * chunk

type Mode = 'streamed' | 'declared' | 'normal'
let mode: Mode = 'normal'
/** How the last streamed reply ended: read to its end, or cancelled by the reader. */
let streamEnd: Promise<'sent' | 'cancelled'> = Promise.resolve('sent')

const prefix =
	'{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"'
const suffix = '"}}]}'

/** A valid chat completion (or model list) of `ceiling` bytes, sent a chunk at a time, as asked for. */
function streamedBody(start: string, end: string): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder()
	let sent = 0
	let ended: (how: 'sent' | 'cancelled') => void = () => undefined
	streamEnd = new Promise((resolve) => {
		ended = resolve
	})
	return new ReadableStream({
		pull(controller) {
			if (sent === 0) controller.enqueue(encoder.encode(start))
			else if (sent >= ceiling) {
				controller.enqueue(encoder.encode(end))
				controller.close()
				ended('sent')
			} else controller.enqueue(new Uint8Array(chunk).fill(65))
			sent += chunk
		},
		cancel() {
			ended('cancelled')
		}
	})
}

let server: ReturnType<typeof Bun.serve>
let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
	server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(request) {
			const headers = { 'content-type': 'application/json' }
			if (new URL(request.url).pathname === '/v1/models') {
				return new Response(streamedBody('{"object":"list","data":[{"id":"', '","object":"model"}]}'), {
					headers
				})
			}
			if (mode === 'streamed') return new Response(streamedBody(prefix, suffix), { headers })
			// A body of known length: Bun sends its content-length.
			const content = mode === 'declared' ? 'A'.repeat(MAX_REPLY_BYTES) : 'fine'
			return new Response(`${prefix}${content}${suffix}`, { headers })
		}
	})
})
afterAll(async () => {
	await server.stop(true)
	await harness.stop()
})

const provider = (model: string) =>
	resolveProvider({
		provider: 'openai',
		apiKey: testApiKey,
		baseURL: `http://127.0.0.1:${server.port}/v1`,
		model
	})

const expectTooLarge = (error: string | null) => {
	expect(error).toBe(
		`OpenAI: the reply from the model endpoint 127.0.0.1:${server.port} was larger than 16 MiB and was not read to the end`
	)
}

describe('the size of a provider reply', () => {
	test('a reply that goes on past 16 MiB fails the ask, is not read further, and the next ask works', async () => {
		const agent = harness.agent({ provider: provider('fake-model') })
		mode = 'streamed'
		const response = await agent.ask('endless')
		expect(response.success).toBe(false)
		expectTooLarge(response.error)
		// Reading stopped at the limit: the endpoint was told to stop sending.
		expect(await streamEnd).toBe('cancelled')
		mode = 'normal'
		expect(await agent.ask('again')).toMatchObject({ success: true, answer: 'fine' })
	})

	test('a reply declaring more than 16 MiB fails the ask before it is read', async () => {
		mode = 'declared'
		const response = await harness.agent({ provider: provider('fake-model') }).ask('declared')
		expect(response.success).toBe(false)
		expectTooLarge(response.error)
	})

	test('the model list of --model auto is read within the same cap', async () => {
		mode = 'normal'
		const response = await harness.agent({ provider: provider('auto') }).ask('which model')
		expect(response.success).toBe(false)
		expectTooLarge(response.error)
		expect(await streamEnd).toBe('cancelled')
	})

	test('a body of exactly the limit is read whole; one byte more fails', async () => {
		const limited = (bytes: number) =>
			limitReplySize(
				() => (async () => new Response(new Uint8Array(bytes).fill(65))) as unknown as typeof fetch,
				1024
			)
		expect(await (await limited(1024)('http://127.0.0.1/')).text()).toHaveLength(1024)
		await expect((await limited(1025)('http://127.0.0.1/')).text()).rejects.toBeInstanceOf(ReplyTooLargeError)
	})
})
