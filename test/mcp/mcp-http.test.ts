/**
 * `smkit mcp --http` (the compiled binary): Streamable HTTP at /mcp with the same rules as the other
 * servers: a foreign Host or a cross-site Origin is refused, a token is demanded when one is set,
 * and a write asks the user through elicitation on the session's own stream.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { compiledBinary } from '../support/binary'
import { runProcess } from '../support/process'

const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-http-'))
writeFileSync(join(workDir, 'empty.env'), '')
const children: ReturnType<typeof Bun.spawn>[] = []
const clients: Client[] = []

/** Starts `smkit mcp --demo --http --port 0 ...extra`; resolves to the endpoint it prints. */
async function startHttp(extra: string[] = []): Promise<string> {
	const child = Bun.spawn(
		[await compiledBinary(), 'mcp', '--demo', '--http', '--port', '0', '--env', 'empty.env', ...extra],
		{ cwd: workDir, env: { PATH: process.env.PATH ?? '', HOME: workDir }, stdout: 'pipe', stderr: 'pipe' }
	)
	children.push(child)
	const reader = child.stdout.getReader()
	let output = ''
	while (!/MCP endpoint \(Streamable HTTP\): (\S+)/.test(output)) {
		const { done, value } = await reader.read()
		if (done) throw new Error(`smkit mcp --http exited: ${output}`)
		output += new TextDecoder().decode(value)
	}
	reader.releaseLock()
	return (/MCP endpoint \(Streamable HTTP\): (\S+)/.exec(output) as RegExpExecArray)[1]
}

async function connect(endpoint: string, options: { token?: string; allow?: boolean } = {}) {
	const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
		requestInit: options.token ? { headers: { authorization: `Bearer ${options.token}` } } : undefined
	})
	const client = new Client(
		{ name: 'smkit-test', version: '1.0.0' },
		{ capabilities: options.allow === undefined ? {} : { elicitation: { form: {} } } }
	)
	if (options.allow !== undefined)
		client.setRequestHandler(ElicitRequestSchema, async () => ({
			action: 'accept',
			content: { allow: options.allow as boolean }
		}))
	await client.connect(transport)
	clients.push(client)
	return client
}

const initialize = JSON.stringify({
	jsonrpc: '2.0',
	id: 1,
	method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } }
})
const post = (endpoint: string, headers: Record<string, string>) =>
	fetch(endpoint, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			...headers
		},
		body: initialize
	})

afterAll(async () => {
	for (const client of clients) await client.close().catch(() => {})
	for (const child of children) child.kill()
	await Promise.all(children.map((child) => child.exited))
	rmSync(workDir, { recursive: true, force: true })
})

describe('smkit mcp --http', () => {
	it('serves the tools at /mcp on loopback and refuses a foreign Host or Origin', async () => {
		const endpoint = await startHttp()
		expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
		const client = await connect(endpoint)
		const names = (await client.listTools()).tools.map((tool) => tool.name)
		expect(names).toContain('users_get_by_username')
		const profile = await client.callTool({
			name: 'users_get_by_username',
			arguments: { username: 'luna.explorer' }
		})
		expect(profile.structuredContent).toMatchObject({ username: 'luna.explorer' })

		const foreignHost = await post(endpoint, { host: 'evil.example' })
		expect(foreignHost.status).toBe(403)
		expect(await foreignHost.json()).toMatchObject({ success: false, code: 'forbidden' })
		const foreignOrigin = await post(endpoint, { origin: 'http://evil.example' })
		expect(foreignOrigin.status).toBe(403)
		expect(await foreignOrigin.json()).toMatchObject({ success: false, code: 'forbidden' })
	})

	it('demands the token when one is set', async () => {
		const token = 'mcp-test-token-1234'
		const endpoint = await startHttp(['--token', token])
		const without = await post(endpoint, {})
		expect(without.status).toBe(403)
		expect(await without.json()).toMatchObject({ code: 'forbidden' })
		const client = await connect(endpoint, { token })
		expect((await client.listTools()).tools.length).toBeGreaterThan(40)
	})

	it('asks through elicitation on the session and writes once allowed', async () => {
		const endpoint = await startHttp()
		const client = await connect(endpoint, { allow: true })
		const luna = await client.callTool({
			name: 'users_get_by_username',
			arguments: { username: 'luna.explorer' }
		})
		const posts = await client.callTool({
			name: 'feed_get_user_feed',
			arguments: { userPk: (luna.structuredContent as { pk: string }).pk, count: 1 }
		})
		const [post] = (posts.structuredContent as { items: { pk: string }[] }).items
		const liked = await client.callTool({ name: 'media_like', arguments: { mediaPk: post.pk } })
		expect(liked.isError).toBeFalsy()
		const refusing = await connect(endpoint)
		const refused = await refusing.callTool({ name: 'media_unlike', arguments: { mediaPk: post.pk } })
		expect(refused.isError).toBe(true)
		expect(JSON.parse((refused.content as { text: string }[])[0].text)).toMatchObject({ code: 'forbidden' })
	})
})

describe('smkit mcp without --http', () => {
	/** Runs `smkit mcp --demo ...args` with no input; resolves to its exit code and output. */
	const run = async (args: string[]) =>
		runProcess([await compiledBinary(), 'mcp', '--demo', '--env', 'empty.env', ...args], {
			cwd: workDir,
			env: { PATH: process.env.PATH ?? '', HOME: workDir }
		})

	it('refuses --port, --host and --token as bad usage naming them, instead of serving stdio', async () => {
		const port = await run(['--port', '5'])
		expect(port.code).toBe(2)
		expect(port.stderr).toContain(
			'--port applies only with --http (without it smkit mcp serves stdio): add --http or leave it out'
		)
		expect(port.stdout).toBe('')
		const both = await run(['--host', '0.0.0.0', '--token', 'a-long-enough-token-123'])
		expect(both.code).toBe(2)
		expect(both.stderr).toContain('--host, --token apply only with --http')
	})

	it('says in --help which options need --http, with their defaults', async () => {
		const help = await run(['--help'])
		expect(help.code).toBe(0)
		expect(help.stdout).toMatch(/--port <port>\s+With --http: the server port \(default: 8866\)/)
		expect(help.stdout).toMatch(/--host <host>\s+With --http: the server host \(default: 127\.0\.0\.1\)/)
		expect(help.stdout).toMatch(/--proxy-mode <mode>\s+With proxies: .*\(default: rotate\)/)
	})
})
