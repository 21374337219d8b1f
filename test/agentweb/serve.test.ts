import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseAgentWebOptions, startAgentWebServer } from '../../src/agentweb/serve'
import { UsageError } from '../../src/cli-error'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startSimulator } from '../../src/simulator/server'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'

// `smkit agent-web`: option parsing, the start-up summary (never the key), demo mode end to end,
// and a clean stop on SIGINT.
let llm: FakeLlm
let filesDir: string
const key = 'sk-serve-test-KEY-4242'

beforeAll(async () => {
	llm = await startFakeLlm()
	filesDir = await mkdtemp(path.join(tmpdir(), 'smkit-agentweb-serve-'))
})
afterAll(async () => {
	await llm.stop()
	await rm(filesDir, { recursive: true, force: true })
})

describe('parseAgentWebOptions', () => {
	test('defaults: port 8899 on 127.0.0.1, permission ask_once', () => {
		expect(parseAgentWebOptions({})).toMatchObject({
			port: 8899,
			host: '127.0.0.1',
			envPath: '.env',
			model: 'auto',
			permission: 'ask_once',
			demo: false
		})
	})

	test('bad values are usage errors with a clear message', () => {
		const cases: [Record<string, unknown>, string][] = [
			[{ port: 'x' }, '--port must be an integer'],
			[{ port: 70000 }, '--port must be an integer'],
			[{ permission: 'yolo' }, '--permission must be ask_every, ask_once or full_access'],
			[{ provider: 'nope' }, "Unknown AI provider 'nope'"],
			[{ baseUrl: 'ftp://x' }, '--base-url must be an http(s) URL'],
			[{ corsOrigin: 'not a url' }, '--cors-origin must be an origin'],
			[{ token: 'short' }, '--token must be at least 16 characters'],
			[{ host: 'a b' }, '--host is not a host name']
		]
		for (const [raw, message] of cases) {
			expect(() => parseAgentWebOptions(raw)).toThrow(UsageError)
			expect(() => parseAgentWebOptions(raw)).toThrow(message)
		}
	})
})

describe('startAgentWebServer', () => {
	test('with credentials: the session is checked at start, valid or expired, and no cookie is printed', async () => {
		const simulator = await startSimulator()
		const envPath = path.join(filesDir, 'session.env')
		await writeFile(
			envPath,
			[
				`SESSION_ID=${DEMO_CREDENTIALS.sessionId}`,
				`CSRF_TOKEN=${DEMO_CREDENTIALS.csrfToken}`,
				`DS_USER_ID=${DEMO_CREDENTIALS.dsUserId}`,
				`SMKIT_UPSTREAM_URL=${simulator.url}`
			].join('\n')
		)
		const start = async () => {
			const lines: string[] = []
			const running = await startAgentWebServer(
				parseAgentWebOptions({ port: 0, env: envPath, provider: 'openai', baseUrl: llm.url, apiKey: key }),
				(line) => lines.push(line),
				{ filesDir }
			)
			await running.stop()
			return lines
		}
		try {
			const valid = await start()
			expect(valid).toContain('Instagram: session valid, logged in as @smkit_demo')
			const expire = await fetch(`${simulator.url}/__sim/session`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ state: 'expired' })
			})
			expect(expire.status).toBe(200)
			const expired = await start()
			expect(expired.find((line) => line.startsWith('Instagram: Instagram '))).toContain(
				'Instagram does not accept this session (login_required)'
			)
			expect(expired).toContain(
				`Instagram: requests go to ${simulator.url} (SMKIT_UPSTREAM_URL), not instagram.com`
			)
			for (const line of [...valid, ...expired]) {
				expect(line).not.toContain(DEMO_CREDENTIALS.sessionId)
				expect(line).not.toContain(DEMO_CREDENTIALS.csrfToken)
			}
		} finally {
			await simulator.stop()
		}
	})

	test('demo mode serves the page and answers an ask against the simulator; the key is never printed', async () => {
		const lines: string[] = []
		const running = await startAgentWebServer(
			parseAgentWebOptions({
				port: 0,
				demo: true,
				provider: 'openai',
				baseUrl: llm.url,
				apiKey: key,
				permission: 'full_access'
			}),
			(line) => lines.push(line),
			{ filesDir }
		)
		try {
			expect(lines[0]).toMatch(/^smkit agent-web: http:\/\/127\.0\.0\.1:\d+\/$/)
			// The model endpoint given by --base-url is said (its host only: where the key goes).
			expect(lines).toContain(`AI: OpenAI (auto: the server's first chat model) at ${new URL(llm.url).host}`)
			expect(lines).toContain('Permission: full_access (actions run without asking)')
			expect(lines).toContain('Demo data: the built-in simulated Instagram (no account needed)')
			expect(lines.join('\n')).not.toContain(key)
			expect((await fetch(running.url)).status).toBe(200)
			llm.setScript([
				reply.code("const user = await ig.users.getByUsername('luna.explorer'); console.log(user.username)"),
				reply.text('It is luna.explorer.')
			])
			const response = await fetch(`${running.url}api/ask`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ message: 'Who is luna?' })
			})
			const body = await response.json()
			expect(body).toMatchObject({ success: true, answer: 'It is luna.explorer.' })
			const toolMessage = llm
				.chatRequests()
				.at(-1)
				?.body.messages.find((message: { role: string }) => message.role === 'tool')
			expect(toolMessage.content).toContain('luna.explorer')
			const status = await (await fetch(`${running.url}api/status`)).json()
			expect(status).toMatchObject({ demo: true, available: true })
		} finally {
			await running.stop()
		}
	})

	test('without an AI provider no permission is claimed: the start-up lines agree with /api/status', async () => {
		const lines: string[] = []
		const options = parseAgentWebOptions({
			port: 0,
			demo: true,
			provider: 'openai',
			env: '/nonexistent/.env'
		})
		const running = await startAgentWebServer(options, (line) => lines.push(line), { filesDir })
		try {
			const status = await (await fetch(`${running.url}api/status`)).json()
			expect(status).toMatchObject({ available: false, permission: null })
			expect(lines.some((line) => line.startsWith('AI: not configured.'))).toBe(true)
			expect(lines.some((line) => line.startsWith('Permission:'))).toBe(false)
		} finally {
			await running.stop()
		}
	})

	test('a port in use is reported clearly', async () => {
		const blocker = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
		try {
			const options = parseAgentWebOptions({
				port: blocker.port,
				provider: 'openai',
				apiKey: key,
				env: '/nonexistent/.env'
			})
			await expect(startAgentWebServer(options, () => {})).rejects.toThrow(
				`cannot listen on 127.0.0.1:${blocker.port}`
			)
		} finally {
			await blocker.stop(true)
		}
	})
})

describe('smkit agent-web', () => {
	test('starts, prints its URL and stops with exit code 0 on SIGINT', async () => {
		const child = Bun.spawn(
			[
				process.execPath,
				'src/main.ts',
				'agent-web',
				'--port',
				'0',
				'--demo',
				'--provider',
				'openai',
				'--base-url',
				llm.url,
				'--api-key',
				key,
				'--env',
				'/nonexistent/.env'
			],
			{ cwd: path.join(import.meta.dir, '..', '..'), stdout: 'pipe', stderr: 'pipe' }
		)
		const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
		let output = ''
		while (!/Demo data/.test(output)) {
			const { done, value } = await reader.read()
			if (done) break
			output += value
		}
		const url = /smkit agent-web: (\S+)/.exec(output)?.[1]
		expect(url).toBeDefined()
		expect((await (await fetch(`${url}api/status`)).json()).provider).toBe('openai')
		child.kill('SIGINT')
		expect(await child.exited).toBe(0)
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			output += value
		}
		expect(output).toContain('Stopping the agent web server')
		expect(output).not.toContain(key)
		expect(await new Response(child.stderr).text()).not.toContain(key)
	})
})
