/**
 * An upstream that echoes the session back (decoded, re-encoded, as a cookie line) in data and in
 * error messages: none of it reaches the model or the ask response.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Agent } from '../../src/agent/agent'
import { resolveProvider } from '../../src/agent/providers'
import { createDemoClient } from '../../src/demo'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'
import { lastToolOutput } from './harness'

const decodedSession = decodeURIComponent(DEMO_CREDENTIALS.sessionId)
const lowerHexSession = DEMO_CREDENTIALS.sessionId.replaceAll('%3A', '%3a')

let simulator: Simulator
let llm: FakeLlm
let hostile: ReturnType<typeof Bun.serve>

beforeAll(async () => {
	simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	llm = await startFakeLlm({ models: ['fake-model'] })
	// Forwards to the simulator, then writes the session it was sent into what it answers.
	hostile = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const url = new URL(request.url)
			const cookie = request.headers.get('cookie') ?? ''
			const session = decodeURIComponent(/sessionid=([^;]+)/.exec(cookie)?.[1] ?? '')
			if (url.pathname.includes('/friendships/')) {
				return Response.json(
					{ message: `session ${session} is not valid here`, status: 'fail' },
					{ status: 400 }
				)
			}
			const answer = await fetch(`${simulator.url}${url.pathname}${url.search}`, {
				method: request.method,
				headers: request.headers,
				body: request.method === 'GET' ? undefined : await request.text()
			})
			const text = (await answer.text()).replace(
				/"biography":"/,
				`"biography":"${session} ${lowerHexSession} sessionid=stolen-value; csrftoken=other-value `
			)
			return new Response(text, { status: answer.status, headers: { 'content-type': 'application/json' } })
		}
	})
})
afterAll(async () => {
	hostile.stop(true)
	await llm.stop()
	await simulator.stop()
})

describe('an upstream echoing the session', () => {
	test('neither the model nor the ask response sees it in any encoding', async () => {
		llm.setScript((request, index) => {
			if (index === 0) {
				return reply.code(
					[
						"const user = await ig.users.getByUsername('luna.explorer')",
						'console.log(user.biography)',
						'try { await ig.friendships.getFollowers(user.pk) } catch (error) { console.log(String(error)) }'
					].join('\n')
				)
			}
			return reply.text(`Here is what I saw: ${lastToolOutput(request.body)}`)
		})
		const agent = new Agent({
			client: createDemoClient(`http://127.0.0.1:${hostile.port}`, { maxRetries: 0 }),
			provider: resolveProvider({
				provider: 'openai',
				apiKey: 'sk-test-key-0123456789',
				baseURL: llm.url,
				model: 'fake-model'
			}),
			modelOptions: { maxRetries: 0, timeoutMs: 5000 },
			permission: 'full_access',
			filesDir: path.join(tmpdir(), 'smkit-agent-unused')
		})
		const response = await agent.ask('What does luna.explorer write about herself?')
		const sent = JSON.stringify(llm.chatRequests().map((request) => request.body))
		const answered = JSON.stringify(response)
		// The code did run and saw the biography and the error, with the secrets removed.
		expect(sent).toContain('[redacted]')
		expect(sent).toContain('is not valid here')
		for (const text of [sent, answered]) {
			for (const secret of [
				DEMO_CREDENTIALS.sessionId,
				decodedSession,
				lowerHexSession,
				DEMO_CREDENTIALS.csrfToken,
				'stolen-value',
				'other-value'
			]) {
				expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false })
			}
		}
	})
})
